import { z } from 'zod';
import { type RecordsOf, type RecordsRepo, recordsOf } from './records';

/** An alert decided on a crossing and not yet known to be posted. */
const PendingAlertSchema = z.object({
  /** Names its message (metadata), so a run cut short finds it before posting it again. */
  id: z.string(),
  kind: z.enum(['below', 'blocked']),
  /** The available balance as read (cents) when it went below. */
  available: z.number().optional(),
  /** The threshold (cents) it went below. */
  threshold: z.number().int().optional(),
  at: z.string(),
});
export type PendingAlert = z.infer<typeof PendingAlertSchema>;

/**
 * The last seen state of one account (its key: the account id), against which a sweep tells a
 * crossing: below the alert threshold or not, withdrawals blocked or not, and the alerts a crossing
 * decided that are not yet posted. Changed only by compare-and-set from the state the sweep read, so
 * of several instances seeing the same crossing one decides its alert.
 */
const BalanceMarkSchema = z.object({
  below: z.boolean(),
  blocked: z.boolean(),
  pending: z.array(PendingAlertSchema),
});
export type BalanceMark = z.infer<typeof BalanceMarkSchema>;

/** The marks of every account, on the store's keyed records. */
export class BalanceMarks {
  private readonly marks: RecordsOf<BalanceMark>;

  constructor(records: RecordsRepo) {
    this.marks = recordsOf(records, 'balance-mark', BalanceMarkSchema);
  }

  /** Every account's mark, in one read (at most `limit`). */
  async all(limit: number): Promise<Map<string, BalanceMark>> {
    return new Map((await this.marks.list(limit)).map(({ key, value }) => [key, value]));
  }

  get(accountId: string): Promise<BalanceMark | undefined> {
    return this.marks.get(accountId);
  }

  /** An account seen for the first time: its state as it is, no alert. True when this call wrote it. */
  first(accountId: string, mark: BalanceMark): Promise<boolean> {
    return this.marks.setIfAbsent(accountId, mark);
  }

  /** From the mark as read to `next`; false when it had changed meanwhile (another instance moved it). */
  move(accountId: string, seen: BalanceMark, next: BalanceMark): Promise<boolean> {
    return this.marks.compareAndSet(accountId, seen, next);
  }
}
