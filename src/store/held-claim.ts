import type { Claims } from './claims';

/** A claim held while some work runs, renewed in the background every third of its life. */
export interface HeldClaim {
  /** Whether it is still this holder's: renewed first when more than half its life has passed since it was last confirmed. */
  stillHeld(): Promise<boolean>;
  /** Stops the renewals and gives it up. */
  release(): Promise<void>;
}

/**
 * Takes `key` for `ttlMs` and keeps it renewed until released (work that can outlast one claim's life:
 * an approved action, a filing streaming its proofs); undefined when someone else holds it. A renewal
 * that finds it lapsed marks it lost for good; one that fails (the store down) is reported and tried
 * again at the next turn.
 */
export async function holdClaim(
  claims: Claims,
  key: string,
  ttlMs: number,
  onRenewalError: (err: unknown) => void,
): Promise<HeldClaim | undefined> {
  // When the claim was last known to be ours: taken or renewed by a call sent at that moment, so it
  // holds until at least `ttlMs` after it (the store counts from when the call arrives).
  let confirmedAt = Date.now();
  if (!(await claims.claim(key, ttlMs))) return undefined;
  let lost = false;
  const renew = async () => {
    const sentAt = Date.now();
    if (await claims.renew(key, ttlMs)) confirmedAt = sentAt;
    else lost = true;
  };
  const renewal = setInterval(() => renew().catch(onRenewalError), Math.max(100, Math.floor(ttlMs / 3)));
  renewal.unref();
  return {
    async stillHeld() {
      // More than half its life left since it was last confirmed: still ours, no round trip needed.
      if (!lost && Date.now() - confirmedAt > ttlMs / 2) await renew();
      return !lost;
    },
    async release() {
      clearInterval(renewal);
      await claims.release(key).catch(() => undefined);
    },
  };
}
