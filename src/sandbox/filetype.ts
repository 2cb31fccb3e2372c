/** The four accepted upload types and how to recognise each from its first bytes. */

export const FILE_TYPES = ['application/pdf', 'image/png', 'image/jpeg', 'image/webp'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** Enough leading bytes to tell every accepted type apart (WebP needs 12). */
export const SIGNATURE_LENGTH = 12;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function isFileType(value: string): value is FileType {
  return (FILE_TYPES as readonly string[]).includes(value);
}

export function detectFileType(head: Buffer): FileType | undefined {
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (head.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') {
    return 'image/webp';
  }
  return undefined;
}
