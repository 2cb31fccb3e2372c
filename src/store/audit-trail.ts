import type { AuditEntry, StoredAuditEntry } from '../audit/entry';

/**
 * Entries read at a time by an export: what is alive at each garbage collection is a batch, and the
 * fewer survive, the less the collector lets the heap grow (bench/audit.ts: 100 measured best
 * against 20, 50, 200 and 1,000, with a round trip per batch still cheap on Redis).
 */
export const EXPORT_BATCH = 100;
/** Entries per write at most (sqlite: 13 parameters each, far under its limit of 32,766). */
export const MAX_BATCH = 200;

/** A page of `/pix audit`: newest first, from `since` on. */
export interface AuditPageQuery {
  since: Date;
  limit: number;
  /** The next page: entries older than this one. */
  before?: string;
  /** The previous page: entries newer than this one, and not newer than `top`. */
  after?: string;
  top?: string;
}

/**
 * The entries of a period as they were when it was taken: reading it again gives the same entries
 * (the trail is append-only and the snapshot ends at the newest entry it saw), oldest first, in
 * batches, never all at once.
 */
export interface AuditSnapshot {
  batches(): AsyncGenerator<StoredAuditEntry[]>;
}

/** What each backend does; `AuditTrail` adds the batching of appends on top. */
export interface AuditBackend {
  /** Appends the entries in this order, all or none. */
  write(entries: AuditEntry[]): Promise<void>;
  /** What a cursor of this backend looks like (checked before one from a button's value reaches a query). */
  readonly cursor: RegExp;
  /** Newest first, `limit` at most, from `since` on, older than `before` when given. */
  newest(query: { since: Date; before?: string; limit: number }): Promise<StoredAuditEntry[]>;
  /** Oldest first: the `limit` entries just newer than `after`, up to `top` when given. */
  newerThan(query: { since: Date; after: string; top?: string; limit: number }): Promise<StoredAuditEntry[]>;
  /** The entries of [from, to): where they begin and end now; undefined when there are none. */
  bounds(from: Date, to: Date): Promise<{ low: string; high: string } | undefined>;
  /** Oldest first: up to `limit` entries of [from, to) within the bounds, after `after` when given. */
  batch(range: { from: Date; to: Date; low: string; high: string }, after: string | undefined, limit: number): Promise<StoredAuditEntry[]>;
}

interface Pending {
  entry: AuditEntry;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * The audit trail: append, never update. Appends are grouped: while one write is under way, the
 * entries that arrive wait and go together in the next one (one sqlite transaction, one Redis
 * script, one Postgres statement), so a burst of actions costs a few writes, not one each, and one
 * instance's entries keep their order. Each `append` resolves once its entry is stored.
 */
export class AuditTrail {
  private queue: Pending[] = [];
  private writing: Promise<void> | undefined;

  /** `backend`: guarded (a time limit, StoreUnavailableError) by the store. */
  constructor(private readonly backend: AuditBackend) {}

  append(entry: AuditEntry): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      this.kick();
    });
  }

  private kick(): void {
    if (this.writing) return;
    this.writing = this.drain().finally(() => {
      this.writing = undefined;
      // Entries that came after the last batch was taken, while the write was finishing.
      if (this.queue.length > 0) this.kick();
    });
  }

  /** Resolves once every entry appended so far is written (or has failed). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** A cursor from a button's value is checked before it reaches a query. */
  isCursor(text: unknown): text is string {
    return typeof text === 'string' && this.backend.cursor.test(text);
  }

  /** One page, newest first. */
  async page(query: AuditPageQuery): Promise<StoredAuditEntry[]> {
    if (query.after !== undefined) {
      const { after } = query;
      const older = await this.backend.newerThan({ since: query.since, after, top: query.top, limit: query.limit });
      return older.reverse();
    }
    return this.backend.newest({ since: query.since, before: query.before, limit: query.limit });
  }

  /** The entries of [from, to) as they are now (see AuditSnapshot). */
  async snapshot(from: Date, to: Date, batchSize = EXPORT_BATCH): Promise<AuditSnapshot> {
    const bounds = await this.backend.bounds(from, to);
    const { backend } = this;
    return {
      async *batches() {
        if (!bounds) return;
        const range = { from, to, ...bounds };
        let after: string | undefined;
        for (;;) {
          const batch = await backend.batch(range, after, batchSize);
          if (batch.length === 0) return;
          yield batch;
          after = batch[batch.length - 1]!.id;
          if (batch.length < batchSize) return;
        }
      },
    };
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        await this.backend.write(batch.map((p) => p.entry));
        for (const p of batch) p.resolve();
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
  }
}
