import { z } from 'zod';
import type { ApiRouter } from '../context';
import { fail, jsonReply } from '../http';
import type { Evidence } from '../state';
import { parseWith } from '../validate';

const evidenceSchema = z.object({
  documents: z
    .array(
      z.object({
        fileId: z.string({ error: 'must be a string' }).min(1, 'must not be empty').optional(),
        url: z.url({ error: 'must be a URL' }).optional(),
      }),
      { error: 'At least one document is required' },
    )
    .min(1, 'At least one document is required'),
});

export function registerDisputeRoutes(router: ApiRouter): void {
  // The service's webhook signing keys: no AppID needed (the contract).
  router.add('GET', '/api/v1/webhook/public-keys', {
    public: true,
    handle: async ({ webhooks }) => jsonReply(200, await webhooks.publicKeys()),
  });

  router.add('POST', '/api/v1/dispute/:id/evidence', {
    handle({ state, caller, params, body }) {
      const dispute = state.disputeOf(caller.companyId, params.id ?? '');
      if (!dispute) throw fail(404, 'Dispute not found');
      const { documents } = parseWith(evidenceSchema, body());
      documents.forEach((doc, i) => {
        if (doc.fileId !== undefined && doc.url !== undefined) throw fail(400, `documents.${i} Send url or fileId, not both`);
        if (doc.fileId === undefined && doc.url === undefined) throw fail(400, `documents.${i} url or fileId is required`);
      });
      const company = state.companies.get(caller.companyId);
      if (documents.some((d) => d.fileId !== undefined) && !company?.features.has('DISPUTE_EVIDENCE_FILE_ID')) {
        throw fail(403, 'Evidence by fileId is not allowed for this company', 'DISPUTE_EVIDENCE_FILE_ID_NOT_ALLOWED');
      }

      const createdAt = new Date().toISOString();
      const evidences: Evidence[] = documents.map((doc) => {
        if (doc.url !== undefined) return { id: state.ids.objectId(), url: doc.url, createdAt };
        const fileId = doc.fileId ?? '';
        const file = state.fileOf(caller.companyId, fileId);
        if (file?.purpose !== 'DISPUTE_EVIDENCE') throw fail(400, `Document ${fileId}: File not found`);
        return { id: state.ids.objectId(), fileId, fileName: file.fileName, contentType: file.contentType, createdAt };
      });
      dispute.evidences.push(...evidences);
      return jsonReply(200, { dispute: { id: dispute.id, status: dispute.status, evidences: dispute.evidences.map((e) => ({ ...e })) } });
    },
  });
}
