import type { Readable } from 'node:stream';
import type { WebClient } from '@slack/web-api';
import { loadAxios } from '../runtime/load-axios';

export interface StreamUpload {
  /** A channel id (a direct message: `conversations.open` first). */
  channelId: string;
  filename: string;
  title: string;
  initialComment?: string;
  /** The exact number of bytes `body` will give. */
  length: number;
  body: Readable;
  /** Time limit of the bytes' upload. */
  timeoutMs: number;
}

/**
 * `files.uploadV2`'s three steps with a streamed body: `files.getUploadURLExternal` (the name and
 * the length), the bytes POSTed raw to the URL it gives, then `files.completeUploadExternal`, which
 * shares the file in the channel. The SDK's own `files.uploadV2` reads a stream whole into memory
 * before it sends it (it needs the length); here the length is known beforehand, so the bytes flow.
 * https://docs.slack.dev/reference/methods/files.getUploadURLExternal ("Files can be sent as raw
 * bytes or can be multipart form encoded"), https://docs.slack.dev/reference/methods/files.completeUploadExternal
 */
export async function uploadStream(slack: WebClient, upload: StreamUpload): Promise<{ fileId: string }> {
  let sent = false;
  try {
    const target = await slack.files.getUploadURLExternal({ filename: upload.filename, length: upload.length });
    if (!target.upload_url || !target.file_id) throw new Error('files.getUploadURLExternal gave no upload URL');
    await loadAxios().post(target.upload_url, upload.body, {
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': String(upload.length) },
      maxBodyLength: Infinity,
      maxRedirects: 0,
      timeout: upload.timeoutMs,
      validateStatus: (status) => status === 200,
    });
    sent = true;
    await slack.files.completeUploadExternal({
      files: [{ id: target.file_id, title: upload.title }],
      channel_id: upload.channelId,
      ...(upload.initialComment ? { initial_comment: upload.initialComment } : {}),
    });
    return { fileId: target.file_id };
  } finally {
    // A stream that was not (wholly) read must not go on reading the store.
    if (!sent) upload.body.destroy();
  }
}
