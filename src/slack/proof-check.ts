import { pipeline, type Readable, Transform } from 'node:stream';
import { detectProofType, FileOverCapError, HEAD_BYTES, MAX_FILE_BYTES, type ProofType } from '../domain/proof-files';
import { type Locale, messages } from '../i18n';
import type { FilePurpose, PixClient } from '../pix/client';
import type { SlackClients } from './clients';
import { fileLabel, openFileStream, readFileHead, resolveSlackFile, type SlackFile } from './files';

// Every file the app sends to `POST /api/v1/files` (limit proofs, dispute evidence) is judged and
// carried the same way: checked from its metadata and first bytes, then streamed from Slack.

const DOWNLOAD_TIMEOUT_MS = 60_000;

/** Slack gives a view submission three seconds; the file checks must leave room for the answer. */
export const FILE_CHECK_BUDGET_MS = 2_200;

export interface CheckedFile {
  file: SlackFile;
  type: ProofType;
}

export type FileCheck = { ok: true; files: CheckedFile[] } | { ok: false; problem: string };

/**
 * Size from Slack's metadata and type from the first bytes (a ranged download), for every file at
 * once, within the submission's time budget. Returns the first problem, naming the file, in the
 * reader's language.
 */
export async function checkProofFiles(
  locale: Locale,
  deps: { slack: Pick<SlackClients, 'quick'>; botToken: string },
  files: Array<{ id: string } & Record<string, unknown>>,
  budgetMs = FILE_CHECK_BUDGET_MS,
): Promise<FileCheck> {
  const m = messages(locale).files;
  const checkOne = async (given: { id: string } & Record<string, unknown>): Promise<CheckedFile | string> => {
    let file: SlackFile;
    try {
      file = await resolveSlackFile(deps.slack.quick, given);
    } catch {
      return m.cannotRead(given.id);
    }
    const name = fileLabel(file);
    if (file.size !== undefined && file.size > MAX_FILE_BYTES) {
      return m.tooBig({
        name,
        mib: (file.size / 1024 / 1024).toLocaleString(locale === 'en' ? 'en-US' : 'pt-BR', {
          minimumFractionDigits: 1,
          maximumFractionDigits: 1,
        }),
      });
    }
    if (file.size === 0) return m.empty(name);
    if (!file.url_private_download) return m.cannotDownload(name);
    let head: Buffer;
    try {
      head = await readFileHead(file.url_private_download, deps.botToken, HEAD_BYTES, budgetMs);
    } catch {
      return m.notInTime(name);
    }
    const type = await detectProofType(head);
    if (!type) return m.wrongType(name);
    return { file, type };
  };
  const results = await Promise.all(files.map(checkOne));
  const problem = results.find((r): r is string => typeof r === 'string');
  if (problem) return { ok: false, problem };
  return { ok: true, files: results as CheckedFile[] };
}

/**
 * The stream, failing as soon as more than `max` bytes have come through: the cap is counted on what
 * is actually sent, since Slack's `size` is only what Slack says.
 */
function capped(source: Readable, max: number, name: string): { stream: Readable; exceeded: () => boolean } {
  let seen = 0;
  let over = false;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > max) {
        over = true;
        done(new FileOverCapError(name));
        return;
      }
      done(null, chunk);
    },
  });
  return { stream: pipeline(source, counter, () => undefined), exceeded: () => over };
}

/**
 * Streams each checked file from Slack (bot token) into `POST /api/v1/files`, one at a time, in
 * order; `onFile` is told before each one (for progress). The ids go into `fileIds` as each upload
 * is done, so a caller that fails midway knows how many went up. A file over 10 MiB, by its
 * Content-Length or by the bytes counted on the way, stops there with a FileOverCapError.
 */
export async function uploadCheckedFiles(
  deps: { pix: PixClient; mainAppId: string; botToken: string },
  files: CheckedFile[],
  purpose: FilePurpose,
  onFile: (index: number, file: CheckedFile) => Promise<unknown>,
  fileIds: string[] = [],
): Promise<string[]> {
  for (const [i, checked] of files.entries()) {
    await onFile(i, checked);
    const name = fileLabel(checked.file);
    const download = await openFileStream(checked.file.url_private_download!, deps.botToken, DOWNLOAD_TIMEOUT_MS);
    if (download.length !== undefined && download.length > MAX_FILE_BYTES) {
      download.stream.destroy();
      throw new FileOverCapError(name);
    }
    const body = capped(download.stream, MAX_FILE_BYTES, name);
    try {
      const uploaded = await deps.pix.uploadFile(deps.mainAppId, {
        stream: body.stream,
        fileName: name,
        contentType: checked.type.mime,
        knownLength: download.length,
        purpose,
      });
      fileIds.push(uploaded.id);
    } catch (err) {
      // The download too, if the upload stopped before the end of it.
      body.stream.destroy();
      throw body.exceeded() ? new FileOverCapError(name) : err;
    }
  }
  return fileIds;
}
