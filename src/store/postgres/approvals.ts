import type { ApprovalsStorage, StoredApproval } from '../approvals';
import { inOrderOf, pages, type Query, type Row } from './db';

const ids = (rows: Row[]) => rows.map((r) => String(r.id));

/**
 * A row per approval: its record and, in the same row, when it next needs a tick (null: not listed),
 * so the two are never out of step; a partial index on that time is what a tick reads.
 */
export class PostgresApprovals implements ApprovalsStorage {
  constructor(
    private readonly query: Query,
    private readonly s: string,
  ) {}

  async get(id: string): Promise<unknown> {
    const [row] = await this.query(`SELECT record FROM ${this.s}.approvals WHERE id = $1`, [id]);
    return row?.record;
  }

  async getMany(wanted: string[]): Promise<unknown[]> {
    const rows = await this.query(`SELECT id, record FROM ${this.s}.approvals WHERE id = ANY($1)`, [wanted]);
    return inOrderOf(wanted, rows, 'id', 'record');
  }

  async put(record: StoredApproval, due: number | undefined): Promise<void> {
    await this.query(
      `INSERT INTO ${this.s}.approvals (id, record, due) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET record = excluded.record, due = excluded.due, updated_at = now()`,
      [record.id, JSON.stringify(record), due ?? null],
    );
  }

  async unlist(id: string): Promise<void> {
    await this.query(`UPDATE ${this.s}.approvals SET due = NULL WHERE id = $1`, [id]);
  }

  async due(nowMs: number, limit: number): Promise<string[]> {
    if (limit < 1) return [];
    return ids(await this.query(`SELECT id FROM ${this.s}.approvals WHERE due <= $1 ORDER BY due, id LIMIT $2`, [nowMs, limit]));
  }

  async listed(limit: number): Promise<string[]> {
    if (limit < 1) return [];
    return ids(await this.query(`SELECT id FROM ${this.s}.approvals WHERE due IS NOT NULL ORDER BY due, id LIMIT $1`, [limit]));
  }

  async count(): Promise<number> {
    const [row] = await this.query(`SELECT count(*) AS n FROM ${this.s}.approvals WHERE due IS NOT NULL`);
    return Number(row?.n ?? 0);
  }

  async *all(): AsyncGenerator<{ record: unknown; due: number | undefined }> {
    const sql = `SELECT id, record, due FROM ${this.s}.approvals WHERE $1::text IS NULL OR id > $1 ORDER BY id LIMIT $2`;
    for await (const row of pages(this.query, sql, 'id')) yield { record: row.record, due: row.due === null ? undefined : Number(row.due) };
  }
}
