import { AtMostEvery } from '../at-most-every';
import type { RecordsStorage, StoredRecord } from '../records';
import { pages, type Query } from './db';

/** Lapsed records are deleted in passing, at most this often. */
const PRUNE_EVERY_MS = 60 * 60_000;

const LIVE = '(expires_at IS NULL OR expires_at > now())';
const EXPIRY = `CASE WHEN $4::bigint IS NULL THEN NULL ELSE now() + $4::bigint * interval '1 millisecond' END`;

/**
 * One table for every kind: `(kind, key)` keyed, the value's text, and when it lapses on the
 * database's clock (null: never), so every instance agrees on it. A lapsed row is no record: every
 * read and write looks at `expires_at`. Each operation is one statement.
 */
export class PostgresRecords implements RecordsStorage {
  private readonly pruning = new AtMostEvery(PRUNE_EVERY_MS);

  constructor(
    private readonly query: Query,
    private readonly s: string,
  ) {}

  async get(kind: string, key: string): Promise<string | undefined> {
    const [row] = await this.query(`SELECT value FROM ${this.s}.records WHERE kind = $1 AND key = $2 AND ${LIVE}`, [kind, key]);
    return row === undefined ? undefined : String(row.value);
  }

  async set(kind: string, key: string, text: string, ttlMs?: number): Promise<void> {
    this.prune();
    await this.query(
      `INSERT INTO ${this.s}.records (kind, key, value, expires_at) VALUES ($1, $2, $3, ${EXPIRY})
       ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      [kind, key, text, ttlMs ?? null],
    );
  }

  async setIfAbsent(kind: string, key: string, text: string, ttlMs?: number): Promise<boolean> {
    this.prune();
    // A lapsed row is taken over as if absent; a live one is left, and nothing is returned.
    const rows = await this.query(
      `INSERT INTO ${this.s}.records AS r (kind, key, value, expires_at) VALUES ($1, $2, $3, ${EXPIRY})
       ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at
       WHERE r.expires_at IS NOT NULL AND r.expires_at <= now()
       RETURNING 1`,
      [kind, key, text, ttlMs ?? null],
    );
    return rows.length === 1;
  }

  async compareAndSet(kind: string, key: string, expected: string, next: string): Promise<boolean> {
    const rows = await this.query(
      `UPDATE ${this.s}.records SET value = $4 WHERE kind = $1 AND key = $2 AND value = $3 AND ${LIVE} RETURNING 1`,
      [kind, key, expected, next],
    );
    return rows.length === 1;
  }

  async delete(kind: string, key: string): Promise<void> {
    await this.query(`DELETE FROM ${this.s}.records WHERE kind = $1 AND key = $2`, [kind, key]);
  }

  async list(kind: string, limit: number): Promise<Array<{ key: string; text: string }>> {
    const rows = await this.query(`SELECT key, value FROM ${this.s}.records WHERE kind = $1 AND ${LIVE} ORDER BY key LIMIT $2`, [
      kind,
      limit,
    ]);
    return rows.map((r) => ({ key: String(r.key), text: String(r.value) }));
  }

  async *all(): AsyncGenerator<StoredRecord> {
    // The key of a page is the pair (kind, key), written as one text with the separator no kind holds.
    const sql = `SELECT kind || ':' || key AS at, kind, key, value, ceil(extract(epoch FROM expires_at - now()) * 1000) AS left_ms
      FROM ${this.s}.records WHERE ($1::text IS NULL OR kind || ':' || key > $1) AND ${LIVE} ORDER BY kind || ':' || key LIMIT $2`;
    for await (const r of pages(this.query, sql, 'at')) {
      yield {
        kind: String(r.kind),
        key: String(r.key),
        text: String(r.value),
        ...(r.left_ms === null ? {} : { ttlMs: Math.max(1, Number(r.left_ms)) }),
      };
    }
  }

  /** Not waited for: nothing reads a lapsed row anyway. */
  private prune(): void {
    if (!this.pruning.due()) return;
    this.query(`DELETE FROM ${this.s}.records WHERE expires_at <= now()`).catch(() => undefined);
  }
}
