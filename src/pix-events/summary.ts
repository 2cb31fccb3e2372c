import { z } from 'zod';
import { maskPixKey, maskTaxId } from '../domain/pix-key-mask';
import type { DisputeSummary, MovementSummary, OtherEventSummary } from '../store/pix-events';
import { disputeStatusOf } from './kinds';

/**
 * What is kept of an event: only what the channel is shown, personal data masked before it is stored.
 * The service does not publish its payloads' shapes (pix-interface.md §6), so every field is optional
 * and read leniently; the dispute's fields follow the service's public examples
 * (https://developers.woovi.com/docs/webhook/examples/webhook-created-payload: `endToEndId`, `status`,
 * `name`, `email`, `phoneNumber`, `value` in cents, `disputeReason`).
 */

const someText = z.preprocess((v) => (typeof v === 'number' ? String(v) : v), z.string().trim().min(1).max(500));
const text = someText.optional().catch(undefined);
const cents = z.number().int().safe().optional().catch(undefined);
/** An ISO 8601 time, as epoch milliseconds. */
const instant = z.string().trim().max(64).transform(Date.parse).pipe(z.number()).optional().catch(undefined);

const CustomerSchema = z
  .looseObject({
    name: text,
    email: text,
    phone: text,
    // The service nests it as `{ taxID, type }` on customers.
    taxID: z
      .union([someText, z.looseObject({ taxID: text })])
      .optional()
      .catch(undefined),
  })
  .optional()
  .catch(undefined);

const DisputeSchema = z.looseObject({
  endToEndId: z.string().trim().min(1).max(100),
  id: text,
  _id: text,
  status: text,
  type: text,
  value: cents,
  disputeReason: text,
  reason: text,
  name: text,
  email: text,
  phoneNumber: text,
  phone: text,
  taxID: text,
  customer: CustomerSchema,
});

const ChargeSchema = z
  .looseObject({ value: cents, correlationID: text, status: text, customer: CustomerSchema, updatedAt: instant, paidAt: instant })
  .optional()
  .catch(undefined);

export const EventBodySchema = z.looseObject({
  event: z.string().trim().min(1).max(200),
  dispute: z.unknown().optional(),
  charge: ChargeSchema,
  pix: z.looseObject({ value: cents, charge: ChargeSchema, time: instant }).optional().catch(undefined),
  transaction: z.looseObject({ value: cents, correlationID: text, endToEndId: text }).optional().catch(undefined),
  // A payment's end (pix-money-out.md §5): the failure's `error` beside the payment (read inside it too).
  payment: z
    .looseObject({
      value: cents,
      correlationID: text,
      status: text,
      error: z.looseObject({ code: text, description: text }).optional().catch(undefined),
    })
    .optional()
    .catch(undefined),
  error: z.looseObject({ code: text, description: text }).optional().catch(undefined),
  refund: z.looseObject({ value: cents, correlationID: text, status: text }).optional().catch(undefined),
  refundTransaction: z.looseObject({ time: instant }).optional().catch(undefined),
  account: z.looseObject({ name: text, taxID: text }).optional().catch(undefined),
  correlationID: text,
  value: cents,
});
export type EventBody = z.infer<typeof EventBodySchema>;

/**
 * The service's test delivery, sent when a webhook is registered or tested from its dashboard:
 * `{"evento":"teste_webhook"}`, with no `event`. Not an event: nothing to record or post.
 */
export const TestDeliverySchema = z.looseObject({ evento: z.string().trim().min(1).max(200), event: z.undefined().optional() });

const taxIdText = (v: unknown) => (typeof v === 'string' ? v : v && typeof v === 'object' ? (v as { taxID?: string }).taxID : undefined);
const masked = (value: string | undefined, type: string) => (value ? maskPixKey(value, type) : undefined);
const maskedTaxId = (value: string | undefined) => (value ? maskTaxId(value) : undefined);
const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** A dispute event's summary; undefined when it names no `endToEndId` (nothing to key its root on). */
export function disputeSummary(kind: string, body: EventBody): DisputeSummary | undefined {
  const parsed = DisputeSchema.safeParse(body.dispute);
  if (!parsed.success) return undefined;
  const d = parsed.data;
  const customer = d.customer;
  const taxId = d.taxID ?? taxIdText(customer?.taxID);
  return defined({
    endToEndId: d.endToEndId,
    id: d.id ?? d._id,
    status: disputeStatusOf(kind) ?? d.status,
    type: d.type?.toUpperCase(),
    value: d.value,
    reason: d.disputeReason ?? d.reason,
    name: d.name ?? customer?.name,
    email: masked(d.email ?? customer?.email, 'EMAIL'),
    phone: masked(d.phoneNumber ?? d.phone ?? customer?.phone, 'PHONE'),
    taxId: maskedTaxId(taxId),
  });
}

/** Any other kind's summary: an amount, a correlation ID, a status, a customer's name and masked tax id. */
export function otherEventSummary(body: EventBody): OtherEventSummary {
  const charge = body.charge ?? body.pix?.charge;
  const customer = charge?.customer;
  const taxId = taxIdText(customer?.taxID) ?? body.account?.taxID;
  return defined({
    value: body.pix?.value ?? charge?.value ?? body.transaction?.value ?? body.refund?.value ?? body.payment?.value ?? body.value,
    correlationId:
      charge?.correlationID ??
      body.transaction?.correlationID ??
      body.refund?.correlationID ??
      body.payment?.correlationID ??
      body.correlationID,
    status: charge?.status ?? body.refund?.status ?? body.payment?.status,
    name: customer?.name ?? body.account?.name,
    taxId: maskedTaxId(taxId),
  });
}

/**
 * When the event happened, by its own fields, or undefined when it carries none. The service's
 * published payloads date a charge's change (`charge.updatedAt`, `charge.paidAt`, also under `pix`),
 * a received Pix (`pix.time`) and a refund (`refundTransaction.time`); its dispute payloads carry no
 * time. The newest counts: an event is sent after all it tells, and an old charge paid today is news.
 * A charge's `createdAt` does not count (a charge created last month may be paid today).
 */
export function eventTime(body: EventBody): number | undefined {
  const charges = [body.charge, body.pix?.charge];
  const times = [...charges.flatMap((c) => [c?.updatedAt, c?.paidAt]), body.pix?.time, body.refundTransaction?.time].filter(
    (t): t is number => t !== undefined,
  );
  return times.length > 0 ? Math.max(...times) : undefined;
}

/** The kinds that tell a payment's end (pix-money-out.md §5), and the stage each ends it in. */
const MOVEMENT_STAGES: Record<string, MovementSummary['stage']> = {
  MOVEMENT_CONFIRMED: 'confirmed',
  MOVEMENT_FAILED: 'failed',
  MOVEMENT_REMOVED: 'removed',
};

/** A payment's end as its webhook tells it; undefined for another kind, or one naming no `payment.correlationID`. */
export function movementSummary(kind: string, body: EventBody): MovementSummary | undefined {
  const stage = MOVEMENT_STAGES[kind];
  const correlationId = body.payment?.correlationID;
  if (!stage || !correlationId) return undefined;
  const error = body.error ?? body.payment?.error;
  return defined({
    correlationId,
    stage,
    endToEndId: body.transaction?.endToEndId,
    ...(stage === 'failed' ? { code: error?.code, description: error?.description } : {}),
  });
}
