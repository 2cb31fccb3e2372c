import { z } from 'zod';
import { callerCompany } from '../auth';
import type { ApiContext, ApiRouter } from '../context';
import { fail, jsonReply, type Reply } from '../http';
import { lookUp, recordCheck, tokensView } from '../lookups';
import { keyTypeOf, pixKeyType } from '../pix-key-format';
import { parseWith } from '../validate';

const checkSchema = z.object(
  { pixKey: z.string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') }).min(1, 'is required') },
  { error: 'Body must be a JSON object' },
);

/** Who holds a key, by a DICT look-up that spends the company's tokens (pix-money-out.md §4). */
function check(ctx: ApiContext, pixKey: string): Reply {
  const company = callerCompany(ctx.state, ctx.caller);
  if (!company.features.has('CHECK_PIX_KEY')) throw fail(403, 'Pix key check is not enabled for this company');
  const entry = lookUp(ctx.state, company, pixKey, keyTypeOf(pixKey));
  if (!entry) throw fail(404, 'Pix key not found');
  return jsonReply(200, {
    pixKey,
    type: pixKeyType(entry.type),
    pixKeyEndToEndId: recordCheck(ctx.state, company, pixKey),
    owner: {
      name: entry.holder.name,
      taxID: entry.holderTaxId,
      psp: entry.holder.bank,
      branch: entry.holder.branch,
      account: entry.holder.account,
    },
  });
}

export function registerPixKeyCheckRoutes(router: ApiRouter): void {
  router.add('POST', '/api/v1/pix-keys/check', {
    handle: (ctx) => check(ctx, parseWith(checkSchema, ctx.body()).pixKey),
  });

  router.add('GET', '/api/v1/pix-keys/tokens', {
    handle: (ctx) => jsonReply(200, tokensView(ctx.state, callerCompany(ctx.state, ctx.caller))),
  });

  router.add('GET', '/api/v1/pix-keys/:pixKey/check', {
    handle: (ctx) => check(ctx, ctx.params.pixKey ?? ''),
  });
}
