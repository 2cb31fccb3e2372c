import { z } from 'zod';
import { saoPauloToday } from '../domain/sao-paulo-date';
import type { RecordsOf, RecordsRepo } from '../store/records';
import { recordsOf } from '../store/records';

// PAY_DAY_LIMIT: the most the team sends in one São Paulo day, payments and withdrawals together,
// across instances. Each day is one record holding what counts against it (cents by approval id);
// a sending is reserved in it by compare-and-set from the total it read, so two approvals racing on
// two instances cannot both pass the limit: the second one's write fails, it reads again and sees
// the first.

const DayLedgerSchema = z.object({ entries: z.record(z.string(), z.number().int().positive()) });
type DayLedger = z.infer<typeof DayLedgerSchema>;

/** A ledger is kept a little over a day: long enough for any São Paulo day to be over. */
const KEPT_MS = 3 * 86_400_000;

export type Reservation = { ok: true; day: string } | { ok: false; day: string; total: number; limit: number };

/** YYYY-MM-DD of the São Paulo day at `now`. */
export function saoPauloDay(now: Date): string {
  const d = saoPauloToday(now);
  return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

const totalOf = (ledger: DayLedger | undefined): number => Object.values(ledger?.entries ?? {}).reduce((a, b) => a + b, 0);

export class DayLimit {
  private readonly ledgers: RecordsOf<DayLedger>;

  constructor(
    records: RecordsRepo,
    /** Cents; undefined: no limit (the ledger is still kept, for the day's total). */
    private readonly limit: number | undefined,
  ) {
    this.ledgers = recordsOf(records, 'pay-day', DayLedgerSchema);
  }

  /** What counts against the day so far (cents). */
  async total(day: string): Promise<number> {
    return totalOf(await this.ledgers.get(day));
  }

  /**
   * Counts `value` for `approvalId` against `day`, unless that would pass the limit. Already counted
   * (a resumption): ok, not counted twice.
   */
  async reserve(day: string, approvalId: string, value: number): Promise<Reservation> {
    for (;;) {
      const ledger = await this.ledgers.get(day);
      if (ledger?.entries[approvalId] !== undefined) return { ok: true, day };
      const total = totalOf(ledger);
      if (this.limit !== undefined && total + value > this.limit) return { ok: false, day, total, limit: this.limit };
      const next = { entries: { ...ledger?.entries, [approvalId]: value } };
      const wrote = ledger ? await this.ledgers.compareAndSet(day, ledger, next) : await this.ledgers.setIfAbsent(day, next, KEPT_MS);
      if (wrote) return { ok: true, day };
    }
  }

  /**
   * No longer counted in any day from `since` to `now` that is still kept: an approval that never
   * ran, which a reservation may have been left for in whichever day it was last approved.
   */
  async releaseAnyDay(approvalId: string, since: Date, now: Date): Promise<void> {
    // A day apart each (São Paulo keeps no summer time since 2019), and today.
    const days = new Set([saoPauloDay(now)]);
    for (let at = Math.max(since.getTime(), now.getTime() - KEPT_MS); at < now.getTime(); at += 86_400_000)
      days.add(saoPauloDay(new Date(at)));
    for (const day of days) await this.release(day, approvalId);
  }

  /** No longer counted: it failed, was removed, or was not sent for want of balance. */
  async release(day: string, approvalId: string): Promise<void> {
    for (;;) {
      const ledger = await this.ledgers.get(day);
      if (ledger?.entries[approvalId] === undefined) return;
      const { [approvalId]: _gone, ...entries } = ledger.entries;
      if (await this.ledgers.compareAndSet(day, ledger, { entries })) return;
    }
  }
}
