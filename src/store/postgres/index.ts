import type { PoolConfig } from 'pg';
import { withDeadline } from '../../runtime/deadline';
import type { Backend } from '../backend';
import { StoreRefusedError, StoreUnavailableError } from '../errors';
import type { Guard } from '../guard';
import type { ConnectionEvents } from '../redis/client';
import { PostgresAccountApps } from './account-apps';
import { PostgresApprovals } from './approvals';
import { PostgresAuditBackend } from './audit-trail';
import { PostgresClaims } from './claims';
import { Db, isConnectionError, poolConfig, schemaOf } from './db';
import { PostgresFilingIntents } from './filing-intents';
import { postgresIdentity } from './inspect';
import { loadMigrations, migrate } from './migrate';
import { PostgresPixEvents } from './pix-events';
import { PostgresRateWindow } from './rate-window';
import { PostgresRecords } from './records';
import { PostgresTrackedRequests } from './tracked-requests';

/** Connections per instance at most (STORE_POOL_MAX). */
const DEFAULT_POOL_MAX = 10;
/** Time limit of one query, of a connection, and of a wait for a place in the pool (STORE_TIMEOUT_MS). */
const DEFAULT_TIMEOUT_MS = 2_000;
/** How long opening waits for an unreachable database before going on without it (it keeps trying). */
const START_WAIT_MS = 3_000;
/** How often the migrations are tried again while the database could not be reached at start. */
const RETRY_MS = 1_000;

export interface PostgresBackendOptions {
  url: string;
  namespace: string;
  holder: string;
  poolMax?: number;
  timeoutMs?: number;
  events?: ConnectionEvents;
  /** How long opening waits for an unreachable database before going on without it (default 3 s). */
  connectWaitMs?: number;
  /** The store's guard, for the Pix budget's window (handed to the budget, not kept behind the store). */
  guard: Guard;
  /** Called when migrations done in the background (the database was down at start) refuse the schema. */
  onRefused?(err: Error): void;
  /** A store opened as it is (a copy's source): nothing migrated, every session read-only. */
  existing?: boolean;
}

/**
 * Several instances on one PostgreSQL database, every table in the schema named by the namespace
 * (`-` read as `_`), made and brought up to date by the migrations kept in migrations/. What must be
 * exact across instances is the database's own: row locks and `INSERT … ON CONFLICT` for claims and
 * first-wins, one row or one statement for what belongs together, its clock for expiries and the Pix
 * budget's window.
 *
 * A database that cannot be reached at start does not stop the app (as with Redis): every operation
 * fails with StoreUnavailableError until the migrations have run, tried again every second. A schema
 * newer than this app is refused: at start, by throwing; found later, every operation fails with it.
 */
export async function openPostgresBackend(options: PostgresBackendOptions): Promise<Backend> {
  const { Pool, escapeIdentifier } = require('pg') as typeof import('pg');
  const schema = schemaOf(options.namespace);
  const s = escapeIdentifier(schema);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const config = poolConfig(options.url, {
    poolMax: options.poolMax ?? DEFAULT_POOL_MAX,
    timeoutMs,
    readOnly: options.existing === true,
  });
  const schemaState = options.existing ? { gate: () => undefined, stop: () => undefined } : await migrated(config, schema, options);
  const db = new Db(new Pool(config), options.events, schemaState.gate);
  const { query } = db;
  return {
    kind: 'postgres',
    shared: true,
    timeoutMs,
    claims: new PostgresClaims(query, s, options.holder),
    accountApps: new PostgresAccountApps(query, s),
    trackedRequests: new PostgresTrackedRequests(query, s),
    filingIntents: new PostgresFilingIntents(query, s),
    approvals: new PostgresApprovals(query, s),
    audit: new PostgresAuditBackend(query, s, `pix-ops audit ${schema}`),
    pixEvents: new PostgresPixEvents(query, s),
    records: new PostgresRecords(query, s),
    rateWindow: new PostgresRateWindow(query, s, options.guard),
    identity: () => postgresIdentity(query, s, schema),
    ping: () => query('SELECT 1'),
    async close() {
      schemaState.stop();
      await db.close();
    },
  };
}

/**
 * Runs the migrations, waiting for them a short time at most: the gate that lets operations run once
 * they are done (and refuses them all once the schema is refused), and how to stop trying again.
 */
async function migrated(
  config: PoolConfig,
  schema: string,
  options: PostgresBackendOptions,
): Promise<{ gate: () => void; stop: () => void }> {
  const migrations = loadMigrations();
  const schemaState: { now: 'migrating' | 'ready' | Error } = { now: 'migrating' };
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const attempt = async () => {
    await migrate(config, schema, migrations);
    schemaState.now = 'ready';
  };
  const first = attempt();
  const outcome = await withDeadline(first, options.connectWaitMs ?? START_WAIT_MS).then(
    () => undefined,
    (err: unknown) => err,
  );
  // What is not the database being out of reach is for someone to fix: the app does not start.
  const unreachable = (err: unknown) => !(err instanceof StoreRefusedError) && isConnectionError(err);
  if (outcome !== undefined && !unreachable(outcome)) throw outcome;
  if (schemaState.now !== 'ready') {
    options.events?.onDown?.('the database is not reachable yet; the app keeps trying in the background');
    const again = (err: unknown) => {
      if (closed) return;
      if (!unreachable(err)) {
        const refused = err instanceof Error ? err : new StoreRefusedError(String(err));
        schemaState.now = refused;
        options.onRefused?.(refused);
        return;
      }
      retry = setTimeout(() => attempt().then(() => options.events?.onUp?.(), again), RETRY_MS);
      retry.unref();
    };
    // The first attempt may still be under way (its wait was cut short): its end decides.
    first.then(() => options.events?.onUp?.(), again);
  }
  return {
    // Nothing runs before the schema is there, or once it is refused.
    gate: () => {
      const { now } = schemaState;
      if (now === 'ready') return;
      throw now === 'migrating' ? new StoreUnavailableError('migrations', 'the database has not been reached since the app started') : now;
    },
    stop: () => {
      closed = true;
      clearTimeout(retry);
    },
  };
}
