import { z } from 'zod';
import type { RecordsOf, RecordsRepo } from '../store/records';
import { recordsOf } from '../store/records';
import type { MoneyOutRecord } from './records';

// Two small indexes beside the money-out records, so that nothing has to list every record ever made:
// - the open payments: sent and not final, or final with their reply not yet posted (the poll reads
//   these, and a resumption finds what a crash left half done);
// - the recent sendings: what left in the last days, for the digest's "sent since the last digest".
// Each is written before the record it indexes (an entry ahead of its record is harmless: its reader
// reads the record), and an open entry is removed only once its payment's end is posted.

const OpenEntrySchema = z.object({
  /** When it was listed. */
  since: z.string(),
  /** When the poll last read it at the service: the least recently read go first. */
  checkedAt: z.string().optional(),
  /** Its final reply is being posted: a later attempt looks for it in the thread first. */
  replying: z.string().optional(),
});
export type OpenEntry = z.infer<typeof OpenEntrySchema>;

const RecentEntrySchema = z.object({ sentAt: z.string() });

/** How long a sending stays in the recent index: longer than any gap between two digests worth reading. */
export const RECENT_KEEP_MS = 8 * 86_400_000;

export const openPayments = (records: RecordsRepo): RecordsOf<OpenEntry> => recordsOf(records, 'money-out-open', OpenEntrySchema);

export const recentSendings = (records: RecordsRepo): RecordsOf<z.infer<typeof RecentEntrySchema>> =>
  recordsOf(records, 'money-out-recent', RecentEntrySchema);

/**
 * The money-out records with their indexes kept in step by every write: a payment written as awaiting
 * its end (`awaits`) is listed open, and anything written with a `sentAt` is listed as recent.
 * Whoever writes the records (the sender, the settlement) needs to know nothing of the indexes.
 */
export function withIndexes(
  records: RecordsRepo,
  inner: RecordsOf<MoneyOutRecord>,
  awaits: (record: MoneyOutRecord) => boolean,
): RecordsOf<MoneyOutRecord> {
  const open = openPayments(records);
  const recent = recentSendings(records);
  const index = async (next: MoneyOutRecord) => {
    if (awaits(next)) await open.setIfAbsent(next.approvalId, { since: new Date().toISOString() });
    if (next.sentAt) await recent.setIfAbsent(next.approvalId, { sentAt: next.sentAt }, RECENT_KEEP_MS);
  };
  return {
    ...inner,
    set: async (key, value, ttlMs) => {
      await index(value);
      await inner.set(key, value, ttlMs);
    },
    setIfAbsent: async (key, value, ttlMs) => {
      await index(value);
      return inner.setIfAbsent(key, value, ttlMs);
    },
    compareAndSet: async (key, expected, next) => {
      await index(next);
      return inner.compareAndSet(key, expected, next);
    },
  };
}
