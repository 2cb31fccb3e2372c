import type { RedisClientType } from '@keyv/redis';
import { z } from 'zod';

/**
 * The Pix events outbox (see design.md, "record first, answer, then post"): every listed event the
 * receiver verified, keyed by the SHA-256 of its raw body, so a redelivery (the same bytes) is the
 * same key and is told from a new event by an insert-if-absent; the events not yet posted; and the
 * disputes seen, with their thread root. No raw body is kept: only the digest the receiver made of it,
 * personal data already masked (events/digest.ts).
 */

export const DisputeDigestSchema = z.object({
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
export type DisputeDigest = z.infer<typeof DisputeDigestSchema>;

export const OtherDigestSchema = z.object({
  /** Cents. */
  value: z.number().int().optional(),
  correlationId: z.string().optional(),
  status: z.string().optional(),
  name: z.string().optional(),
  /** Masked. */
  taxId: z.string().optional(),
});
export type OtherDigest = z.infer<typeof OtherDigestSchema>;

export const PixEventRecordSchema = z.object({
  hash: z.string(),
  /** The part of `event` after the colon, upper case: `DISPUTE_CREATED`. */
  kind: z.string(),
  receivedAt: z.string(),
  dispute: DisputeDigestSchema.optional(),
  other: OtherDigestSchema.optional(),
  /** When a post of it was first tried (a later try looks for it in Slack first). */
  attemptedAt: z.string().optional(),
  /** When it was posted (its root or reply, or its compact message). */
  postedAt: z.string().optional(),
});
export type PixEventRecord = z.infer<typeof PixEventRecordSchema>;

export const DisputeRecordSchema = DisputeDigestSchema.extend({
  channel: z.string(),
  rootTs: z.string().optional(),
  /** A final status was seen (accepted, rejected, canceled): no longer listed on the Home tab. */
  closed: z.boolean(),
  /** When its first event arrived (where a look-up for a root lost in a crash starts). */
  firstAt: z.string(),
  updatedAt: z.string(),
});
export type DisputeRecord = z.infer<typeof DisputeRecordSchema>;

/** How long a closed dispute is kept (on Redis; sqlite keeps it): long after any late event of it. */
export const DISPUTE_KEEP_MS = 180 * 24 * 60 * 60 * 1000;

/** How long a posted event's key is kept: far longer than the service's retries (8, 10·2ⁿ s: about 85 minutes). */
export const EVENT_KEEP_MS = 7 * 24 * 60 * 60 * 1000;

export interface PixEventsRepo {
  /** Records a new event; false when one with this hash is recorded already (a redelivery). */
  add(record: PixEventRecord): Promise<boolean>;
  get(hash: string): Promise<PixEventRecord | undefined>;
  /** Replaces a recorded event's record (one already recorded; its key's lifetime kept). */
  update(record: PixEventRecord): Promise<void>;
  /** The hashes of the events not posted yet, oldest first. */
  pending(): Promise<string[]>;
  markPosted(hash: string): Promise<void>;
  dispute(endToEndId: string): Promise<DisputeRecord | undefined>;
  saveDispute(record: DisputeRecord): Promise<void>;
  /** The disputes not closed, most recently updated first. */
  openDisputes(): Promise<DisputeRecord[]>;
}

const parse = <T>(schema: z.ZodType<T>, text: unknown): T | undefined => {
  if (typeof text !== 'string') return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
};

const byUpdate = (a: DisputeRecord, b: DisputeRecord) => b.updatedAt.localeCompare(a.updatedAt);

/** Redis: one string per event (`SET NX PX`), a sorted set of the pending ones, one string per dispute and a set of the open ones. */
export class RedisPixEvents implements PixEventsRepo {
  constructor(
    private readonly client: RedisClientType,
    private readonly prefix: string,
  ) {}

  private key = (hash: string) => `${this.prefix}:pix-event:${hash}`;
  private get pendingKey() {
    return `${this.prefix}:pix-events-pending`;
  }
  private disputeKey = (endToEndId: string) => `${this.prefix}:pix-dispute:${endToEndId}`;
  private get openKey() {
    return `${this.prefix}:pix-disputes-open`;
  }

  async add(record: PixEventRecord): Promise<boolean> {
    const reply = await this.client.set(this.key(record.hash), JSON.stringify(record), {
      condition: 'NX',
      expiration: { type: 'PX', value: EVENT_KEEP_MS },
    });
    if (reply !== 'OK') return false;
    await this.client.zAdd(this.pendingKey, { score: Date.parse(record.receivedAt), value: record.hash });
    return true;
  }

  async get(hash: string) {
    return parse(PixEventRecordSchema, await this.client.get(this.key(hash)));
  }

  async update(record: PixEventRecord) {
    await this.client.set(this.key(record.hash), JSON.stringify(record), { condition: 'XX', expiration: 'KEEPTTL' });
  }

  async pending() {
    return this.client.zRange(this.pendingKey, 0, -1);
  }

  async markPosted(hash: string) {
    const record = await this.get(hash);
    if (record && !record.postedAt) await this.update({ ...record, postedAt: new Date().toISOString() });
    await this.client.zRem(this.pendingKey, hash);
  }

  async dispute(endToEndId: string) {
    return parse(DisputeRecordSchema, await this.client.get(this.disputeKey(endToEndId)));
  }

  /** A closed dispute is kept DISPUTE_KEEP_MS more (a late event still finds its root), an open one for good. */
  async saveDispute(record: DisputeRecord) {
    const key = this.disputeKey(record.endToEndId);
    if (record.closed) {
      await this.client.set(key, JSON.stringify(record), { expiration: { type: 'PX', value: DISPUTE_KEEP_MS } });
      await this.client.sRem(this.openKey, record.endToEndId);
    } else {
      await this.client.set(key, JSON.stringify(record));
      await this.client.sAdd(this.openKey, record.endToEndId);
    }
  }

  async openDisputes() {
    const ids = await this.client.sMembers(this.openKey);
    if (ids.length === 0) return [];
    const texts = await this.client.mGet(ids.map(this.disputeKey));
    return texts
      .map((t) => parse(DisputeRecordSchema, t))
      .filter((d): d is DisputeRecord => d !== undefined && !d.closed)
      .sort(byUpdate);
  }
}

type Query = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS pix_events (ns TEXT NOT NULL, hash TEXT NOT NULL, received_at TEXT NOT NULL, posted INTEGER NOT NULL DEFAULT 0, json TEXT NOT NULL, PRIMARY KEY (ns, hash))`,
  `CREATE INDEX IF NOT EXISTS pix_events_pending ON pix_events (ns, posted, received_at)`,
  `CREATE TABLE IF NOT EXISTS pix_disputes (ns TEXT NOT NULL, e2e TEXT NOT NULL, open INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (ns, e2e))`,
  `CREATE INDEX IF NOT EXISTS pix_disputes_open ON pix_disputes (ns, open)`,
];

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** At most this many events in one insert (sqlite allows 32,766 parameters; 4 each). */
const ADD_BATCH = 500;

/** sqlite: a table with the hash as its key (`INSERT … ON CONFLICT DO NOTHING RETURNING`: the insert-if-absent). */
export class SqlitePixEvents implements PixEventsRepo {
  private schema: Promise<void> | undefined;

  constructor(
    private readonly query: Query,
    private readonly ns: string,
  ) {}

  /**
   * The tables, made at first use, not at start: each statement is a commit on the main connection,
   * which the first answers would wait behind (start-up time). A failure is tried again next time.
   */
  private get ready(): Promise<void> {
    this.schema ??= (async () => {
      for (const sql of SCHEMA) await this.query(sql);
    })().catch((err: unknown) => {
      this.schema = undefined;
      throw err;
    });
    return this.schema;
  }

  /**
   * Group commit: each insert is a transaction, and a transaction on a file costs its syncs (about 20 ms
   * on a plain disk); the events that arrive while one commits go in the next, as one statement. A burst
   * of webhooks is then answered in a few commits instead of waiting in line for one each.
   */
  add(record: PixEventRecord): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.waiting.push({ record, resolve, reject });
      if (!this.committing) void this.commit();
    });
  }

  private readonly waiting: Array<{ record: PixEventRecord; resolve: (added: boolean) => void; reject: (err: unknown) => void }> = [];
  private committing = false;

  private async commit(): Promise<void> {
    this.committing = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, ADD_BATCH);
      try {
        await this.ready;
        const rows = await this.query(
          `INSERT INTO pix_events (ns, hash, received_at, posted, json) VALUES ${batch.map(() => '(?, ?, ?, 0, ?)').join(', ')} ON CONFLICT (ns, hash) DO NOTHING RETURNING hash`,
          batch.flatMap(({ record }) => [this.ns, record.hash, record.receivedAt, JSON.stringify(record)]),
        );
        const inserted = new Set(rows.map((r) => String(r.hash)));
        // The same bytes twice in one batch: the first is the new event, the second its repeat.
        const seen = new Set<string>();
        for (const { record, resolve } of batch) {
          resolve(inserted.has(record.hash) && !seen.has(record.hash));
          seen.add(record.hash);
        }
      } catch (err) {
        for (const { reject } of batch) reject(err);
      }
    }
    this.committing = false;
  }

  async get(hash: string) {
    await this.ready;
    const [row] = await this.query('SELECT json FROM pix_events WHERE ns = ? AND hash = ?', [this.ns, hash]);
    return parse(PixEventRecordSchema, row?.json);
  }

  async update(record: PixEventRecord) {
    await this.ready;
    await this.query('UPDATE pix_events SET json = ? WHERE ns = ? AND hash = ?', [JSON.stringify(record), this.ns, record.hash]);
  }

  private prunedAt = 0;

  async pending() {
    await this.ready;
    // Old posted events go in passing, at most once an hour (a write costs a commit): their retries are long over.
    if (Date.now() - this.prunedAt > PRUNE_EVERY_MS) {
      this.prunedAt = Date.now();
      await this.query('DELETE FROM pix_events WHERE ns = ? AND posted = 1 AND received_at < ?', [
        this.ns,
        new Date(Date.now() - EVENT_KEEP_MS).toISOString(),
      ]);
    }
    const rows = await this.query('SELECT hash FROM pix_events WHERE ns = ? AND posted = 0 ORDER BY received_at, hash', [this.ns]);
    return rows.map((r) => String(r.hash));
  }

  async markPosted(hash: string) {
    await this.ready;
    const record = await this.get(hash);
    if (!record) return;
    await this.query('UPDATE pix_events SET posted = 1, json = ? WHERE ns = ? AND hash = ?', [
      JSON.stringify({ ...record, postedAt: record.postedAt ?? new Date().toISOString() }),
      this.ns,
      hash,
    ]);
  }

  async dispute(endToEndId: string) {
    await this.ready;
    const [row] = await this.query('SELECT json FROM pix_disputes WHERE ns = ? AND e2e = ?', [this.ns, endToEndId]);
    return parse(DisputeRecordSchema, row?.json);
  }

  async saveDispute(record: DisputeRecord) {
    await this.ready;
    await this.query(
      'INSERT INTO pix_disputes (ns, e2e, open, json) VALUES (?, ?, ?, ?) ON CONFLICT (ns, e2e) DO UPDATE SET open = excluded.open, json = excluded.json',
      [this.ns, record.endToEndId, record.closed ? 0 : 1, JSON.stringify(record)],
    );
  }

  async openDisputes() {
    await this.ready;
    const rows = await this.query('SELECT json FROM pix_disputes WHERE ns = ? AND open = 1', [this.ns]);
    return rows
      .map((r) => parse(DisputeRecordSchema, r.json))
      .filter((d): d is DisputeRecord => d !== undefined)
      .sort(byUpdate);
  }
}
