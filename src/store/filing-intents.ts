import type Keyv from 'keyv';
import { z } from 'zod';

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

/** The filing intents, in a namespace of their own so that a tick lists exactly the ones left over. */
export class FilingIntentsRepo {
  constructor(private readonly intents: Keyv) {}

  async record(intent: FilingIntent): Promise<void> {
    await this.intents.set(intent.intentId, intent);
  }

  async delete(intentId: string): Promise<void> {
    await this.intents.delete(intentId);
  }

  /** Every intent left (filings in progress, or cut short), oldest first. */
  async list(): Promise<FilingIntent[]> {
    if (!this.intents.iterator) throw new Error('This store cannot list keys');
    const out: FilingIntent[] = [];
    for await (const [, value] of this.intents.iterator(undefined)) {
      const parsed = FilingIntentSchema.safeParse(value);
      if (parsed.success) out.push(parsed.data);
    }
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }
}
