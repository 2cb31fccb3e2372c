import FileType from 'file-type/core';
import { PixOpsError } from '../errors';

/** What the Pix API accepts as a file (section 8): judged by the bytes, never by the name. */
export const ACCEPTED_TYPES = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
} as const;

export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** A file found larger than MAX_FILE_BYTES while it was being sent (or by its Content-Length). */
export class FileOverCapError extends PixOpsError {
  readonly code = 'pixops_file_over_cap';

  constructor(readonly fileName: string) {
    super('file larger than 10 MiB');
  }
}
export const MAX_FILES = 10;
/** Enough of a file's start for file-type to recognize these four formats. */
export const HEAD_BYTES = 4100;

export type ProofType = { ext: keyof typeof ACCEPTED_TYPES; mime: (typeof ACCEPTED_TYPES)[keyof typeof ACCEPTED_TYPES] };

/** The file's real type when it is one the Pix API accepts, else undefined. */
export async function detectProofType(head: Buffer): Promise<ProofType | undefined> {
  const found = await FileType.fromBuffer(head);
  if (!found || !(found.ext in ACCEPTED_TYPES)) return undefined;
  const ext = found.ext as ProofType['ext'];
  return { ext, mime: ACCEPTED_TYPES[ext] };
}
