import type { IndexEntry, SortedIndex } from '../sorted-index';
import type { Query } from './query';

const entries = (rows: Array<Record<string, unknown>>): IndexEntry[] => rows.map((r) => ({ id: String(r.id), score: Number(r.due) }));

/**
 * A table of the sqlite file, one per index (`approvals_due`, `filing_intents_index`, `tracked_polled`): `(namespace,
 * id)` keyed, indexed by score (the column `due`, as the first of them named it).
 */
export class SqliteSortedIndex implements SortedIndex {
  constructor(
    private readonly query: Query,
    private readonly namespace: string,
    private readonly table: string,
  ) {}

  async put(id: string, score: number): Promise<void> {
    await this.query(
      `INSERT INTO ${this.table} (namespace, id, due) VALUES (?, ?, ?) ON CONFLICT (namespace, id) DO UPDATE SET due = excluded.due`,
      [this.namespace, id, score],
    );
  }

  async remove(id: string): Promise<void> {
    await this.query(`DELETE FROM ${this.table} WHERE namespace = ? AND id = ?`, [this.namespace, id]);
  }

  async range(maxScore: number, limit: number): Promise<IndexEntry[]> {
    if (limit < 1) return [];
    return entries(
      await this.query(`SELECT id, due FROM ${this.table} WHERE namespace = ? AND due <= ? ORDER BY due, id LIMIT ?`, [
        this.namespace,
        maxScore,
        limit,
      ]),
    );
  }

  async all(limit?: number): Promise<IndexEntry[]> {
    if (limit !== undefined && limit < 1) return [];
    // LIMIT -1: no limit.
    return entries(
      await this.query(`SELECT id, due FROM ${this.table} WHERE namespace = ? ORDER BY due, id LIMIT ?`, [this.namespace, limit ?? -1]),
    );
  }

  async count(): Promise<number> {
    const rows = await this.query(`SELECT COUNT(*) AS n FROM ${this.table} WHERE namespace = ?`, [this.namespace]);
    return Number(rows[0]?.n ?? 0);
  }
}
