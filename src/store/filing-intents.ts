import type Keyv from 'keyv';
import { z } from 'zod';
import type { IdIndex } from './id-index';

const CentsRecord = z.record(z.string(), z.number().int());

/**
 * A limit request about to be filed, recorded before `POST /limits/request` is sent: if the process
 * dies anywhere between that call and the request being tracked with its thread root, the intent is
 * still there, and the poller reconciles it against the company's requests (poller/reconcile.ts).
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
  /** Just before the request was sent. */
  createdAt: z.string(),
  /**
   * Filed by a four-eyes approval: who approved it, and the approval's root, which becomes the
   * request's thread root (nothing new is posted).
   */
  approval: z
    .object({ makerId: z.string(), checkerId: z.string(), approvedAt: z.string(), root: z.object({ channel: z.string(), ts: z.string() }) })
    .optional(),
});
export type FilingIntent = z.infer<typeof FilingIntentSchema>;

/** An index entry whose record is not there this long after its time is a leftover, and dropped. */
const DANGLING_AFTER_MS = 60_000;

/**
 * The filing intents: each a record in a namespace of their own, and its id in an index (a sorted
 * set on Redis) that a tick reads, instead of scanning the namespace on every tick.
 */
export class FilingIntentsRepo {
  constructor(
    private readonly intents: Keyv,
    private readonly index: IdIndex,
  ) {}

  async record(intent: FilingIntent): Promise<void> {
    // Indexed first: a crash between the two leaves an id without a record (dropped later), never a
    // record nobody looks at.
    await this.index.add(intent.intentId, Date.parse(intent.createdAt) || Date.now());
    await this.intents.set(intent.intentId, intent);
  }

  async delete(intentId: string): Promise<void> {
    await this.intents.delete(intentId);
    await this.index.remove(intentId);
  }

  /** Every intent left (filings in progress, or cut short), oldest first. */
  async list(now = Date.now()): Promise<FilingIntent[]> {
    const out: FilingIntent[] = [];
    for (const { id, score } of await this.index.entries()) {
      const parsed = FilingIntentSchema.safeParse(await this.intents.get(id));
      if (parsed.success) out.push(parsed.data);
      // An id whose record is gone (a delete cut short) is dropped; a young one may be a filing that
      // has indexed its intent and not yet written it.
      else if (now - score > DANGLING_AFTER_MS) await this.index.remove(id);
    }
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /**
   * Intents recorded before the index existed (an older version of the app): indexed, once, with one
   * scan of the namespace, when the poller starts.
   */
  async adoptUnindexed(): Promise<number> {
    if (!this.intents.iterator) return 0;
    const known = new Set((await this.index.entries()).map((e) => e.id));
    let adopted = 0;
    for await (const [, value] of this.intents.iterator(undefined)) {
      const parsed = FilingIntentSchema.safeParse(value);
      if (!parsed.success || known.has(parsed.data.intentId)) continue;
      await this.index.add(parsed.data.intentId, Date.parse(parsed.data.createdAt) || Date.now());
      adopted++;
    }
    return adopted;
  }
}
