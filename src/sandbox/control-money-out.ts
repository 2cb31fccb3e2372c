import { z } from 'zod';
import type { ControlHandler } from './control';
import { dictEntryView } from './dict';
import { fail, jsonReply, type Router } from './http';
import { CHECK_VALID_MS, FOUND_CACHE_MS, MIN_TOKENS, MISSING_CACHE_MS, PAID_REFUND, refreshed, tokensView } from './lookups';
import type { SandboxState } from './state';
import { parseWith } from './validate';

/**
 * `/sandbox/*` controls of the money-out endpoints: the clock, the look-up tokens, the DICT's answers.
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

/** What a test or the playground needs to drive the money-out endpoints, for `GET /sandbox/info`. */
export function moneyOutInfo(state: SandboxState): Record<string, unknown> {
  return {
    clock: { now: state.clock.date().toISOString(), offsetMs: state.clock.offsetMs },
    dict: [...state.dict].filter(([, e]) => !e.serviceAccount).map(([pixKey, e]) => dictEntryView(pixKey, e)),
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
  );
}
