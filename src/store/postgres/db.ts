import { DatabaseError, type Pool, type PoolConfig } from 'pg';
import type { ConnectionEvents } from '../redis/client';

/** One statement's rows. */
export type Row = Record<string, unknown>;
export type Query = (sql: string, params?: readonly unknown[]) => Promise<Row[]>;

/** STORE_NAMESPACE as the schema's name: `-` read as `_` (a dash would need quoting in every hand-written query). */
export const schemaOf = (namespace: string): string => namespace.replace(/-/g, '_');

/** How long a connection may sit idle in the pool before it is closed. */
const IDLE_MS = 30_000;

/**
 * The pool's settings. `sslmode` in the URL is read as libpq reads it (`require`: encrypted, the
 * certificate not checked; `verify-full`: checked), not as node-postgres reads it by default (every
 * mode but `disable` checking the certificate). Every query is bounded twice: by the server
 * (`statement_timeout`) and by the client (`query_timeout`, for a server that no longer answers), and
 * a connection, or a place in the full pool, is waited for as long at most.
 */
export function poolConfig(url: string, options: { poolMax: number; timeoutMs: number; readOnly?: boolean }): PoolConfig {
  const parsed = new URL(url);
  if (parsed.searchParams.has('sslmode') && !parsed.searchParams.has('uselibpqcompat')) parsed.searchParams.set('uselibpqcompat', 'true');
  return {
    connectionString: parsed.toString(),
    max: options.poolMax,
    connectionTimeoutMillis: options.timeoutMs,
    statement_timeout: options.timeoutMs,
    query_timeout: options.timeoutMs,
    // A transaction left open by a process that hangs holds its row locks no longer than this.
    idle_in_transaction_session_timeout: Math.max(10_000, 5 * options.timeoutMs),
    idleTimeoutMillis: IDLE_MS,
    keepAlive: true,
    application_name: 'pix-ops',
    // A store opened as it is (a copy's source): the server refuses any write of its sessions.
    ...(options.readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
  };
}

/**
 * Whether an error says the database could not be reached or the connection broke (as opposed to a
 * statement the database refused): no SQLSTATE at all (a socket error, a time limit of the client),
 * or a connection exception (class 08), an operator intervention (57P: shutdown, cannot connect now),
 * or a statement cancelled by its time limit (57014).
 */
export function isConnectionError(err: unknown): boolean {
  // Only the server's answers carry a SQLSTATE: a socket's EPIPE has five capitals too.
  if (!(err instanceof DatabaseError)) return true;
  const code = err.code;
  if (typeof code !== 'string' || !/^[0-9A-Z]{5}$/.test(code)) return true;
  return code.startsWith('08') || code.startsWith('57P') || code === '57014';
}

/**
 * The pool behind the Postgres store, with what the store needs on top: a statement on any
 * connection (each one statement, one transaction: what belongs together is written by one statement),
 * and the outage seen once (down on the first connection error,
 * up on the next success) for the log. The pool reconnects by itself: a broken connection is dropped
 * and the next statement opens a new one.
 */
export class Db {
  private up: boolean | undefined;

  constructor(
    readonly pool: Pool,
    private readonly events: ConnectionEvents = {},
    /** Throws when nothing may run yet (the schema not migrated) or any more (refused). */
    private readonly gate: () => void = () => undefined,
  ) {
    // An idle connection that breaks (the server restarted) is reported here; without a listener it
    // would end the process.
    pool.on('error', (err) => this.failed(err));
  }

  readonly query: Query = async (sql, params) => {
    this.gate();
    try {
      const result = await this.pool.query({ name: nameOf(sql), text: sql, values: params as unknown[] | undefined });
      this.worked();
      return result.rows as Row[];
    } catch (err) {
      this.failed(err);
      throw err;
    }
  };

  private worked(): void {
    if (this.up === false) this.events.onUp?.();
    this.up = true;
  }

  private failed(err: unknown): void {
    if (!isConnectionError(err) || this.up === false) return;
    this.up = false;
    this.events.onDown?.(err instanceof Error ? err.message || err.name : String(err));
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}

/**
 * Each statement's name, so that each connection prepares it once and then only binds and runs it
 * (the store's statements are a fixed set, the schema's name in them).
 */
const names = new Map<string, string>();
const nameOf = (sql: string) => {
  let name = names.get(sql);
  if (!name) {
    name = `s${names.size}`;
    names.set(sql, name);
  }
  return name;
};

/** Each of `ids`' value in `rows` (keyed by `idColumn`), in the order of `ids`: undefined where no row has it. */
export function inOrderOf(ids: string[], rows: Row[], idColumn: string, valueColumn: string): unknown[] {
  const byId = new Map(rows.map((r) => [String(r[idColumn]), r[valueColumn]]));
  return ids.map((id) => byId.get(id));
}

/** Rows read at a time by a listing of everything. */
const PAGE = 500;

/**
 * Every row of a listing, a page at a time (each page one step of a guarded listing), each page after
 * the last key of the one before. `sql` takes `$1` (the last key seen, null at first) and `$2` (the
 * page's size), and orders by `keyColumn`.
 */
export async function* pages(query: Query, sql: string, keyColumn: string): AsyncGenerator<Row> {
  for (let after: unknown = null; ; ) {
    const rows = await query(sql, [after, PAGE]);
    yield* rows;
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]![keyColumn];
  }
}
