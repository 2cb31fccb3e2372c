import { type AuditEntry, type StoredAuditEntry, storedEntry } from '../../audit/entry';
import type { AuditBackend } from '../audit-trail';
import type { Query, Row } from './db';

const COLUMNS = [
  'time',
  'user_id',
  'role',
  'action',
  'target',
  'pix_method',
  'pix_path',
  'pix_status',
  'maker',
  'checker',
  'outcome',
  'detail',
];

const values = (e: AuditEntry) => [
  e.time,
  e.user,
  e.role,
  e.action,
  e.target ?? null,
  e.pixMethod ?? null,
  e.pixPath ?? null,
  e.pixStatus ?? null,
  e.maker ?? null,
  e.checker ?? null,
  e.outcome,
  e.detail ?? null,
];

const fromRow = (r: Row): StoredAuditEntry =>
  storedEntry(String(r.id), {
    time: r.time instanceof Date ? r.time.toISOString() : r.time,
    user: r.user_id,
    role: r.role,
    action: r.action,
    target: r.target,
    pixMethod: r.pix_method,
    pixPath: r.pix_path,
    pixStatus: r.pix_status,
    maker: r.maker,
    checker: r.checker,
    outcome: r.outcome,
    detail: r.detail,
  });

/** The types of a row's values, for the parameters of a VALUES list. */
const CASTS = ['timestamptz', 'text', 'text', 'text', 'text', 'text', 'text', 'integer', 'text', 'text', 'text', 'text'];

/**
 * The table `audit_log`: a bigserial id (the order of appends), each entry's own time, an index on the
 * time, and a trigger that refuses UPDATE, DELETE and TRUNCATE (migrations/001_initial.sql). Each
 * batch is one statement (one transaction) that first takes a lock of the database held to its commit,
 * the same for every writer of the schema, before its first id is drawn: ids are committed in the order
 * they were given, so a page or a snapshot read by id never sees a later id before an earlier one.
 */
export class PostgresAuditBackend implements AuditBackend {
  constructor(
    private readonly db: Query,
    private readonly s: string,
    /** The writers' lock: one key per schema. */
    private readonly lockKey: string,
  ) {}

  private get select() {
    return `SELECT id, ${COLUMNS.join(', ')} FROM ${this.s}.audit_log`;
  }

  async write(entries: AuditEntry[]): Promise<void> {
    const width = COLUMNS.length;
    const rows = entries.map((_, i) => `(${COLUMNS.map((__, j) => `$${i * width + j + 2}::${CASTS[j]}`).join(', ')})`);
    // The lock is an InitPlan of the rows' filter: taken once, before the first row (and its id) is made.
    await this.db(
      `INSERT INTO ${this.s}.audit_log (${COLUMNS.join(', ')})
       SELECT * FROM (VALUES ${rows.join(', ')}) AS entry WHERE (SELECT pg_advisory_xact_lock(hashtextextended($1, 0)) IS NOT NULL)`,
      [this.lockKey, ...entries.flatMap(values)],
    );
  }

  readonly cursor = /^\d{1,18}$/;

  async newest(q: { since: Date; before?: string; limit: number }): Promise<StoredAuditEntry[]> {
    const rows = await this.db(`${this.select} WHERE time >= $1 AND ($2::bigint IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`, [
      q.since,
      q.before ?? null,
      q.limit,
    ]);
    return rows.map(fromRow);
  }

  async newerThan(q: { since: Date; after: string; top?: string; limit: number }): Promise<StoredAuditEntry[]> {
    const rows = await this.db(`${this.select} WHERE id > $1 AND ($2::bigint IS NULL OR id <= $2) AND time >= $3 ORDER BY id LIMIT $4`, [
      q.after,
      q.top ?? null,
      q.since,
      q.limit,
    ]);
    return rows.map(fromRow);
  }

  async bounds(from: Date, to: Date): Promise<{ low: string; high: string } | undefined> {
    const [row] = await this.db(`SELECT min(id) AS low, max(id) AS high FROM ${this.s}.audit_log WHERE time >= $1 AND time < $2`, [
      from,
      to,
    ]);
    if (row?.low === null || row?.low === undefined) return undefined;
    return { low: String(row.low), high: String(row.high) };
  }

  async batch(
    range: { from: Date; to: Date; low: string; high: string },
    after: string | undefined,
    limit: number,
  ): Promise<StoredAuditEntry[]> {
    const rows = await this.db(
      `${this.select} WHERE id >= $1 AND ($2::bigint IS NULL OR id > $2) AND id <= $3 AND time >= $4 AND time < $5 ORDER BY id LIMIT $6`,
      [range.low, after ?? null, range.high, range.from, range.to, limit],
    );
    return rows.map(fromRow);
  }
}
