import { AtMostEvery } from '../at-most-every';
import type { RecordsStorage, StoredRecord } from '../records';
import type { Query } from './query';

/** Rows read at a time by a listing of everything. */
const PAGE = 500;

/** Lapsed records go in passing, at most this often (a delete is a commit). */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * One table for every kind: `(namespace, kind, key)` keyed, the value's text, and when it lapses
 * (ms; null: never). A lapsed row is no record: every read and write looks at `expires`. Each
 * operation is one statement, so two stores on the file (two connections) race safely.
 */
export class SqliteRecords implements RecordsStorage {
  private readonly pruning = new AtMostEvery(PRUNE_EVERY_MS);

  constructor(
    private readonly query: Query,
    private readonly namespace: string,
    private readonly now: () => number = Date.now,
  ) {}

  async get(kind: string, key: string): Promise<string | undefined> {
    const [row] = await this.query(
      'SELECT value FROM records WHERE namespace = ? AND kind = ? AND key = ? AND (expires IS NULL OR expires > ?)',
      [this.namespace, kind, key, this.now()],
    );
    return row === undefined ? undefined : String(row.value);
  }

  async set(kind: string, key: string, text: string, ttlMs?: number): Promise<void> {
    await this.prune();
    await this.query(
      'INSERT INTO records (namespace, kind, key, value, expires) VALUES (?, ?, ?, ?, ?) ON CONFLICT (namespace, kind, key) DO UPDATE SET value = excluded.value, expires = excluded.expires',
      [this.namespace, kind, key, text, this.expiry(ttlMs)],
    );
  }

  async setIfAbsent(kind: string, key: string, text: string, ttlMs?: number): Promise<boolean> {
    await this.prune();
    // A lapsed row is taken over as if absent.
    const rows = await this.query(
      'INSERT INTO records (namespace, kind, key, value, expires) VALUES (?, ?, ?, ?, ?) ON CONFLICT (namespace, kind, key) DO UPDATE SET value = excluded.value, expires = excluded.expires WHERE records.expires IS NOT NULL AND records.expires <= ? RETURNING key',
      [this.namespace, kind, key, text, this.expiry(ttlMs), this.now()],
    );
    return rows.length === 1;
  }

  async compareAndSet(kind: string, key: string, expected: string, next: string): Promise<boolean> {
    const rows = await this.query(
      'UPDATE records SET value = ? WHERE namespace = ? AND kind = ? AND key = ? AND value = ? AND (expires IS NULL OR expires > ?) RETURNING key',
      [next, this.namespace, kind, key, expected, this.now()],
    );
    return rows.length === 1;
  }

  async delete(kind: string, key: string): Promise<void> {
    await this.query('DELETE FROM records WHERE namespace = ? AND kind = ? AND key = ?', [this.namespace, kind, key]);
  }

  async list(kind: string, limit: number): Promise<Array<{ key: string; text: string }>> {
    const rows = await this.query(
      'SELECT key, value FROM records WHERE namespace = ? AND kind = ? AND (expires IS NULL OR expires > ?) ORDER BY key LIMIT ?',
      [this.namespace, kind, this.now(), limit],
    );
    return rows.map((r) => ({ key: String(r.key), text: String(r.value) }));
  }

  async *all(): AsyncGenerator<StoredRecord> {
    for (let after: [string, string] = ['', '']; ; ) {
      const now = this.now();
      const rows = await this.query(
        'SELECT kind, key, value, expires FROM records WHERE namespace = ? AND (kind, key) > (?, ?) AND (expires IS NULL OR expires > ?) ORDER BY kind, key LIMIT ?',
        [this.namespace, ...after, now, PAGE],
      );
      for (const r of rows) {
        yield {
          kind: String(r.kind),
          key: String(r.key),
          text: String(r.value),
          ...(r.expires === null ? {} : { ttlMs: Math.max(1, Number(r.expires) - now) }),
        };
      }
      if (rows.length < PAGE) return;
      const last = rows[rows.length - 1]!;
      after = [String(last.kind), String(last.key)];
    }
  }

  private expiry(ttlMs: number | undefined): number | null {
    return ttlMs === undefined ? null : this.now() + ttlMs;
  }

  private async prune(): Promise<void> {
    const now = this.now();
    if (!this.pruning.due(now)) return;
    await this.query('DELETE FROM records WHERE namespace = ? AND expires IS NOT NULL AND expires <= ?', [this.namespace, now]);
  }
}
