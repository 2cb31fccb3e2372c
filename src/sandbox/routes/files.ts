import type { ApiRouter } from '../context';
import { detectFileType, isFileType } from '../filetype';
import { fail, isMultipart, jsonReply } from '../http';
import { readUpload } from '../multipart';
import { FILE_PURPOSES, type FilePurpose, type StoredFile } from '../state';
import { fileView } from '../views';

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
const URL_LIFETIME_MS = 60 * 60 * 1000;

function isPurpose(value: string | undefined): value is FilePurpose {
  return (FILE_PURPOSES as readonly (string | undefined)[]).includes(value);
}

export function registerFileRoutes(router: ApiRouter): void {
  router.add('POST', '/api/v1/files', {
    scope: 'FILE_POST',
    async handle({ req, state, caller, call, baseUrl }) {
      if (!isMultipart(req)) throw fail(400, 'Content-Type must be multipart/form-data');
      const upload = await readUpload(req, MAX_FILE_BYTES);
      const file = upload.file;
      call.body = { purpose: upload.purpose, fileName: file?.fileName, contentType: file?.declaredType, size: file?.size };

      if (upload.tooLarge) throw fail(413, 'File too large');
      if (!file) throw fail(400, 'file is required');
      if (!isPurpose(upload.purpose)) throw fail(400, `purpose must be one of ${FILE_PURPOSES.join(', ')}`);
      if (!isFileType(file.declaredType)) throw fail(400, 'Invalid file type');
      if (detectFileType(file.head) !== file.declaredType) {
        throw fail(400, `File content does not match its type ${file.declaredType}`);
      }

      const now = new Date();
      const stored: StoredFile = {
        id: state.ids.objectId(),
        correlationID: state.ids.uuid(),
        companyId: caller.companyId,
        purpose: upload.purpose,
        fileName: file.fileName,
        contentType: file.declaredType,
        size: file.size,
        sha256: file.sha256,
        createdAt: now.toISOString(),
        urlExpiresAt: new Date(now.getTime() + URL_LIFETIME_MS).toISOString(),
      };
      state.files.set(stored.id, stored);
      return jsonReply(201, { file: fileView(stored, baseUrl) });
    },
  });
}
