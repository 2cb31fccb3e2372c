import type { TrackedRequest, TrackedRequestsStorage } from '../tracked-requests';
import { inOrderOf, pages, type Query } from './db';

/** A row per request: its record, and whether it is still polled (one row: never one without the other). */
export class PostgresTrackedRequests implements TrackedRequestsStorage {
  constructor(
    private readonly query: Query,
    private readonly s: string,
  ) {}

  async get(limitRequestId: string): Promise<unknown> {
    const [row] = await this.query(`SELECT record FROM ${this.s}.tracked_requests WHERE limit_request_id = $1`, [limitRequestId]);
    return row?.record;
  }

  async getMany(limitRequestIds: string[]): Promise<unknown[]> {
    const rows = await this.query(`SELECT limit_request_id, record FROM ${this.s}.tracked_requests WHERE limit_request_id = ANY($1)`, [
      limitRequestIds,
    ]);
    return inOrderOf(limitRequestIds, rows, 'limit_request_id', 'record');
  }

  async put(record: TrackedRequest, poll?: boolean): Promise<void> {
    await this.query(
      `INSERT INTO ${this.s}.tracked_requests AS t (limit_request_id, record, polled) VALUES ($1, $2, coalesce($3::boolean, false))
       ON CONFLICT (limit_request_id) DO UPDATE SET record = excluded.record, polled = coalesce($3::boolean, t.polled), updated_at = now()`,
      [record.limitRequestId, JSON.stringify(record), poll ?? null],
    );
  }

  async delete(limitRequestId: string): Promise<void> {
    await this.query(`DELETE FROM ${this.s}.tracked_requests WHERE limit_request_id = $1`, [limitRequestId]);
  }

  async unpoll(limitRequestId: string): Promise<void> {
    await this.query(`UPDATE ${this.s}.tracked_requests SET polled = false WHERE limit_request_id = $1 AND polled`, [limitRequestId]);
  }

  async *polled(): AsyncGenerator<string> {
    const sql = `SELECT limit_request_id FROM ${this.s}.tracked_requests WHERE polled AND ($1::text IS NULL OR limit_request_id > $1) ORDER BY limit_request_id LIMIT $2`;
    for await (const row of pages(this.query, sql, 'limit_request_id')) yield String(row.limit_request_id);
  }

  async *all(): AsyncGenerator<{ record: unknown; polled: boolean }> {
    const sql = `SELECT limit_request_id, record, polled FROM ${this.s}.tracked_requests WHERE $1::text IS NULL OR limit_request_id > $1 ORDER BY limit_request_id LIMIT $2`;
    for await (const row of pages(this.query, sql, 'limit_request_id')) yield { record: row.record, polled: row.polled === true };
  }
}
