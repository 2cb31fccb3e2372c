import type { RunCoordinator } from 'node-cron';
import { describeError } from '../errors';
import type { Logger } from '../runtime/logger';
import type { Claims } from '../store/claims';

/** Key of the lease held by the instance whose tick is running. */
export const POLL_LEASE_KEY = 'poll-lease';

/**
 * node-cron's RunCoordinator over the store's claims (Redis `SET NX PX`), so that one instance polls
 * on each tick however many run:
 *
 * 1. the tick's own slot (`<task name>:<slot time>`, the key node-cron gives) is claimed: the first
 *    instance to ask gets that tick, every other one skips it;
 * 2. then the poll lease: held while the tick runs (renewed every third of its TTL) and released when
 *    it ends, so a tick that runs past the next slot is never joined by a second instance.
 *
 * The lease is short (`leaseMs`, shorter than the schedule's interval where it can be) and only
 * renewed by a live holder: when the instance polling dies, the lease lapses and the next tick goes to
 * another instance. Requests its tick was delivering are protected by their own claims (limit-requests/sweep.ts).
 */
export class StoreRunCoordinator implements RunCoordinator {
  private renewal: NodeJS.Timeout | undefined;

  constructor(
    private readonly claims: Claims,
    private readonly logger: Logger,
    /** Set from the schedule once it is known (see leaseMsFor). */
    public leaseMs = 15_000,
  ) {}

  async shouldRun(slotKey: string, slotTtlMs: number): Promise<boolean> {
    if (!(await this.claims.claim(`tick:${slotKey}`, slotTtlMs))) {
      this.logger.debug({ slot: slotKey }, 'poll tick taken by another instance');
      return false;
    }
    if (!(await this.claims.claim(POLL_LEASE_KEY, this.leaseMs))) {
      this.logger.debug({ slot: slotKey }, 'poll tick skipped: another instance is still polling');
      return false;
    }
    this.startRenewal();
    return true;
  }

  async onComplete(): Promise<void> {
    this.stopRenewal();
    await this.claims.release(POLL_LEASE_KEY);
  }

  private startRenewal(): void {
    this.stopRenewal();
    const every = Math.max(100, Math.floor(this.leaseMs / 3));
    this.renewal = setInterval(() => {
      this.claims.renew(POLL_LEASE_KEY, this.leaseMs).then(
        (kept) => {
          if (kept) return;
          // Lapsed (this process stalled, or the store lost it): another instance may poll now; the
          // per-request claims keep the two from delivering the same decision.
          this.logger.warn('the poll lease lapsed during a tick; another instance may start polling');
          this.stopRenewal();
        },
        (err: unknown) => this.logger.warn({ ...describeError(err) }, 'could not renew the poll lease'),
      );
    }, every);
    this.renewal.unref();
  }

  private stopRenewal(): void {
    if (this.renewal) clearInterval(this.renewal);
    this.renewal = undefined;
  }
}

/**
 * The lease TTL for a schedule: half its interval (so that when the polling instance dies the very
 * next tick can go to another one), between 1 s and 15 s.
 */
export function leaseMsFor(intervalMs: number): number {
  return Math.min(15_000, Math.max(1_000, Math.floor(intervalMs / 2)));
}
