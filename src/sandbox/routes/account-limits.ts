import { z } from 'zod';
import type { ApiRouter } from '../context';
import { fail, jsonReply } from '../http';
import { isRequestableLimitField, type LimitValues, limitValueSchema, REQUIRED_LIMIT_FIELDS } from '../limits-object';
import type { LimitRequest } from '../state';
import { parseWith } from '../validate';
import { limitRequestView } from '../views';

const MAX_DOCUMENTS = 10;
const MAX_PAGE_SIZE = 100;

const objectBodySchema = z.record(z.string(), z.unknown(), { error: 'Body must be a JSON object' });
const accountIdSchema = z.object({ companyBankAccountId: z.string({ error: 'is required' }).min(1, 'is required') });
const documentsSchema = z.object({
  documents: z
    .array(z.object({ fileId: z.string({ error: 'is required' }).min(1, 'is required') }), {
      error: 'At least one document is required',
    })
    .min(1, 'At least one document is required')
    .max(MAX_DOCUMENTS, `At most ${MAX_DOCUMENTS} documents are allowed`),
});
const textsSchema = z.object({
  description: z.string({ error: 'must be a string' }).optional(),
  limitRequestReason: z.string({ error: 'must be a string' }).optional(),
});
const NON_LIMIT_BODY_FIELDS = new Set(['companyBankAccountId', 'documents', 'description', 'limitRequestReason']);

const pageSchema = z.object({
  limit: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
    .default(10),
  skip: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must not be negative').default(0),
});

export function registerLimitRoutes(router: ApiRouter): void {
  // Registered before `/limits/:accountId`, which would otherwise swallow `request`.
  router.add('GET', '/api/v1/limits/request', {
    scope: 'ACCOUNT_LIMITS_GET',
    handle({ state, caller, query }) {
      const { limit, skip } = parseWith(pageSchema, query);
      const ofCompany = state.limitRequests.filter((r) => r.companyId === caller.companyId).reverse();
      return jsonReply(200, {
        limitRequests: ofCompany.slice(skip, skip + limit).map(limitRequestView),
        total: ofCompany.length,
      });
    },
  });

  router.add('GET', '/api/v1/limits/request/:id', {
    scope: 'ACCOUNT_LIMITS_GET',
    handle({ state, caller, params }) {
      const request = state.limitRequestOf(caller.companyId, params.id ?? '');
      if (!request) throw fail(404, 'Limit request not found');
      return jsonReply(200, { limitRequest: limitRequestView(request) });
    },
  });

  router.add('POST', '/api/v1/limits/request', {
    scope: 'ACCOUNT_LIMITS_REQUEST_POST',
    handle({ state, caller, body: readBody }) {
      const body = parseWith(objectBodySchema, readBody());

      const { companyBankAccountId } = parseWith(accountIdSchema, body);
      const account = state.accountOf(caller.companyId, companyBankAccountId);
      if (!account) throw fail(404, 'Account not found');

      const { documents } = parseWith(documentsSchema, body);
      const files = documents.map(({ fileId }) => {
        const file = state.fileOf(caller.companyId, fileId);
        if (file?.purpose !== 'ACCOUNT_LIMIT_REQUEST') throw fail(400, `Document ${fileId}: File not found`);
        return file;
      });

      for (const field of REQUIRED_LIMIT_FIELDS) {
        if (body[field] === undefined) throw fail(400, `${field} is required`);
      }
      const requested: LimitValues = {};
      for (const [field, value] of Object.entries(body)) {
        if (NON_LIMIT_BODY_FIELDS.has(field)) continue;
        if (!isRequestableLimitField(field)) throw fail(400, `${field} is not a requestable limit`);
        requested[field] = parseWith(limitValueSchema, value, field);
      }
      const texts = parseWith(textsSchema, body);

      const changes = Object.entries(requested).map(([field, value]) => ({
        value,
        current: account.limits[field as keyof LimitValues],
      }));
      if (changes.some((c) => c.value < c.current)) throw fail(400, 'Requested limit cannot be less than the current value');
      if (!changes.some((c) => c.value > c.current)) throw fail(400, 'At least one limit must be greater than the current value');
      if (state.limitRequests.some((r) => r.companyBankAccountId === account.id && r.status === 'IN_REVIEW')) {
        throw fail(409, 'Limit request already in review');
      }

      const now = new Date().toISOString();
      const request: LimitRequest = {
        id: state.ids.objectId(),
        companyId: caller.companyId,
        companyBankAccountId: account.id,
        status: 'IN_REVIEW',
        requestedLimits: requested,
        documents: files.map((f) => ({ fileId: f.id, fileName: f.fileName, contentType: f.contentType })),
        ...texts,
        createdAt: now,
        updatedAt: now,
      };
      state.limitRequests.push(request);
      return jsonReply(201, { limitRequest: limitRequestView(request) });
    },
  });

  router.add('GET', '/api/v1/limits/:accountId', {
    scope: 'ACCOUNT_LIMITS_GET',
    handle({ state, caller, params }) {
      const account = state.accountOf(caller.companyId, params.accountId ?? '');
      if (!account) throw fail(404, 'Account not found');
      return jsonReply(200, { limits: { ...account.limits } });
    },
  });
}
