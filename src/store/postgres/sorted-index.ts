import type { IndexEntry, SortedIndex } from '../sorted-index';
import type { Query, Row } from './db';

const entries = (rows: Row[]): IndexEntry[] => rows.map((r) => ({ id: String(r.id), score: Number(r.score) }));

/** The rows of one index (`name`) of the table `sorted_index`: `(name, id)` keyed, indexed by score. */
export class PostgresSortedIndex implements SortedIndex {
  constructor(
    private readonly query: Query,
    private readonly s: string,
    private readonly name: string,
  ) {}

  async put(id: string, score: number): Promise<void> {
    await this.query(
      `INSERT INTO ${this.s}.sorted_index (name, id, score) VALUES ($1, $2, $3) ON CONFLICT (name, id) DO UPDATE SET score = excluded.score`,
      [this.name, id, score],
    );
  }

  async remove(id: string): Promise<void> {
    await this.query(`DELETE FROM ${this.s}.sorted_index WHERE name = $1 AND id = $2`, [this.name, id]);
  }

  async range(maxScore: number, limit: number): Promise<IndexEntry[]> {
    if (limit < 1) return [];
    return entries(
      await this.query(`SELECT id, score FROM ${this.s}.sorted_index WHERE name = $1 AND score <= $2 ORDER BY score, id LIMIT $3`, [
        this.name,
        maxScore,
        limit,
      ]),
    );
  }

  async all(limit?: number): Promise<IndexEntry[]> {
    if (limit !== undefined && limit < 1) return [];
    // LIMIT NULL: no limit.
    return entries(
      await this.query(`SELECT id, score FROM ${this.s}.sorted_index WHERE name = $1 ORDER BY score, id LIMIT $2`, [
        this.name,
        limit ?? null,
      ]),
    );
  }

  async count(): Promise<number> {
    const [row] = await this.query(`SELECT count(*) AS n FROM ${this.s}.sorted_index WHERE name = $1`, [this.name]);
    return Number(row?.n ?? 0);
  }
}
