import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { SIGNATURE_LENGTH } from './filetype';
import { fail } from './http';

/** What is kept of an uploaded file: never its bytes, only what identifies and classifies them. */
export interface UploadedFile {
  fileName: string;
  declaredType: string;
  size: number;
  sha256: string;
  head: Buffer;
}

export interface UploadOutcome {
  purpose?: string;
  file?: UploadedFile;
  /** The file went over the size limit; reading stopped there. */
  tooLarge: boolean;
}

/**
 * Streams a `multipart/form-data` body with fields `file` and `purpose`. The file is hashed as it
 * passes; once it exceeds `maxFileBytes` the rest of the request is discarded unread.
 */
export function readUpload(req: IncomingMessage, maxFileBytes: number): Promise<UploadOutcome> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // busboy signals 'limit' on reaching fileSize, so a file of exactly maxFileBytes needs one more.
        limits: { files: 1, fileSize: maxFileBytes + 1, fields: 10, fieldSize: 64 * 1024, parts: 20 },
      });
    } catch {
      reject(fail(400, 'Malformed multipart body'));
      return;
    }
    const outcome: UploadOutcome = { tooLarge: false };

    parser.on('field', (name, value) => {
      if (name === 'purpose') outcome.purpose = value;
    });

    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || outcome.file) {
        stream.resume();
        return;
      }
      const file: UploadedFile = {
        fileName: info.filename ?? '',
        declaredType: info.mimeType.toLowerCase(),
        size: 0,
        sha256: '',
        head: Buffer.alloc(0),
      };
      outcome.file = file;
      const hash = createHash('sha256');
      stream.on('data', (chunk: Buffer) => {
        if (file.head.length < SIGNATURE_LENGTH) {
          file.head = Buffer.concat([file.head, chunk.subarray(0, SIGNATURE_LENGTH - file.head.length)]);
        }
        file.size += chunk.length;
        hash.update(chunk);
      });
      stream.on('limit', () => {
        outcome.tooLarge = true;
        req.unpipe(parser);
        req.resume();
        resolve(outcome);
      });
      stream.on('end', () => {
        file.sha256 = hash.digest('hex');
      });
    });

    parser.on('close', () => resolve(outcome));
    parser.on('error', () => reject(fail(400, 'Malformed multipart body')));
    req.on('error', reject);
    req.pipe(parser);
  });
}
