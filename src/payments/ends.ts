import type { PaymentDetail } from '../pix/schemas';
import type { MovementSummary } from '../store/pix-events';
import type { MoneyOutRecord, MoneyOutStage } from './records';

/** How a sent payment ended: what its webhook or a read of it told. */
export type PaymentEnd = Omit<MovementSummary, 'correlationId'>;

/** A payment's final stages: reached once, never left. */
const ENDED: ReadonlySet<MoneyOutStage> = new Set(['confirmed', 'failed', 'removed']);

export const hasEnded = (record: MoneyOutRecord): record is MoneyOutRecord & { stage: PaymentEnd['stage'] } => ENDED.has(record.stage);

/**
 * Statuses the service documents as final failures besides `FAILED` (pix-money-out.md §1: its guides
 * call the final failure `REJECTED`, its reference `DENIED`).
 */
const FAILED_STATUSES = new Set(['FAILED', 'DENIED', 'REJECTED']);

/** The most of the service's text a reply repeats. */
const DESCRIPTION_MAX = 300;

/**
 * The end a read of a payment (`GET /api/v1/payment/{id}`) tells, or undefined while it is in progress:
 * `CONFIRMED` and `FAILED` are final, `DENIED` and `REJECTED` are final failures, and any other status
 * (`CREATED`, `APPROVED`, a processing state) is not final yet (pix-money-out.md §1).
 */
export function endOfRead(detail: PaymentDetail): PaymentEnd | undefined {
  const status = detail.payment.status.trim().toUpperCase();
  const endToEndId = detail.transaction?.endToEndId || undefined;
  if (status === 'CONFIRMED') return { stage: 'confirmed', ...(endToEndId ? { endToEndId } : {}) };
  if (!FAILED_STATUSES.has(status)) return undefined;
  const error = detail.payment.error;
  return failedEnd({ code: error?.code, description: error?.description, endToEndId });
}

/** A failure's end, its fields trimmed (the service's description clipped): what the record keeps. */
export function failedEnd(input: {
  code?: string | undefined;
  description?: string | undefined;
  endToEndId?: string | undefined;
}): PaymentEnd {
  const code = input.code?.trim().toUpperCase().slice(0, 100);
  const description = input.description?.trim().slice(0, DESCRIPTION_MAX);
  return {
    stage: 'failed',
    ...(code ? { code } : {}),
    ...(description ? { description } : {}),
    ...(input.endToEndId ? { endToEndId: input.endToEndId } : {}),
  };
}

/** The end a payment's webhook told (`MOVEMENT_*`), kept as the record keeps it. */
export function endOfMovement(movement: MovementSummary): PaymentEnd {
  if (movement.stage === 'failed') return failedEnd(movement);
  return { stage: movement.stage, ...(movement.endToEndId ? { endToEndId: movement.endToEndId } : {}) };
}
