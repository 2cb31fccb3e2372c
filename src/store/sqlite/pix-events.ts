import { AtMostEvery } from '../at-most-every';
import {
  byUpdate,
  type DisputeRecord,
  DisputeRecordSchema,
  type PixEventRecord,
  PixEventRecordSchema,
  type PixEventsRepo,
  parseStored,
  postedRecord,
} from '../pix-events';
import type { Query } from './query';

const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** At most this many events in one insert (sqlite allows 32,766 parameters; 4 each). */
const ADD_BATCH = 500;

/**
 * sqlite: a table with the hash as its key (`INSERT … ON CONFLICT DO NOTHING RETURNING`: the
 * insert-if-absent). An event is pending while its row says it is not posted: record and listing are
 * one row, so a repeat of an event not posted finds it pending still. The `posted` column means "not
 * pending": a dropped event's row is written so.
 */
export class SqlitePixEvents implements PixEventsRepo {
  constructor(
    private readonly query: Query,
    private readonly ns: string,
  ) {}

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
        const rows = await this.query(
          `INSERT INTO pix_events (ns, hash, received_at, posted, json) VALUES ${batch.map(() => '(?, ?, ?, ?, ?)').join(', ')} ON CONFLICT (ns, hash) DO NOTHING RETURNING hash`,
          // A dropped event is never pending: its row says posted (its record says it was not).
          batch.flatMap(({ record }) => [this.ns, record.hash, record.receivedAt, record.dropped ? 1 : 0, JSON.stringify(record)]),
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
    const [row] = await this.query('SELECT json FROM pix_events WHERE ns = ? AND hash = ?', [this.ns, hash]);
    return parseStored(PixEventRecordSchema, row?.json);
  }

  async update(record: PixEventRecord) {
    await this.query('UPDATE pix_events SET json = ? WHERE ns = ? AND hash = ?', [JSON.stringify(record), this.ns, record.hash]);
  }

  private readonly pruning = new AtMostEvery(PRUNE_EVERY_MS);

  async pending() {
    // Events past their keptUntil go in passing, at most once an hour (a write costs a commit): a replay of them is too old.
    if (this.pruning.due()) {
      await this.query(`DELETE FROM pix_events WHERE ns = ? AND posted = 1 AND json_extract(json, '$.keptUntil') < ?`, [
        this.ns,
        new Date().toISOString(),
      ]);
    }
    const rows = await this.query('SELECT hash FROM pix_events WHERE ns = ? AND posted = 0 ORDER BY received_at, hash', [this.ns]);
    return rows.map((r) => String(r.hash));
  }

  async markPosted(hash: string) {
    const record = await this.get(hash);
    if (!record) return;
    await this.query('UPDATE pix_events SET posted = 1, json = ? WHERE ns = ? AND hash = ?', [
      JSON.stringify(postedRecord(record, new Date().toISOString())),
      this.ns,
      hash,
    ]);
  }

  async dispute(endToEndId: string) {
    const [row] = await this.query('SELECT json FROM pix_disputes WHERE ns = ? AND e2e = ?', [this.ns, endToEndId]);
    return parseStored(DisputeRecordSchema, row?.json);
  }

  async saveDispute(record: DisputeRecord) {
    await this.query(
      'INSERT INTO pix_disputes (ns, e2e, open, json) VALUES (?, ?, ?, ?) ON CONFLICT (ns, e2e) DO UPDATE SET open = excluded.open, json = excluded.json',
      [this.ns, record.endToEndId, record.closed ? 0 : 1, JSON.stringify(record)],
    );
  }

  async openDisputes() {
    const rows = await this.query('SELECT json FROM pix_disputes WHERE ns = ? AND open = 1', [this.ns]);
    return rows
      .map((r) => parseStored(DisputeRecordSchema, r.json))
      .filter((d): d is DisputeRecord => d !== undefined)
      .sort(byUpdate);
  }

  async *events(): AsyncGenerator<PixEventRecord> {
    for await (const text of pages(
      this.query,
      'SELECT hash AS k, json FROM pix_events WHERE ns = ? AND hash > ? ORDER BY hash LIMIT ?',
      this.ns,
    )) {
      const record = parseStored(PixEventRecordSchema, text);
      if (record) yield record;
    }
  }

  async *disputes(): AsyncGenerator<DisputeRecord> {
    for await (const text of pages(
      this.query,
      'SELECT e2e AS k, json FROM pix_disputes WHERE ns = ? AND e2e > ? ORDER BY e2e LIMIT ?',
      this.ns,
    )) {
      const record = parseStored(DisputeRecordSchema, text);
      if (record) yield record;
    }
  }
}

const PAGE = 500;

/** The `json` of every row of a keyed listing, a page at a time, each page after the last key of the one before. */
async function* pages(query: Query, sql: string, ns: string): AsyncGenerator<unknown> {
  for (let after = ''; ; ) {
    const rows = await query(sql, [ns, after, PAGE]);
    for (const row of rows) yield row.json;
    if (rows.length < PAGE) return;
    after = String(rows[rows.length - 1]!.k);
  }
}
