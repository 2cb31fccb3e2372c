import type { Readable } from 'node:stream';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';
import { loadAxios } from '../runtime/load-axios';

/** What the app needs of a file shared in Slack (from files.info, a message, or a file_input). */
export const SlackFileSchema = z.looseObject({
  id: z.string(),
  name: z.string().optional(),
  title: z.string().optional(),
  size: z.number().int().nonnegative().optional(),
  mimetype: z.string().optional(),
  url_private_download: z.string().url().optional(),
});
export type SlackFile = z.infer<typeof SlackFileSchema>;

export const fileLabel = (f: SlackFile) => f.name ?? f.title ?? f.id;

/** The file's metadata, from what Slack already sent when it is complete, else from files.info. */
export async function resolveSlackFile(client: WebClient, file: { id: string } & Partial<SlackFile>): Promise<SlackFile> {
  const given = SlackFileSchema.safeParse(file);
  if (given.success && given.data.url_private_download && given.data.size !== undefined) return given.data;
  const info = await client.files.info({ file: file.id });
  return SlackFileSchema.parse(info.file);
}

/**
 * The first bytes of a private file, with the bot token. A ranged request, cut short in any case:
 * the whole file is never read just to judge its type.
 */
export async function readFileHead(url: string, botToken: string, bytes: number, timeoutMs: number): Promise<Buffer> {
  const res = await loadAxios().get<Readable>(url, {
    headers: { Authorization: `Bearer ${botToken}`, Range: `bytes=0-${bytes - 1}` },
    responseType: 'stream',
    timeout: timeoutMs,
    signal: AbortSignal.timeout(timeoutMs),
    validateStatus: (s) => s === 200 || s === 206,
  });
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of res.data) {
      chunks.push(chunk as Buffer);
      length += (chunk as Buffer).length;
      if (length >= bytes) break;
    }
  } finally {
    res.data.destroy();
  }
  return Buffer.concat(chunks).subarray(0, bytes);
}

/** The whole private file as a stream (with its length when Slack gives one), never buffered. */
export async function openFileStream(url: string, botToken: string, timeoutMs: number): Promise<{ stream: Readable; length?: number }> {
  const res = await loadAxios().get<Readable>(url, {
    headers: { Authorization: `Bearer ${botToken}` },
    responseType: 'stream',
    timeout: timeoutMs,
    validateStatus: (s) => s === 200,
  });
  const header = Number(res.headers['content-length']);
  return { stream: res.data, length: Number.isSafeInteger(header) && header >= 0 ? header : undefined };
}
