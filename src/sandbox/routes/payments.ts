import { z } from 'zod';
import { callerCompany } from '../auth';
import type { ApiRouter } from '../context';
import { fail, jsonReply } from '../http';
import { isRecentCheck, lookUp, requireTokens } from '../lookups';
import { approvePayment } from '../payments';
import { isWellFormed } from '../pix-key-format';
import { PAYMENT_TYPES, type Payment, WITHDRAW_KEY_TYPES } from '../state';
import { parseWith } from '../validate';
import { paymentReadView, paymentView } from '../views';

/** The service's text for a second payment with the same `correlationID` (pix-money-out.md §1). */
const DUPLICATE_CORRELATION_ID = 'Já existe um pagamento com o correlationID fornecido';
const MAX_METADATA_KEYS = 30;
/** A Pix carries at most 140 characters of message to the receiver (the central bank's rule). */
const MAX_COMMENT = 140;
const MAX_PAGE_SIZE = 100;

/** A message for a missing field, another for a wrong one. */
const orMissing = (wrong: string) => (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : wrong);

const BODY = { error: 'Body must be a JSON object' };
const typeSchema = z.object(
  {
    type: z.enum(PAYMENT_TYPES, { error: orMissing(`must be one of ${PAYMENT_TYPES.join(', ')}`) }),
  },
  BODY,
);
const createSchema = z.object({
  value: z
    .number({ error: orMissing('must be an integer (cents)') })
    .int('must be an integer (cents)')
    .positive('must be greater than 0'),
  destinationAlias: z.string({ error: orMissing('must be a string') }).min(1, 'is required'),
  destinationAliasType: z.enum(WITHDRAW_KEY_TYPES, { error: orMissing(`must be one of ${WITHDRAW_KEY_TYPES.join(', ')}`) }),
  correlationID: z
    .string({ error: orMissing('must be a string') })
    .refine((id) => id.trim() !== '', 'is required')
    .refine((id) => id.length <= 200, 'must be at most 200 characters'),
  comment: z.string({ error: 'must be a string' }).max(MAX_COMMENT, `must be at most ${MAX_COMMENT} characters`).optional(),
  sourceAccountId: z.string({ error: 'must be a string' }).min(1, 'must not be empty').optional(),
  pixKeyEndToEndId: z.string({ error: 'must be a string' }).optional(),
  metadata: z
    .record(z.string(), z.unknown(), { error: 'must be an object' })
    .refine((m) => Object.keys(m).length <= MAX_METADATA_KEYS, `must have at most ${MAX_METADATA_KEYS} keys`)
    .optional(),
  autoApprove: z.boolean({ error: 'must be a boolean' }).optional(),
});
const approveSchema = z.object({ correlationID: z.string({ error: orMissing('must be a string') }).min(1, 'is required') }, BODY);
const pageSchema = z.object({
  limit: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
    .default(10),
  skip: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(0, 'must not be negative').default(0),
});

export function registerPaymentRoutes(router: ApiRouter): void {
  // Synchronous from the duplicate check to the insert: concurrent creations with one correlationID
  // make one payment.
  router.add('POST', '/api/v1/payment', {
    scope: 'PAYMENT_POST',
    handle(ctx) {
      const { state, webhooks } = ctx;
      const company = callerCompany(state, ctx.caller);
      const body = ctx.body();
      const { type } = parseWith(typeSchema, body);
      if (type !== 'PIX_KEY') throw fail(400, `type ${type} is not supported by the sandbox: only PIX_KEY payments are`);
      const input = parseWith(createSchema, body);

      const account =
        input.sourceAccountId === undefined
          ? state.accountsOf(company.id).find((a) => a.isDefault)
          : state.accountOf(company.id, input.sourceAccountId);
      if (!account) throw fail(404, 'Account not found');
      if (state.paymentByCorrelationID(company.id, input.correlationID)) throw fail(400, DUPLICATE_CORRELATION_ID);
      if (input.autoApprove && !account.autoApprove) throw fail(403, 'autoApprove is not enabled for this account');

      const key = input.destinationAlias;
      requireTokens(state, company);
      const checked = isRecentCheck(state, company, input.pixKeyEndToEndId, key) && isWellFormed(key, input.destinationAliasType);
      const entry = checked ? state.dict.get(key) : lookUp(state, company, key, input.destinationAliasType);
      if (!entry) throw fail(400, 'Pix key not found', 'PIX_KEY_INFO_NOT_FOUND');

      const now = state.clock.date().toISOString();
      const payment: Payment = {
        id: state.ids.objectId(),
        companyId: company.id,
        sourceAccountId: account.id,
        value: input.value,
        destinationAlias: key,
        destinationAliasType: input.destinationAliasType,
        correlationID: input.correlationID,
        ...(input.comment !== undefined ? { comment: input.comment } : {}),
        ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
        status: 'CREATED',
        createdAt: now,
        updatedAt: now,
        receiver: { ...entry.holder, taxID: entry.holderTaxId },
      };
      state.payments.set(payment.id, payment);
      // Created and approved in one call; refused for want of balance, it stays created, as after an approve.
      if (input.autoApprove) {
        approvePayment(state, webhooks, payment);
        return jsonReply(200, paymentReadView(payment));
      }
      return jsonReply(200, { payment: paymentView(payment) });
    },
  });

  router.add('POST', '/api/v1/payment/approve', {
    scope: 'PAYMENT_APPROVE_POST',
    handle(ctx) {
      const { correlationID } = parseWith(approveSchema, ctx.body());
      const payment = ctx.state.paymentByCorrelationID(ctx.caller.companyId, correlationID);
      if (!payment) throw fail(404, 'Payment not found');
      approvePayment(ctx.state, ctx.webhooks, payment);
      return jsonReply(200, paymentReadView(payment));
    },
  });

  router.add('GET', '/api/v1/payment', {
    scope: 'PAYMENT_GET_LIST',
    handle({ state, caller, query }) {
      const { skip, limit } = parseWith(pageSchema, query);
      const all = state.paymentsOf(caller.companyId);
      return jsonReply(200, {
        payments: all.slice(skip, skip + limit).map(paymentReadView),
        pageInfo: { skip, limit, hasPreviousPage: skip > 0, hasNextPage: skip + limit < all.length },
      });
    },
  });

  // By the payment's id or its correlationID.
  router.add('GET', '/api/v1/payment/:id', {
    handle({ state, caller, params }) {
      const payment = state.paymentOf(caller.companyId, params.id ?? '');
      if (!payment) throw fail(404, 'Payment not found');
      return jsonReply(200, paymentReadView(payment));
    },
  });
}
