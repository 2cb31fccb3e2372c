import { type AuditEntry, type StoredAuditEntry, storedEntry } from '../../audit/entry';
import type { AuditBackend } from '../audit-trail';
import type { Query } from './query';

const TABLE = 'audit_trail';
const COLUMNS = [
  'namespace',
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
] as const;

/** The columns of an entry, named as AuditEntry names its fields. */
const SELECT = `SELECT id, time, user_id AS user, role, action, target, pix_method AS pixMethod, pix_path AS pixPath, pix_status AS pixStatus, maker, checker, outcome, detail FROM ${TABLE} NOT INDEXED`;

const fromRow = (row: Record<string, unknown>): StoredAuditEntry => storedEntry(String(row.id), row);

/**
 * One table for every namespace, `id INTEGER PRIMARY KEY AUTOINCREMENT` (never reused, so ids are
 * the order of appends), an index on (namespace, time), and triggers that refuse updates and deletes.
 * Reads walk the id (rowid) order, the time index only finding where a period begins and ends.
 */
export class SqliteAuditBackend implements AuditBackend {
  constructor(
    private readonly query: Query,
    private readonly namespace: string,
  ) {}

  async write(entries: AuditEntry[]): Promise<void> {
    const row = `(${COLUMNS.map(() => '?').join(', ')})`;
    const params = entries.flatMap((e) => [
      this.namespace,
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
    ]);
    // One statement: the whole batch is one transaction.
    await this.query(`INSERT INTO ${TABLE} (${COLUMNS.join(', ')}) VALUES ${entries.map(() => row).join(', ')}`, params);
  }

  readonly cursor = /^\d{1,15}$/;

  /** The first id of the entries from `since` on (found by the time index), or undefined. */
  private async firstSince(since: Date): Promise<number | undefined> {
    const [row] = await this.query(`SELECT MIN(id) AS low FROM ${TABLE} WHERE namespace = ? AND time >= ?`, [
      this.namespace,
      since.toISOString(),
    ]);
    return row?.low === null || row?.low === undefined ? undefined : Number(row.low);
  }

  async newest(q: { since: Date; before?: string; limit: number }): Promise<StoredAuditEntry[]> {
    const low = await this.firstSince(q.since);
    if (low === undefined) return [];
    const before = q.before === undefined ? Number.MAX_SAFE_INTEGER : Number(q.before);
    const rows = await this.query(`${SELECT} WHERE id >= ? AND id < ? AND namespace = ? AND time >= ? ORDER BY id DESC LIMIT ?`, [
      low,
      before,
      this.namespace,
      q.since.toISOString(),
      q.limit,
    ]);
    return rows.map(fromRow);
  }

  async newerThan(q: { since: Date; after: string; top?: string; limit: number }): Promise<StoredAuditEntry[]> {
    const top = q.top === undefined ? Number.MAX_SAFE_INTEGER : Number(q.top);
    const rows = await this.query(`${SELECT} WHERE id > ? AND id <= ? AND namespace = ? AND time >= ? ORDER BY id ASC LIMIT ?`, [
      Number(q.after),
      top,
      this.namespace,
      q.since.toISOString(),
      q.limit,
    ]);
    return rows.map(fromRow);
  }

  async bounds(from: Date, to: Date): Promise<{ low: string; high: string } | undefined> {
    const [row] = await this.query(`SELECT MIN(id) AS low, MAX(id) AS high FROM ${TABLE} WHERE namespace = ? AND time >= ? AND time < ?`, [
      this.namespace,
      from.toISOString(),
      to.toISOString(),
    ]);
    if (row?.low === null || row?.low === undefined) return undefined;
    return { low: String(row.low), high: String(row.high) };
  }

  async batch(
    range: { from: Date; to: Date; low: string; high: string },
    after: string | undefined,
    limit: number,
  ): Promise<StoredAuditEntry[]> {
    const start = after === undefined ? Number(range.low) - 1 : Number(after);
    // NOT INDEXED: walk the rowid range, not the time index (which would sort the whole period each batch).
    const rows = await this.query(
      `${SELECT} WHERE id > ? AND id <= ? AND namespace = ? AND time >= ? AND time < ? ORDER BY id ASC LIMIT ?`,
      [start, Number(range.high), this.namespace, range.from.toISOString(), range.to.toISOString(), limit],
    );
    return rows.map(fromRow);
  }
}
