import { open } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { WebClient } from '@slack/web-api';
import { PixOpsError } from '../errors';
import { IncompleteSlackAnswerError } from './incomplete-answer';

export interface FileUpload {
  /** A channel id (a direct message: `conversations.open` first). */
  channelId: string;
  filename: string;
  title: string;
  initialComment?: string;
  /** A local file, and its exact length. */
  file: string;
  length: number;
  /** Time limit of the bytes' upload (each stall of the connection). */
  timeoutMs: number;
}

/** The upload URL answered something else than 200. */
export class UploadRefusedError extends PixOpsError {
  readonly code = 'pixops_slack_upload_refused';

  constructor(readonly status: number | undefined) {
    super(`Slack's upload URL answered HTTP ${status ?? '?'}`);
  }
}

/** The connection to the upload URL stalled longer than the upload's time limit. */
export class UploadStalledError extends PixOpsError {
  readonly code = 'pixops_slack_upload_stalled';

  constructor() {
    super('the upload stalled');
  }
}

/** The file ended before the length announced to Slack (it changed on disk meanwhile). */
export class FileShorterThanLengthError extends PixOpsError {
  readonly code = 'pixops_slack_upload_file_short';

  constructor() {
    super('the file is shorter than its length');
  }
}

/** Bytes read at a time from the file, into the one buffer the upload uses. */
const CHUNK = 64 * 1024;

/**
 * `files.uploadV2`'s three steps for a local file of any size: `files.getUploadURLExternal` (name and
 * length), the bytes POSTed raw to the URL it gives, then `files.completeUploadExternal`, which
 * shares the file in the channel. The SDK's own `files.uploadV2` reads the whole file (or stream)
 * into memory first.
 * https://docs.slack.dev/reference/methods/files.getUploadURLExternal ("Files can be sent as raw
 * bytes or can be multipart form encoded"), https://docs.slack.dev/reference/methods/files.completeUploadExternal
 */
export async function uploadFile(slack: WebClient, upload: FileUpload): Promise<{ fileId: string }> {
  const target = await slack.files.getUploadURLExternal({ filename: upload.filename, length: upload.length });
  if (!target.upload_url || !target.file_id) throw new IncompleteSlackAnswerError('files.getUploadURLExternal gave no upload URL');
  await postFile(target.upload_url, upload);
  await slack.files.completeUploadExternal({
    files: [{ id: target.file_id, title: upload.title }],
    channel_id: upload.channelId,
    ...(upload.initialComment ? { initial_comment: upload.initialComment } : {}),
  });
  return { fileId: target.file_id };
}

/**
 * The file's bytes as the request body, through one buffer: a chunk is read into it only once the
 * previous one is handed to the socket. A read stream would allocate a buffer per chunk, which the
 * garbage collector frees late: a 20 MiB file would briefly cost about 20 MiB of memory.
 */
async function postFile(url: string, upload: FileUpload): Promise<void> {
  const to = new URL(url);
  const handle = await open(upload.file, 'r');
  try {
    await new Promise<void>((resolve, reject) => {
      const request = (to.protocol === 'https:' ? https : http).request(
        to,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': upload.length },
          timeout: upload.timeoutMs,
        },
        (response) => {
          response.resume();
          response.on('error', reject);
          response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new UploadRefusedError(response.statusCode))));
        },
      );
      request.on('error', reject);
      request.on('timeout', () => request.destroy(new UploadStalledError()));
      const buffer = Buffer.allocUnsafe(CHUNK);
      const send = async () => {
        for (let sent = 0; sent < upload.length; ) {
          const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK, upload.length - sent), sent);
          if (bytesRead === 0) throw new FileShorterThanLengthError();
          await new Promise<void>((done, fail) => request.write(buffer.subarray(0, bytesRead), (err) => (err ? fail(err) : done())));
          sent += bytesRead;
        }
        request.end();
      };
      // What send() throws is always an Error: a file read's, a write's, or one of the above.
      send().catch((err: Error) => request.destroy(err));
    });
  } finally {
    await handle.close();
  }
}
