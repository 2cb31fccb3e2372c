import type { z } from 'zod';
import { AtMostEvery } from '../at-most-every';
import {
  byUpdate,
  type DisputeRecord,
  DisputeRecordSchema,
  type PixEventRecord,
  PixEventRecordSchema,
  type PixEventsRepo,
} from '../pix-events';
import { pages, type Query, type Row } from './db';

const PRUNE_EVERY_MS = 60 * 60_000;

/** A stored jsonb value read with its schema: anything else is no record. */
function parsed<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

const events = (rows: Row[]) => rows.map((r) => parsed(PixEventRecordSchema, r.record));
const disputes = (rows: Row[]) => rows.map((r) => parsed(DisputeRecordSchema, r.record)).filter((d): d is DisputeRecord => d !== undefined);

/**
 * An event is one row, its pending mark a column of it: recorded and pending in one insert, the first
 * of the same bytes winning (`ON CONFLICT DO NOTHING`), so a repeat of an event not posted finds it
 * pending still, and none is ever recorded without being pending. `posted` means "not pending": a
 * dropped event's row is written so.
 */
export class PostgresPixEvents implements PixEventsRepo {
  private readonly pruning = new AtMostEvery(PRUNE_EVERY_MS);

  constructor(
    private readonly query: Query,
    private readonly s: string,
  ) {}

  async add(record: PixEventRecord): Promise<boolean> {
    const rows = await this.query(
      `INSERT INTO ${this.s}.pix_events (hash, received_at, posted, kept_until, record) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (hash) DO NOTHING RETURNING 1`,
      [record.hash, record.receivedAt, record.dropped !== undefined, record.keptUntil ?? null, JSON.stringify(record)],
    );
    return rows.length === 1;
  }

  async get(hash: string) {
    const [row] = await this.query(`SELECT record FROM ${this.s}.pix_events WHERE hash = $1`, [hash]);
    return row === undefined ? undefined : events([row])[0];
  }

  async update(record: PixEventRecord) {
    await this.query(`UPDATE ${this.s}.pix_events SET record = $2 WHERE hash = $1`, [record.hash, JSON.stringify(record)]);
  }

  async pending() {
    // Events past their kept_until go in passing, at most once an hour: a replay of them is too old.
    if (this.pruning.due()) await this.query(`DELETE FROM ${this.s}.pix_events WHERE posted AND kept_until < now()`);
    const rows = await this.query(`SELECT hash FROM ${this.s}.pix_events WHERE NOT posted ORDER BY received_at, hash`);
    return rows.map((r) => String(r.hash));
  }

  /** One statement: the mark, the record cut as postedRecord cuts it, and its `postedAt` (its first, kept when posted again). */
  async markPosted(hash: string) {
    await this.query(
      `UPDATE ${this.s}.pix_events SET posted = true,
         record = CASE WHEN record ? 'postedAt' THEN record ELSE record || jsonb_build_object('postedAt', $2::text) END - 'dispute' - 'other' - 'movement'
       WHERE hash = $1`,
      [hash, new Date().toISOString()],
    );
  }

  async dispute(endToEndId: string) {
    const [row] = await this.query(`SELECT record FROM ${this.s}.pix_disputes WHERE end_to_end_id = $1`, [endToEndId]);
    return row === undefined ? undefined : disputes([row])[0];
  }

  async saveDispute(record: DisputeRecord) {
    await this.query(
      `INSERT INTO ${this.s}.pix_disputes (end_to_end_id, open, record) VALUES ($1, $2, $3)
       ON CONFLICT (end_to_end_id) DO UPDATE SET open = excluded.open, record = excluded.record`,
      [record.endToEndId, !record.closed, JSON.stringify(record)],
    );
  }

  async openDisputes() {
    return disputes(await this.query(`SELECT record FROM ${this.s}.pix_disputes WHERE open`)).sort(byUpdate);
  }

  async *events(): AsyncGenerator<PixEventRecord> {
    const sql = `SELECT hash, record FROM ${this.s}.pix_events WHERE $1::text IS NULL OR hash > $1 ORDER BY hash LIMIT $2`;
    for await (const row of pages(this.query, sql, 'hash')) {
      const [record] = events([row]);
      if (record) yield record;
    }
  }

  async *disputes(): AsyncGenerator<DisputeRecord> {
    const sql = `SELECT end_to_end_id, record FROM ${this.s}.pix_disputes WHERE $1::text IS NULL OR end_to_end_id > $1 ORDER BY end_to_end_id LIMIT $2`;
    for await (const row of pages(this.query, sql, 'end_to_end_id')) yield* disputes([row]);
  }
}
