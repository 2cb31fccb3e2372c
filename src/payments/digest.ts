import type { Deps } from '../deps';
import { RECENT_KEEP_MS, recentSendings } from './indexes';
import { type MoneyOutRecord, moneyOutRecords } from './records';

/** Recent sendings read at most for one digest: far more than a team sends between two digests. */
const MAX_RECENT = 5_000;
/** Records read at once from the store. */
const READ_BATCH = 50;
/** A payment ends within minutes of its sending: one sent this long before the period may have failed in it. */
const FAIL_REACH_MS = 86_400_000;

/** Money out in a period: what was sent, and what failed (cents). */
export interface MoneyOutSummary {
  since: Date;
  sent: { count: number; total: number };
  failed: { count: number; total: number };
}

const inPeriod = (at: string | undefined, since: number) => at !== undefined && Date.parse(at) >= since;

/**
 * Payments and withdrawals sent since `since` (count and total), and the payments that failed since
 * then, from the recent sendings' index (never every record ever made): `since` is at most as far back
 * as that index keeps.
 */
export async function moneyOutSince(deps: Deps, since: Date, now: Date): Promise<MoneyOutSummary> {
  const from = Math.max(since.getTime(), now.getTime() - RECENT_KEEP_MS + FAIL_REACH_MS);
  const entries = await recentSendings(deps.store.records).list(MAX_RECENT);
  const ids = entries.filter((e) => Date.parse(e.value.sentAt) >= from - FAIL_REACH_MS).map((e) => e.key);
  const payments = moneyOutRecords(deps.store.records);
  const summary: MoneyOutSummary = { since: new Date(from), sent: { count: 0, total: 0 }, failed: { count: 0, total: 0 } };
  for (let i = 0; i < ids.length; i += READ_BATCH) {
    const records = await Promise.all(ids.slice(i, i + READ_BATCH).map((id) => payments.get(id)));
    for (const record of records.filter((r): r is MoneyOutRecord => r !== undefined)) {
      if (inPeriod(record.sentAt, from)) {
        summary.sent.count++;
        summary.sent.total += record.value;
      }
      if (record.stage === 'failed' && inPeriod(record.endedAt, from)) {
        summary.failed.count++;
        summary.failed.total += record.value;
      }
    }
  }
  return summary;
}
