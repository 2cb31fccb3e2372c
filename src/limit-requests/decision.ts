import { type DecisionStatus, DecisionStatusSchema, type LimitRequest } from '../pix/schemas';

/** A final answer of the service on a limit request. */
export interface Decision {
  status: DecisionStatus;
  /** Approved limits in cents (APPROVED only): the safe-integer values of `approvedLimits`. */
  approved?: Record<string, number>;
}

/**
 * The decision a limit request carries, or undefined while there is none to announce: `IN_REVIEW`,
 * a status this version does not know, or `APPROVED` without usable `approvedLimits` (the service sets
 * the status and the approved limits at the same moment, so an approval without them is not one yet).
 */
export function decisionOf(request: Pick<LimitRequest, 'status' | 'approvedLimits'>): Decision | undefined {
  if (request.status === 'REJECTED') return { status: 'REJECTED' };
  if (request.status !== 'APPROVED') return undefined;
  const approved = approvedCents(request.approvedLimits);
  // `{}` (or only unreadable values) says nothing about what was granted: wait for a usable answer.
  if (!approved || Object.keys(approved).length === 0) return undefined;
  return { status: 'APPROVED', approved };
}

/** Only whole, non-negative cents that are safe integers; anything else is not a limit we can show. */
function approvedCents(limits: Record<string, unknown> | null | undefined): Record<string, number> | undefined {
  if (!limits || typeof limits !== 'object') return undefined;
  const out: Record<string, number> = {};
  for (const [field, value] of Object.entries(limits)) {
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) out[field] = value;
  }
  return out;
}

export function isDecisionStatus(value: unknown): value is DecisionStatus {
  return DecisionStatusSchema.safeParse(value).success;
}
