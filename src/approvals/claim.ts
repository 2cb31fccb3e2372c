import type { Deps } from '../deps';
import { ClaimLostError, describeError } from '../errors';
import type { ApprovalRecord } from '../store/approvals';
import { holdClaim } from '../store/held-claim';

// Holding an approval's claim while working on it: every move out of `pending`, and the whole run of
// an approved action, happens under `approval:<id>`, checked before each write.

const claimKey = (id: string) => `approval:${id}`;

/** The claim an approval's work runs under. */
export interface Held {
  /** Renews the claim; throws ClaimLostError when it lapsed: called before each write. */
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
  const claim = await holdClaim(deps.store, claimKey(id), deps.approvals.claimTtlMs, (err) =>
    deps.logger.warn({ approval: id, ...describeError(err) }, 'could not renew an approval claim'),
  );
  if (!claim) return { ran: false };
  const held: Held = {
    async check() {
      if (await claim.stillHeld()) return;
      deps.logger.warn({ approval: id }, 'the approval claim lapsed: stopping before the next write');
      throw new ClaimLostError(`the claim on approval ${id} lapsed`);
    },
  };
  try {
    return { ran: true, value: await work(held) };
  } finally {
    await claim.release();
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
