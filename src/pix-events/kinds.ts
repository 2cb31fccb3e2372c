/**
 * Event names come in `event` as `OPENPIX:KIND` or `woovi:KIND` (the contract): only the part after
 * the colon counts.
 */
export function kindOf(event: string): string {
  return event
    .slice(event.indexOf(':') + 1)
    .trim()
    .toUpperCase();
}

/** PIX_EVENTS: a kind is listed when a pattern equals it, or is a prefix ending in `*` of it. */
export function isListed(kind: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.endsWith('*') ? kind.startsWith(p.slice(0, -1)) : kind === p));
}

/** The dispute kinds of the contract (`DISPUTE_CREATE` is the interface's spelling of `DISPUTE_CREATED`). */
const DISPUTE_STATUS: Record<string, DisputeStatus> = {
  DISPUTE_CREATED: 'OPENED',
  DISPUTE_CREATE: 'OPENED',
  DISPUTE_ACCEPTED: 'ACCEPTED',
  DISPUTE_REJECTED: 'REJECTED',
  DISPUTE_CANCELED: 'CANCELED',
};

export type DisputeStatus = 'OPENED' | 'ACCEPTED' | 'REJECTED' | 'CANCELED';

export function disputeStatusOf(kind: string): DisputeStatus | undefined {
  return DISPUTE_STATUS[kind];
}

export const isFinalStatus = (status: string | undefined) => status === 'ACCEPTED' || status === 'REJECTED' || status === 'CANCELED';

/**
 * The status a dispute's root shows after an event: a final one is never undone by an earlier event
 * that arrives late (an OPENED after its ACCEPTED).
 */
export function mergedStatus(current: string | undefined, next: string | undefined): string | undefined {
  if (isFinalStatus(current) && !isFinalStatus(next)) return current;
  return next ?? current;
}
