import type { RedisClientType } from '@keyv/redis';
import { type AuditEntry, type StoredAuditEntry, storedEntry } from '../audit/entry';

/**
 * Entries read at a time by an export: what is alive at each garbage collection is a batch, and the
 * fewer survive, the less the collector lets the heap grow (bench/audit.ts: 100 measured best
 * against 20, 50, 200 and 1,000, with a round trip per batch still cheap on Redis).
 */
const EXPORT_BATCH = 100;
/** Entries per write at most (sqlite: 14 parameters each, far under its limit of 32,766). */
const MAX_BATCH = 200;

/** A page of `/pix audit`: newest first, from `since` on. */
export interface AuditPageQuery {
  since: Date;
  limit: number;
  /** The next page: entries older than this one. */
  before?: string;
  /** The previous page: entries newer than this one, and not newer than `top`. */
  after?: string;
  top?: string;
}

/**
 * The entries of a period as they were when it was taken: reading it again gives the same entries
 * (the trail is append-only and the snapshot ends at the newest entry it saw), oldest first, in
 * batches, never all at once.
 */
export interface AuditSnapshot {
  batches(): AsyncGenerator<StoredAuditEntry[]>;
}

/** What each backend does; `AuditTrail` adds the batching of appends on top. */
export interface AuditBackend {
  /** Appends the entries in this order, all or none. */
  write(entries: AuditEntry[]): Promise<void>;
  isCursor(text: string): boolean;
  /** Newest first, `limit` at most, from `since` on, older than `before` when given. */
  newest(query: { since: Date; before?: string; limit: number }): Promise<StoredAuditEntry[]>;
  /** Oldest first: the `limit` entries just newer than `after`, up to `top` when given. */
  newerThan(query: { since: Date; after: string; top?: string; limit: number }): Promise<StoredAuditEntry[]>;
  /** The entries of [from, to): where they begin and end now; undefined when there are none. */
  bounds(from: Date, to: Date): Promise<{ low: string; high: string } | undefined>;
  /** Oldest first: up to `limit` entries of [from, to) within the bounds, after `after` when given. */
  batch(range: { from: Date; to: Date; low: string; high: string }, after: string | undefined, limit: number): Promise<StoredAuditEntry[]>;
}

/** Runs one store operation with the store's time limit and error rule (see store/index.ts). */
export type Guard = <T>(operation: string, run: () => Promise<T>) => Promise<T>;

interface Pending {
  entry: AuditEntry;
  resolve(): void;
  reject(err: unknown): void;
}

/**
 * The audit trail: append, never update. Appends are grouped: while one write is under way, the
 * entries that arrive wait and go together in the next one (one sqlite transaction, one Redis
 * MULTI), so a burst of actions costs a few writes, not one each, and one instance's entries keep
 * their order. Each `append` resolves once its entry is stored.
 */
export class AuditTrail {
  private queue: Pending[] = [];
  private writing: Promise<void> | undefined;

  constructor(
    private readonly backend: AuditBackend,
    private readonly guard: Guard,
  ) {}

  append(entry: AuditEntry): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      this.kick();
    });
  }

  private kick(): void {
    if (this.writing) return;
    this.writing = this.drain().finally(() => {
      this.writing = undefined;
      // Entries that came after the last batch was taken, while the write was finishing.
      if (this.queue.length > 0) this.kick();
    });
  }

  /** Resolves once every entry appended so far is written (or has failed). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** A cursor from a button's value is checked before it reaches a query. */
  isCursor(text: unknown): text is string {
    return typeof text === 'string' && this.backend.isCursor(text);
  }

  /** One page, newest first. */
  async page(query: AuditPageQuery): Promise<StoredAuditEntry[]> {
    if (query.after !== undefined) {
      const { after } = query;
      const older = await this.guard('audit page', () =>
        this.backend.newerThan({ since: query.since, after, top: query.top, limit: query.limit }),
      );
      return older.reverse();
    }
    return this.guard('audit page', () => this.backend.newest({ since: query.since, before: query.before, limit: query.limit }));
  }

  /** The entries of [from, to) as they are now (see AuditSnapshot). */
  async snapshot(from: Date, to: Date, batchSize = EXPORT_BATCH): Promise<AuditSnapshot> {
    const bounds = await this.guard('audit export', () => this.backend.bounds(from, to));
    const { backend, guard } = this;
    return {
      async *batches() {
        if (!bounds) return;
        const range = { from, to, ...bounds };
        let after: string | undefined;
        for (;;) {
          const batch = await guard('audit export', () => backend.batch(range, after, batchSize));
          if (batch.length === 0) return;
          yield batch;
          after = batch[batch.length - 1]!.id;
          if (batch.length < batchSize) return;
        }
      },
    };
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      try {
        await this.guard('audit append', () => this.backend.write(batch.map((p) => p.entry)));
        for (const p of batch) p.resolve();
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
    }
  }
}

// --- sqlite ---------------------------------------------------------------------------------------

type Query = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

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

const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS ${TABLE} (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace TEXT NOT NULL,
    time TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT,
    pix_method TEXT,
    pix_path TEXT,
    pix_status INTEGER,
    maker TEXT,
    checker TEXT,
    outcome TEXT NOT NULL,
    detail TEXT
  )`,
  `CREATE INDEX IF NOT EXISTS ${TABLE}_time ON ${TABLE} (namespace, time)`,
  // Append, never update: the database itself refuses to change or remove an entry.
  `CREATE TRIGGER IF NOT EXISTS ${TABLE}_no_update BEFORE UPDATE ON ${TABLE} BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END`,
  `CREATE TRIGGER IF NOT EXISTS ${TABLE}_no_delete BEFORE DELETE ON ${TABLE} BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END`,
];

/** The columns of an entry, named as AuditEntry names its fields. */
const SELECT = `SELECT id, time, user_id AS user, role, action, target, pix_method AS pixMethod, pix_path AS pixPath, pix_status AS pixStatus, maker, checker, outcome, detail FROM ${TABLE} NOT INDEXED`;

const fromRow = (row: Record<string, unknown>): StoredAuditEntry => storedEntry(String(row.id), row);

/**
 * One table for every namespace, `id INTEGER PRIMARY KEY AUTOINCREMENT` (never reused, so ids are
 * the order of appends), an index on (namespace, time), and triggers that refuse updates and deletes.
 * Reads walk the id (rowid) order, the time index only finding where a period begins and ends.
 */
export class SqliteAuditBackend implements AuditBackend {
  private readonly ready: Promise<void>;

  constructor(
    private readonly query: Query,
    private readonly namespace: string,
  ) {
    this.ready = (async () => {
      for (const sql of SCHEMA) await query(sql);
    })();
    // Its failure is every operation's (each awaits it); nothing is left unhandled meanwhile.
    this.ready.catch(() => undefined);
  }

  async write(entries: AuditEntry[]): Promise<void> {
    await this.ready;
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

  isCursor(text: string): boolean {
    return /^\d{1,15}$/.test(text);
  }

  /** The first id of the entries from `since` on (found by the time index), or undefined. */
  private async firstSince(since: Date): Promise<number | undefined> {
    const [row] = await this.query(`SELECT MIN(id) AS low FROM ${TABLE} WHERE namespace = ? AND time >= ?`, [
      this.namespace,
      since.toISOString(),
    ]);
    return row?.low === null || row?.low === undefined ? undefined : Number(row.low);
  }

  async newest(q: { since: Date; before?: string; limit: number }): Promise<StoredAuditEntry[]> {
    await this.ready;
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
    await this.ready;
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
    await this.ready;
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
    await this.ready;
    const start = after === undefined ? Number(range.low) - 1 : Number(after);
    // NOT INDEXED: walk the rowid range, not the time index (which would sort the whole period each batch).
    const rows = await this.query(
      `${SELECT} WHERE id > ? AND id <= ? AND namespace = ? AND time >= ? AND time < ? ORDER BY id ASC LIMIT ?`,
      [start, Number(range.high), this.namespace, range.from.toISOString(), range.to.toISOString(), limit],
    );
    return rows.map(fromRow);
  }
}

// --- Redis ----------------------------------------------------------------------------------------

/**
 * Appends entries to the stream with ids from their own time (`<ms>-*`), so that the id order is
 * the time order and a period is a range of ids. An entry whose clock is behind the stream's newest
 * entry takes that entry's millisecond (its `time` field stays its own): ids never go backwards.
 * ARGV: for each entry, its milliseconds, its number of field-value pairs, then the pairs.
 */
const APPEND_SCRIPT = `
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local last = '0'
if #top > 0 then last = string.match(top[1][1], '^(%d+)') end
local i = 1
while i <= #ARGV do
  local ms = ARGV[i]
  local n = tonumber(ARGV[i + 1])
  if tonumber(ms) < tonumber(last) then ms = last end
  redis.call('XADD', KEYS[1], ms .. '-*', unpack(ARGV, i + 2, i + 1 + 2 * n))
  last = ms
  i = i + 2 + 2 * n
end
return 1
`;

const FIELDS: Array<keyof AuditEntry> = [
  'time',
  'user',
  'role',
  'action',
  'target',
  'pixMethod',
  'pixPath',
  'pixStatus',
  'maker',
  'checker',
  'outcome',
  'detail',
];

const fromStream = ({ id, message }: { id: string; message: Record<string, string> }): StoredAuditEntry => storedEntry(id, message);

/**
 * A Redis stream (`<namespace>:audit`) shared by every instance: each batch of appends is one script,
 * run atomically, so one instance's entries stay in order and none is lost between instances. Never
 * trimmed: what is written stays.
 */
export class RedisAuditBackend implements AuditBackend {
  constructor(
    private readonly client: RedisClientType,
    private readonly key: string,
  ) {}

  async write(entries: AuditEntry[]): Promise<void> {
    const args: string[] = [];
    for (const entry of entries) {
      const pairs = FIELDS.flatMap((f) => (entry[f] === undefined ? [] : [f, String(entry[f])]));
      args.push(String(Date.parse(entry.time)), String(pairs.length / 2), ...pairs);
    }
    await this.client.eval(APPEND_SCRIPT, { keys: [this.key], arguments: args });
  }

  isCursor(text: string): boolean {
    return /^\d{1,15}-\d{1,19}$/.test(text);
  }

  async newest(q: { since: Date; before?: string; limit: number }): Promise<StoredAuditEntry[]> {
    const end = q.before === undefined ? '+' : `(${q.before}`;
    const rows = await this.client.xRevRange(this.key, end, String(q.since.getTime()), { COUNT: q.limit });
    return rows.map(fromStream);
  }

  async newerThan(q: { since: Date; after: string; top?: string; limit: number }): Promise<StoredAuditEntry[]> {
    const rows = await this.client.xRange(this.key, `(${q.after}`, q.top ?? '+', { COUNT: q.limit });
    return rows.map(fromStream);
  }

  async bounds(from: Date, to: Date): Promise<{ low: string; high: string } | undefined> {
    // A bare millisecond is `<ms>-0` as a start and `<ms>-<last>` as an end: [from, to − 1 ms] is [from, to).
    const [start, end] = [String(from.getTime()), String(to.getTime() - 1)];
    const [first] = await this.client.xRange(this.key, start, end, { COUNT: 1 });
    const [last] = await this.client.xRevRange(this.key, end, start, { COUNT: 1 });
    return first && last ? { low: first.id, high: last.id } : undefined;
  }

  async batch(
    range: { from: Date; to: Date; low: string; high: string },
    after: string | undefined,
    limit: number,
  ): Promise<StoredAuditEntry[]> {
    const rows = await this.client.xRange(this.key, after === undefined ? range.low : `(${after}`, range.high, { COUNT: limit });
    return rows.map(fromStream);
  }
}
