import { z } from 'zod';
import { type RecordsOf, type RecordsRepo, recordsOf } from '../store/records';
import { withIndexes } from './indexes';

// The money a team sends, one record per approval of `pay` or `withdraw` (its key: the approval's id,
// which is also a payment's `correlationID`), from the moment its sending is decided to its end. The
// sender (the approval's write path) writes it before each Pix write; the settlement (webhooks and
// the poll) moves a sent payment to its final stage, once, by compare-and-set.

/**
 * - `sending`: the day's limit reserved and the Pix writes under way (or cut short: resumed).
 * - `short`: created and approved, the approve answered "not enough balance": nothing sent, `payment_retry` offered.
 * - `sent`: the money left (a payment approved, not final yet).
 * - `unknown`: a withdraw whose call may have been carried out: never sent again.
 * - `withdrawn`: a withdraw answered 200 (final).
 * - `confirmed`, `failed`, `removed`: a payment's final states.
 */
export const MONEY_OUT_STAGES = ['sending', 'short', 'sent', 'unknown', 'withdrawn', 'confirmed', 'failed', 'removed'] as const;
export const MoneyOutStageSchema = z.enum(MONEY_OUT_STAGES);
export type MoneyOutStage = z.infer<typeof MoneyOutStageSchema>;

export const MoneyOutRecordSchema = z.object({
  approvalId: z.string(),
  kind: z.enum(['pay', 'withdraw']),
  accountId: z.string(),
  value: z.number().int().positive(),
  /** The São Paulo day (YYYY-MM-DD) whose PAY_DAY_LIMIT it counts against. */
  day: z.string(),
  stage: MoneyOutStageSchema,
  endToEndId: z.string().optional(),
  failure: z.object({ code: z.string().optional(), description: z.string().optional() }).optional(),
  /** When it was sent (the approve or withdraw answered): the digest's "sent since". */
  sentAt: z.string().optional(),
  /** When it reached a final stage (confirmed, failed, removed, withdrawn). */
  endedAt: z.string().optional(),
  /** The final reply is posted in the approval's thread. */
  replied: z.boolean().optional(),
  /** Who sent it: the checker whose approval completed it, or who retried it (`payment_retry`). */
  sentBy: z.string().optional(),
  /** A payment the service already had when this app came to approve it, in another status than CREATED: that status (not approved again). */
  statusRead: z.string().max(40).optional(),
  /** The source account's available balance (cents) read when a payment was short or a withdraw's outcome unknown. */
  balance: z.object({ available: z.number().int(), at: z.string() }).optional(),
  /** How many times `payment_retry` sent it again after a `short`. */
  retries: z.number().int().min(0).optional(),
  /** A withdraw whose outcome is unknown: the account's latest statement entries as the service sent them. */
  entries: z.array(z.unknown()).max(5).optional(),
  updatedAt: z.string(),
});
export type MoneyOutRecord = z.infer<typeof MoneyOutRecordSchema>;

/** The stages whose money is gone or going: what the day's limit counts. */
export const COUNTS_TOWARD_DAY: ReadonlySet<MoneyOutStage> = new Set(['sending', 'sent', 'unknown', 'withdrawn', 'confirmed']);

/** A payment not final yet, whose end the settlement waits for. */
export const awaitsSettlement = (r: MoneyOutRecord): boolean => r.kind === 'pay' && r.stage === 'sent';

/** The money-out records, on the store's keyed records, their indexes written with them (indexes.ts). */
export function moneyOutRecords(records: RecordsRepo): RecordsOf<MoneyOutRecord> {
  return withIndexes(records, recordsOf(records, 'money-out', MoneyOutRecordSchema), awaitsSettlement);
}
