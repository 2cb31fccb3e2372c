import { z } from 'zod';
import type { ControlHandler } from './control';
import { dictEntryView } from './dict';
import { fail, jsonReply, type Router } from './http';
import { CHECK_VALID_MS, FOUND_CACHE_MS, MIN_TOKENS, MISSING_CACHE_MS, PAID_REFUND, refreshed, tokensView } from './lookups';
import { FAILURE_CODES, FAILURE_DESCRIPTIONS, removePayment } from './payments';
import type { Payment, SandboxState } from './state';
import { parseWith } from './validate';
import { accountView, paymentReadView } from './views';

/**
 * `/sandbox/*` controls of the money-out endpoints: the clock, the look-up tokens, the DICT's answers,
 * how approved payments end, the web app's removal of a payment, and the autoApprove permission.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const tokenCount = z.number({ error: 'must be a whole number' }).int('must be a whole number').min(0, 'must not be negative');
const tokensSchema = z
  .object({
    tokens: tokenCount.optional(),
    maxTokens: tokenCount.min(1, 'must be at least 1').optional(),
    refreshRate: tokenCount.optional(),
  })
  .refine(
    (t) => t.tokens !== undefined || t.maxTokens !== undefined || t.refreshRate !== undefined,
    'give tokens, maxTokens or refreshRate',
  );
const failSchema = z.object({
  code: z.enum(FAILURE_CODES, { error: `must be one of ${FAILURE_CODES.join(', ')}` }),
  description: z.string().trim().min(1).max(300).optional(),
  /** Every payment to this key fails; without it, the next `count` payments approved. */
  pixKey: z.string().min(1).optional(),
  count: z.number().int().min(1).max(10_000).default(1),
});
const enabledSchema = z.object({ enabled: z.boolean({ error: 'must be a boolean' }) });

/** A payment by id or correlationID, of any company; a correlationID two companies use must be given as the id. */
function anyPayment(state: SandboxState, idOrCorrelationID: string): Payment {
  const byId = state.payments.get(idOrCorrelationID);
  if (byId) return byId;
  const matches = [...state.payments.values()].filter((p) => p.correlationID === idOrCorrelationID);
  if (matches.length > 1) throw fail(409, 'Several companies have a payment with this correlationID: give the payment id');
  if (!matches[0]) throw fail(404, 'Payment not found');
  return matches[0];
}

/** What a test or the playground needs to drive the money-out endpoints, for `GET /sandbox/info`. */
export function moneyOutInfo(state: SandboxState): Record<string, unknown> {
  const { failNext } = state.paymentOutcomes;
  return {
    clock: { now: state.clock.date().toISOString(), offsetMs: state.clock.offsetMs },
    dict: [...state.dict].filter(([, e]) => !e.serviceAccount).map(([pixKey, e]) => dictEntryView(pixKey, e)),
    payments: {
      confirmDelayMs: state.paymentOutcomes.confirmDelayMs,
      failureCodes: { ...FAILURE_DESCRIPTIONS },
      // What `POST /sandbox/payments/fail` armed and no payment has used yet (the playground's panel shows it).
      failNext: failNext ? { code: failNext.failure.code, description: failNext.failure.description, count: failNext.count } : null,
    },
    lookups: {
      minTokens: MIN_TOKENS,
      paidRefund: PAID_REFUND,
      foundCacheMs: FOUND_CACHE_MS,
      missingCacheMs: MISSING_CACHE_MS,
      checkValidMs: CHECK_VALID_MS,
    },
  };
}

export function registerMoneyOutControls(router: Router<ControlHandler>): Router<ControlHandler> {
  return (
    router
      .add('GET', '/sandbox/clock', ({ state }) =>
        jsonReply(200, { now: state.clock.date().toISOString(), offsetMs: state.clock.offsetMs }),
      )

      // Forward only: tokens refill, caches expire and payments settle as if that time had passed.
      .add('POST', '/sandbox/clock', ({ state, body }) => {
        const { advanceMs } = parseWith(
          z.object({
            advanceMs: z
              .number()
              .int()
              .min(0)
              .max(366 * DAY_MS),
          }),
          body(),
        );
        state.clock.advance(advanceMs);
        return jsonReply(200, { now: state.clock.date().toISOString(), offsetMs: state.clock.offsetMs });
      })

      .add('POST', '/sandbox/companies/:companyId/lookup-tokens', ({ state, params, body }) => {
        const company = state.companies.get(params.companyId ?? '');
        if (!company) throw fail(404, 'Company not found');
        const input = parseWith(tokensSchema, body());
        const bucket = refreshed(company.lookups, state.clock.now());
        if (input.maxTokens !== undefined) bucket.maxTokens = input.maxTokens;
        if (input.refreshRate !== undefined) bucket.refreshRate = input.refreshRate;
        bucket.tokens = Math.min(bucket.maxTokens, input.tokens ?? bucket.tokens);
        return jsonReply(200, tokensView(state, company));
      })

      .add('POST', '/sandbox/dict/too-many-requests', ({ state, body }) => {
        const { count } = parseWith(z.object({ count: z.number().int().min(0).max(10_000) }), body());
        state.dictTooManyRequests = count;
        return jsonReply(200, { count });
      })

      // The key leaves the directory (and the service's cache): a withdraw to it blocks the account.
      .add('DELETE', '/sandbox/dict/:pixKey', ({ state, params }) => {
        const pixKey = params.pixKey ?? '';
        if (!state.dict.delete(pixKey)) throw fail(404, 'Pix key not found in DICT');
        state.dictCache.delete(pixKey);
        return { status: 204 };
      })

      .add('POST', '/sandbox/payments/confirm-delay', ({ state, body }) => {
        const { ms } = parseWith(z.object({ ms: z.number().int().min(0).max(DAY_MS) }), body());
        state.paymentOutcomes.confirmDelayMs = ms;
        return jsonReply(200, { confirmDelayMs: ms });
      })

      .add('POST', '/sandbox/payments/fail', ({ state, body }) => {
        const { code, description, pixKey, count } = parseWith(failSchema, body());
        const failure = { code, description: description ?? FAILURE_DESCRIPTIONS[code] };
        const outcomes = state.paymentOutcomes;
        if (pixKey === undefined) outcomes.failNext = { failure, count };
        else outcomes.failByKey.set(pixKey, failure);
        return jsonReply(200, { failure, ...(pixKey === undefined ? { count } : { pixKey }) });
      })

      .add('DELETE', '/sandbox/payments/fail', ({ state }) => {
        state.paymentOutcomes.failNext = undefined;
        state.paymentOutcomes.failByKey.clear();
        return { status: 204 };
      })

      .add('POST', '/sandbox/payments/:id/remove', ({ state, webhooks, params }) => {
        const payment = anyPayment(state, params.id ?? '');
        removePayment(state, webhooks, payment);
        return jsonReply(200, paymentReadView(payment));
      })

      .add('POST', '/sandbox/accounts/:id/auto-approve', ({ state, params, body }) => {
        const account = state.accounts.get(params.id ?? '');
        if (!account) throw fail(404, 'Account not found');
        account.autoApprove = parseWith(enabledSchema, body()).enabled;
        return jsonReply(200, { account: { ...accountView(account), autoApprove: account.autoApprove } });
      })
  );
}
