import { z } from 'zod';

/**
 * The Pix events outbox (record first, answer, then post): every listed event the
 * receiver verified, keyed by the SHA-256 of its raw body, so a redelivery (the same bytes) is the
 * same key and is told from a new event by an insert-if-absent; the events not yet posted; and the
 * disputes seen, with their thread root. No raw body is kept: only the summary the receiver made of it,
 * personal data already masked (pix-events/summary.ts).
 */

export const DisputeSummarySchema = z.object({
  endToEndId: z.string(),
  /** The dispute's id at the service, when the event carries one (for the evidence form). */
  id: z.string().optional(),
  status: z.string().optional(),
  type: z.string().optional(),
  /** Cents. */
  value: z.number().int().optional(),
  reason: z.string().optional(),
  name: z.string().optional(),
  /** Masked (pix-key-mask.ts). */
  email: z.string().optional(),
  phone: z.string().optional(),
  taxId: z.string().optional(),
});
export type DisputeSummary = z.infer<typeof DisputeSummarySchema>;

export const OtherEventSummarySchema = z.object({
  /** Cents. */
  value: z.number().int().optional(),
  correlationId: z.string().optional(),
  status: z.string().optional(),
  name: z.string().optional(),
  /** Masked. */
  taxId: z.string().optional(),
});
export type OtherEventSummary = z.infer<typeof OtherEventSummarySchema>;

/**
 * A payment's end as its webhook told it (`MOVEMENT_CONFIRMED`, `MOVEMENT_FAILED`, `MOVEMENT_REMOVED`), for
 * a payment this app sent (its `correlationID` is one of its approvals'): settled in that approval's
 * thread, never posted to the channel.
 */
export const MovementSummarySchema = z.object({
  correlationId: z.string(),
  stage: z.enum(['confirmed', 'failed', 'removed']),
  endToEndId: z.string().optional(),
  /** The failure's code and the service's words for it (pix-money-out.md §2). */
  code: z.string().optional(),
  description: z.string().optional(),
});
export type MovementSummary = z.infer<typeof MovementSummarySchema>;

export const PixEventRecordSchema = z.object({
  hash: z.string(),
  /** The part of `event` after the colon, upper case: `DISPUTE_CREATED`. */
  kind: z.string(),
  receivedAt: z.string(),
  dispute: DisputeSummarySchema.optional(),
  other: OtherEventSummarySchema.optional(),
  movement: MovementSummarySchema.optional(),
  /** When a post of it was first tried (a later try looks for it in Slack first). */
  attemptedAt: z.string().optional(),
  /** When it was posted (its root or reply, or its compact message). */
  postedAt: z.string().optional(),
  /**
   * Answered and never to be posted (the service's test delivery, a body that is no event, a kind not
   * listed in PIX_EVENTS, an event too old): recorded, never pending, only so that a repeat of it is
   * known and adds nothing to the audit trail.
   */
  dropped: z.enum(['test_delivery', 'not_event', 'not_listed', 'too_old']).optional(),
  /**
   * Until when it is kept (keptUntilOf): for as long as a replay of it could be accepted, so that one is
   * always a repeat. Absent: kept for good (an event with no time of its own, which no age bounds; one
   * dropped as too old; one written by an earlier version).
   */
  keptUntil: z.string().optional(),
});
export type PixEventRecord = z.infer<typeof PixEventRecordSchema>;

export const DisputeRecordSchema = DisputeSummarySchema.extend({
  channel: z.string(),
  rootTs: z.string().optional(),
  /** A final status was seen (accepted, rejected, canceled): no longer listed on the Home tab. */
  closed: z.boolean(),
  /** When its first event arrived (where a look-up for a root lost in a crash starts). */
  firstAt: z.string(),
  updatedAt: z.string(),
  /**
   * The hashes of its events posted so far: kept with the dispute, for as long as it is kept, so that
   * one of its events sent again after its own key is gone (EVENT_KEEP_MS) is still a repeat.
   */
  events: z.array(z.string()).optional(),
});
export type DisputeRecord = z.infer<typeof DisputeRecordSchema>;

/** How long a closed dispute is kept (on Redis; sqlite keeps it): long after any late event of it. */
export const DISPUTE_KEEP_MS = 180 * 24 * 60 * 60 * 1000;

/** How long an event with a time of its own is kept after that time (or its receipt, if later): far longer than the service's retries (8, 10·2ⁿ s: about 85 minutes). */
export const EVENT_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * An event whose own time is older than this is too old to post: a replay (the service stopped
 * retrying long before). A day less than events are kept, so that what makes a replay a repeat
 * outlives by a day the last moment it could be accepted.
 */
export const EVENT_MAX_AGE_MS = EVENT_KEEP_MS - 24 * 60 * 60 * 1000;

/**
 * Until when an event received at `receivedAt` is kept, its own time `at` (epoch ms) known: a week
 * past that time, or past its receipt when the service's clock runs behind ours. Undefined (kept for
 * good) when it has no time: nothing but its hash tells its replay, at any age, from a new event.
 */
export function keptUntilOf(receivedAt: number, at: number | undefined): string | undefined {
  return at === undefined ? undefined : new Date(Math.max(receivedAt, at) + EVENT_KEEP_MS).toISOString();
}

/**
 * What a posted event keeps: what tells a repeat of it (hash, kind, times), not what was posted (its
 * digest, personal data masked or not): an event with no time of its own is kept for good.
 */
export function postedRecord(record: PixEventRecord, postedAt: string): PixEventRecord {
  const { dispute: _dispute, other: _other, movement: _movement, ...kept } = record;
  return { ...kept, postedAt: record.postedAt ?? postedAt };
}

/**
 * Implemented by each backend (the records are plain JSON: nothing to seal). An event's record and
 * its place among the pending ones are written in one step, never two: a record whose listing was
 * lost would be taken for a repeat by every redelivery and never posted.
 */
export interface PixEventsRepo {
  /**
   * Records a new event, pending (never, when it is `dropped`); false when one with this hash is
   * recorded already (a repeat). A repeat of an event not posted yet leaves it pending (puts it back
   * if it was not), unless it was dropped.
   */
  add(record: PixEventRecord): Promise<boolean>;
  get(hash: string): Promise<PixEventRecord | undefined>;
  /** Replaces a recorded event's record (one already recorded; its key's lifetime kept). */
  update(record: PixEventRecord): Promise<void>;
  /** The hashes of the events not posted yet, oldest first (in passing, the events past their `keptUntil` go). */
  pending(): Promise<string[]>;
  /** No longer pending; its record is cut to what tells a repeat of it (postedRecord). */
  markPosted(hash: string): Promise<void>;
  dispute(endToEndId: string): Promise<DisputeRecord | undefined>;
  saveDispute(record: DisputeRecord): Promise<void>;
  /** The disputes not closed, most recently updated first. */
  openDisputes(): Promise<DisputeRecord[]>;
  /** Every event kept, posted or not, in no particular order (what a copy of the store reads). */
  events(): AsyncGenerator<PixEventRecord>;
  /** Every dispute kept, closed or not, in no particular order. */
  disputes(): AsyncGenerator<DisputeRecord>;
}

/** A stored text read with its schema: anything else is no record. */
export const parseStored = <T>(schema: z.ZodType<T>, text: unknown): T | undefined => {
  if (typeof text !== 'string') return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};

/** The order of `openDisputes`: most recently updated first. */
export const byUpdate = (a: DisputeRecord, b: DisputeRecord) => b.updatedAt.localeCompare(a.updatedAt);
