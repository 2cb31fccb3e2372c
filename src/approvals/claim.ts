import type { Deps } from '../entry/deps';
import { describeError, PixOpsError } from '../errors';
import type { ApprovalRecord } from '../store/approvals';

// Holding an approval's claim while working on it: every move out of `pending`, and the whole run of
// an approved action, happens under `approval:<id>`, checked before each write.

const claimKey = (id: string) => `approval:${id}`;

/** The claim lapsed (or is someone else's now): whatever was under way stops before its next write. */
export class ClaimLost extends PixOpsError {
  readonly code = 'pixops_approval_claim_lost';

  constructor(id: string) {
    super(`the claim on approval ${id} lapsed`);
  }
}

/** The claim an approval's work runs under. */
export interface Held {
  /** Renews the claim; throws ClaimLost when it lapsed: called before each write. */
  check(): Promise<void>;
}

/**
 * Runs `work` holding the approval's claim, renewed while it runs (an approved limit request streams
 * its proofs, which can outlast one claim's life). A renewal that fails marks the claim lost, and the
 * next `check` stops the work. `ran: false` when someone else holds it.
 */
export async function holding<T>(
  deps: Deps,
  id: string,
  work: (held: Held) => Promise<T>,
): Promise<{ ran: true; value: T } | { ran: false }> {
  const key = claimKey(id);
  const ttl = deps.approvals.claimTtlMs;
  // When the claim was last known to be ours: taken or renewed by a call sent at that moment, so it
  // holds until at least `ttl` after it (the store counts from when the call arrives).
  let confirmedAt = Date.now();
  if (!(await deps.store.claim(key, ttl))) return { ran: false };
  let lost = false;
  const renew = async () => {
    const sentAt = Date.now();
    if (await deps.store.renew(key, ttl)) confirmedAt = sentAt;
    else lost = true;
  };
  const renewal = setInterval(
    () => {
      renew().catch((err: unknown) => deps.logger.warn({ approval: id, ...describeError(err) }, 'could not renew an approval claim'));
    },
    Math.max(100, Math.floor(ttl / 3)),
  );
  renewal.unref();
  const held: Held = {
    async check() {
      // More than half its life left since it was last confirmed: still ours, no round trip needed.
      if (!lost && Date.now() - confirmedAt > ttl / 2) await renew();
      if (lost) {
        deps.logger.warn({ approval: id }, 'the approval claim lapsed: stopping before the next write');
        throw new ClaimLost(id);
      }
    },
  };
  try {
    return { ran: true, value: await work(held) };
  } finally {
    clearInterval(renewal);
    await deps.store.release(key).catch(() => undefined);
  }
}

/** A change of the record under its claim: the claim checked first. `known`: the record as this holder has it (not read again). */
export async function write(
  deps: Deps,
  held: Held,
  id: string,
  change: (r: ApprovalRecord) => ApprovalRecord,
  known?: ApprovalRecord,
): Promise<ApprovalRecord> {
  await held.check();
  return deps.store.approvals.update(id, change, known);
}
