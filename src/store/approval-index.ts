import type { RedisClientType } from '@keyv/redis';

/**
 * The approvals with something left to do, each with the time (ms) it next needs attention: its
 * expiry or its next reminder while pending; at once when it is being run or was not settled. A tick
 * reads only the ids that are due (a sorted set on Redis, an indexed table on sqlite), never a scan
 * of every key.
 */
export interface ApprovalIndex {
  /** Adds the id, or moves it to its new due time. */
  put(id: string, dueMs: number): Promise<void>;
  remove(id: string): Promise<void>;
  /** The ids due at `nowMs`, earliest first, at most `limit`. */
  due(nowMs: number, limit: number): Promise<string[]>;
  /** Every id listed, earliest due first, at most `limit`. */
  all(limit: number): Promise<string[]>;
  /** How many are listed (the `pixops_approvals_pending` gauge). */
  count(): Promise<number>;
}

/** A sorted set `<namespace>:approvals:due` (score: the due time), shared by every instance. */
export class RedisApprovalIndex implements ApprovalIndex {
  constructor(
    private readonly client: RedisClientType,
    private readonly key: string,
  ) {}

  async put(id: string, dueMs: number): Promise<void> {
    await this.client.zAdd(this.key, { score: dueMs, value: id });
  }

  async remove(id: string): Promise<void> {
    await this.client.zRem(this.key, id);
  }

  async due(nowMs: number, limit: number): Promise<string[]> {
    return this.client.zRange(this.key, '-inf', nowMs, { BY: 'SCORE', LIMIT: { offset: 0, count: limit } });
  }

  async all(limit: number): Promise<string[]> {
    return this.client.zRange(this.key, 0, limit - 1);
  }

  async count(): Promise<number> {
    return this.client.zCard(this.key);
  }
}

type Query = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

const TABLE = 'approvals_due';

/** A table of the sqlite file: `(namespace, id)` keyed, indexed by due time. */
export class SqliteApprovalIndex implements ApprovalIndex {
  private schema: Promise<void> | undefined;

  constructor(
    private readonly query: Query,
    private readonly namespace: string,
  ) {}

  /** The table, made at first use, not at start (each statement is a commit); a failure is tried again next time. */
  private get ready(): Promise<void> {
    this.schema ??= (async () => {
      await this.query(
        `CREATE TABLE IF NOT EXISTS ${TABLE} (namespace TEXT NOT NULL, id TEXT NOT NULL, due INTEGER NOT NULL, PRIMARY KEY (namespace, id))`,
      );
      await this.query(`CREATE INDEX IF NOT EXISTS ${TABLE}_due ON ${TABLE} (namespace, due)`);
    })().catch((err: unknown) => {
      this.schema = undefined;
      throw err;
    });
    return this.schema;
  }

  async put(id: string, dueMs: number): Promise<void> {
    await this.ready;
    await this.query(
      `INSERT INTO ${TABLE} (namespace, id, due) VALUES (?, ?, ?) ON CONFLICT (namespace, id) DO UPDATE SET due = excluded.due`,
      [this.namespace, id, dueMs],
    );
  }

  async remove(id: string): Promise<void> {
    await this.ready;
    await this.query(`DELETE FROM ${TABLE} WHERE namespace = ? AND id = ?`, [this.namespace, id]);
  }

  async due(nowMs: number, limit: number): Promise<string[]> {
    await this.ready;
    const rows = await this.query(`SELECT id FROM ${TABLE} WHERE namespace = ? AND due <= ? ORDER BY due LIMIT ?`, [
      this.namespace,
      nowMs,
      limit,
    ]);
    return rows.map((r) => String(r.id));
  }

  async all(limit: number): Promise<string[]> {
    await this.ready;
    const rows = await this.query(`SELECT id FROM ${TABLE} WHERE namespace = ? ORDER BY due LIMIT ?`, [this.namespace, limit]);
    return rows.map((r) => String(r.id));
  }

  async count(): Promise<number> {
    await this.ready;
    const rows = await this.query(`SELECT COUNT(*) AS n FROM ${TABLE} WHERE namespace = ?`, [this.namespace]);
    return Number(rows[0]?.n ?? 0);
  }
}
