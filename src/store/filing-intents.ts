import { z } from 'zod';
import { ApprovalGivenSchema } from '../domain/approvals';
import type { IndexEntry } from './sorted-index';

const CentsRecord = z.record(z.string(), z.number().int());

/**
 * A limit request about to be filed, recorded before `POST /limits/request` is sent: if the process
 * dies anywhere between that call and the request being tracked with its thread root, the intent is
 * still there, and the poller reconciles it against the company's requests (limit-requests/reconcile.ts).
 */
export const FilingIntentSchema = z.object({
  intentId: z.string(),
  requesterId: z.string(),
  /** Where the command ran: where the thread root goes. */
  channel: z.string(),
  accountId: z.string(),
  /** The limits before the request, in cents (for the root's `A → B`). */
  current: CentsRecord,
  /** What is asked, in cents: with the account, how the filed request is recognized in the list. */
  requested: CentsRecord,
  documents: z.array(z.object({ fileName: z.string().optional(), contentType: z.string().optional() })),
  /** Just before the request was sent (until then: when its filing began, before its proofs were uploaded). */
  createdAt: z.string(),
  /**
   * Filed by a four-eyes approval: who approved it, and the approval's root, which becomes the
   * request's thread root (nothing new is posted).
   */
  approval: z
    .object({
      makerId: z.string(),
      checkerId: z.string(),
      approvedAt: z.string(),
      root: z.object({ channel: z.string(), ts: z.string() }),
      /** Every approval given, when more than one checker (or a delegate) approved it. */
      checkers: z.array(ApprovalGivenSchema).optional(),
    })
    .optional(),
});
export type FilingIntent = z.infer<typeof FilingIntentSchema>;

/** An index entry whose record is not there this long after its time is a leftover, and dropped. */
const DANGLING_AFTER_MS = 60_000;

/**
 * What a backend keeps for the filing intents: each a record, and its id in an index by its time
 * that a tick reads, instead of scanning the records on every tick.
 */
export interface FilingIntentsStorage {
  get(intentId: string): Promise<unknown>;
  /**
   * Writes the intent and indexes it at `score`, together: one step where the backend has
   * transactions; else indexed first, so a crash between the two leaves an id without a record
   * (dropped later), never a record nobody looks at.
   */
  put(intent: FilingIntent, score: number): Promise<void>;
  /** Removes the intent and its index entry (the record first). */
  delete(intentId: string): Promise<void>;
  /** Every id indexed, with its score, lowest first. */
  indexed(): Promise<IndexEntry[]>;
  /** Drops an id from the index alone (its record gone). */
  unindex(intentId: string): Promise<void>;
  /** Every intent recorded, in no particular order (what a copy of the store reads). */
  all(): AsyncGenerator<unknown>;
}

/** The filing intents in progress, or cut short (see FilingIntentSchema). */
export class FilingIntentsRepo {
  constructor(private readonly storage: FilingIntentsStorage) {}

  async record(intent: FilingIntent): Promise<void> {
    await this.storage.put(intent, scoreOf(intent));
  }

  async delete(intentId: string): Promise<void> {
    await this.storage.delete(intentId);
  }

  /** Every intent left (filings in progress, or cut short), oldest first. */
  async list(now = Date.now()): Promise<FilingIntent[]> {
    const out: FilingIntent[] = [];
    for (const { id, score } of await this.storage.indexed()) {
      const parsed = FilingIntentSchema.safeParse(await this.storage.get(id));
      if (parsed.success) out.push(parsed.data);
      // An id whose record is gone (a delete cut short) is dropped; a young one may be a filing that
      // has indexed its intent and not yet written it.
      else if (now - score > DANGLING_AFTER_MS) await this.storage.unindex(id);
    }
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }
}

const scoreOf = (intent: FilingIntent) => Date.parse(intent.createdAt) || Date.now();
