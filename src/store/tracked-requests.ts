import { z } from 'zod';
import { ApprovalGivenSchema } from '../domain/approvals';
import { DecisionStatusSchema } from '../pix/schemas';
import { NoSuchRecordError } from './errors';

const CentsRecord = z.record(z.string(), z.number().int());

export const TrackedRequestSchema = z.object({
  limitRequestId: z.string(),
  accountId: z.string(),
  /** Who filed it (or asked to watch it): mentioned when the decision comes. */
  requesterId: z.string(),
  /** Where the request's thread root is (or, until it is posted, the channel it is meant for). */
  channel: z.string(),
  /**
   * The thread root's ts. Absent while the root is not posted or not known: a request is tracked
   * before its root is posted, so that no failure after the filing leaves it unfollowed. The decision
   * of a request without a root goes to the requester's DM (after looking for a root posted but not
   * recorded).
   */
  rootTs: z.string().optional(),
  /** Limits when it was filed, in cents; absent for a request filed elsewhere. */
  current: CentsRecord.optional(),
  requested: CentsRecord,
  documents: z.array(z.object({ fileName: z.string().optional(), contentType: z.string().optional() })),
  source: z.enum(['filed', 'watched']),
  createdAt: z.string(),
  /** Filed by a four-eyes approval: who approved it, and when (the root says so). */
  approval: z
    .object({ makerId: z.string(), checkerId: z.string(), approvedAt: z.string(), checkers: z.array(ApprovalGivenSchema).optional() })
    .optional(),
  /** Set once the decision reply is posted (its ts), so it is never posted twice. */
  reply: z
    .object({
      ts: z.string(),
      /** Where it was posted when not in the thread: the requester's DM (the thread could not be reached). */
      channel: z.string().optional(),
      status: DecisionStatusSchema,
      approved: CentsRecord.optional(),
      decidedAt: z.string().optional(),
    })
    .optional(),
  /**
   * Consecutive reads the Pix API answered 404 or 403 (since: the first of them). Past a bound the
   * request is closed with a message to its requester (see limit-requests/sweep.ts); any other answer resets it.
   */
  unreadable: z.object({ count: z.number().int(), since: z.string(), status: z.number().int(), error: z.string().optional() }).optional(),
  /**
   * Consecutive ticks on which the decision could reach neither its thread (gone) nor the requester's
   * DM (Slack refused it), since the first of them, with Slack's last answer. Past a bound the request
   * is closed undelivered (limit-requests/deliver.ts) instead of being tried on every tick for ever.
   */
  undeliverable: z.object({ count: z.number().int(), since: z.string(), error: z.string() }).optional(),
  /** Closed without its decision reaching anyone: which decision, when, and Slack's last answer. */
  undelivered: z.object({ status: DecisionStatusSchema, at: z.string(), error: z.string() }).optional(),
  /** Closed: the root shows the final status and the request is no longer polled. */
  closed: z.boolean(),
});
export type TrackedRequest = z.infer<typeof TrackedRequestSchema>;

/**
 * What a backend keeps for the tracked requests: each record, and the ids still to poll (the open
 * ones), so a tick reads exactly those however many were closed before.
 */
export interface TrackedRequestsStorage {
  get(limitRequestId: string): Promise<unknown>;
  /** The records of these ids in one round trip, in their order (undefined where there is none). */
  getMany(limitRequestIds: string[]): Promise<unknown[]>;
  /**
   * Writes the record and, when `poll` is given, its place among the ids to poll (listed or not),
   * together: one step where the backend has transactions; else the record first.
   */
  put(record: TrackedRequest, poll?: boolean): Promise<void>;
  /** Removes the record and its place among the ids to poll (that first). */
  delete(limitRequestId: string): Promise<void>;
  /** Stops polling an id, its record left as it is. */
  unpoll(limitRequestId: string): Promise<void>;
  /** The ids to poll, in no particular order. */
  polled(): AsyncGenerator<string>;
  /** Every record, and whether it is polled, in no particular order (what a copy of the store reads). */
  all(): AsyncGenerator<{ record: unknown; polled: boolean }>;
}

/** A record as the storage answers it: checked, or undefined where there is none. */
const readTracked = (raw: unknown): TrackedRequest | undefined =>
  raw === undefined || raw === null ? undefined : TrackedRequestSchema.parse(raw);

/** The limit requests the app follows. */
export class TrackedRequestsRepo {
  constructor(private readonly storage: TrackedRequestsStorage) {}

  async track(request: Omit<TrackedRequest, 'closed' | 'reply' | 'createdAt'> & { createdAt?: string }): Promise<TrackedRequest> {
    const record: TrackedRequest = { ...request, createdAt: request.createdAt ?? new Date().toISOString(), closed: false };
    await this.storage.put(record, true);
    return record;
  }

  async get(limitRequestId: string): Promise<TrackedRequest | undefined> {
    return readTracked(await this.storage.get(limitRequestId));
  }

  /** The records of these ids, in their order (undefined where there is none): one round trip to the store. */
  async getMany(limitRequestIds: string[]): Promise<Array<TrackedRequest | undefined>> {
    if (limitRequestIds.length === 0) return [];
    return (await this.storage.getMany(limitRequestIds)).map(readTracked);
  }

  /** Ids of the requests still in review (not closed), in no particular order. */
  async openIds(): Promise<string[]> {
    const ids: string[] = [];
    for await (const id of this.storage.polled()) ids.push(id);
    return ids;
  }

  async recordReply(limitRequestId: string, reply: NonNullable<TrackedRequest['reply']>): Promise<TrackedRequest> {
    return this.update(limitRequestId, (r) => ({ ...r, reply }));
  }

  /** The thread root, once posted (or found: posted by an attempt whose answer was lost). */
  async attachRoot(limitRequestId: string, root: { channel: string; ts: string }): Promise<TrackedRequest> {
    return this.update(limitRequestId, (r) => ({ ...r, channel: root.channel, rootTs: root.ts }));
  }

  /** One more read answered 404 or 403 (with the API's own text, when it gave one): the count so far. */
  async noteUnreadable(
    limitRequestId: string,
    status: number,
    error?: string,
    now = new Date(),
  ): Promise<NonNullable<TrackedRequest['unreadable']>> {
    const record = await this.update(limitRequestId, (r) => ({
      ...r,
      unreadable: {
        count: (r.unreadable?.count ?? 0) + 1,
        since: r.unreadable?.since ?? now.toISOString(),
        status,
        ...(error ? { error: error.slice(0, 2000) } : {}),
      },
    }));
    return record.unreadable!;
  }

  /** A read answered: the count of unreadable ones starts again. */
  async clearUnreadable(limitRequestId: string): Promise<void> {
    await this.update(limitRequestId, ({ unreadable: _, ...r }) => r);
  }

  /** One more tick on which the decision could be delivered nowhere (Slack's answer): the count so far. */
  async noteUndeliverable(limitRequestId: string, error: string, now = new Date()): Promise<NonNullable<TrackedRequest['undeliverable']>> {
    const record = await this.update(limitRequestId, (r) => ({
      ...r,
      undeliverable: {
        count: (r.undeliverable?.count ?? 0) + 1,
        since: r.undeliverable?.since ?? now.toISOString(),
        error: error.slice(0, 200),
      },
    }));
    return record.undeliverable!;
  }

  /** Gives up delivering a decision that can reach nobody: recorded on the request, which is closed. */
  async closeUndelivered(
    limitRequestId: string,
    undelivered: { status: NonNullable<TrackedRequest['undelivered']>['status']; error: string },
    now = new Date(),
  ): Promise<TrackedRequest> {
    await this.update(limitRequestId, (r) => ({ ...r, undelivered: { ...undelivered, at: now.toISOString() } }));
    return this.close(limitRequestId);
  }

  async close(limitRequestId: string): Promise<TrackedRequest> {
    return this.update(limitRequestId, (r) => ({ ...r, closed: true }), false);
  }

  /** Forgets a request followed by mistake (its root could not be posted): record and poll set. */
  async forget(limitRequestId: string): Promise<void> {
    await this.storage.delete(limitRequestId);
  }

  /** Stops polling an id without touching its record (for an id whose record is gone). */
  async untrack(limitRequestId: string): Promise<void> {
    await this.storage.unpoll(limitRequestId);
  }

  private async update(limitRequestId: string, change: (r: TrackedRequest) => TrackedRequest, poll?: boolean): Promise<TrackedRequest> {
    const current = await this.get(limitRequestId);
    if (!current) throw new NoSuchRecordError(`Limit request ${limitRequestId} is not tracked`);
    const next = change(current);
    await this.storage.put(next, poll);
    return next;
  }
}
