import { randomBytes } from 'node:crypto';
import type { RateWindow } from '../pix/budget';
import { withDeadline } from '../runtime/deadline';
import { AccountAppsRepo } from './account-apps';
import { ApprovalsRepo } from './approvals';
import { AuditTrail } from './audit-trail';
import type { Backend, Inspection, StoreKind } from './backend';
import type { Claims } from './claims';
import { NoStoreError, StoreVersionError } from './errors';
import { FilingIntentsRepo } from './filing-intents';
import { type GuardState, guardAll, guardOf } from './guard';
import { storeNamespace } from './namespace';
import type { PixEventsRepo } from './pix-events';
import { RecordsRepo } from './records';
import type { ConnectionEvents } from './redis/client';
import { SecretBox } from './secret-box';
import { isPostgresUrl, resolveStoreSecret, sqlitePathOf } from './store-secret';
import { TrackedRequestsRepo } from './tracked-requests';

export type { Backend, Inspection, StoreKind } from './backend';
export {
  isStoreUnavailable,
  NoStoreError,
  StoreLocationError,
  StoreRefusedError,
  StoreUnavailableError,
  StoreVersionError,
} from './errors';
export type { StoreIdentity } from './identity';

export interface Store extends Claims {
  readonly kind: StoreKind;
  /** Several instances share its state (Redis, Postgres): its claims and the Pix budget's window are theirs together. */
  readonly shared: boolean;
  /** Who this store's claims belong to (one per open store: an app instance). */
  readonly holder: string;
  accountApps: AccountAppsRepo;
  trackedRequests: TrackedRequestsRepo;
  filingIntents: FilingIntentsRepo;
  approvals: ApprovalsRepo;
  /** Who did what: append-only (see audit-trail.ts). */
  audit: AuditTrail;
  /** The Pix events outbox and the disputes seen (pix-events.ts). */
  pixEvents: PixEventsRepo;
  /** Small durable keyed records: first-wins, compare-and-set (records.ts). */
  records: RecordsRepo;
  /** The Pix budget's window shared by the instances (Redis, Postgres); undefined: each process counts its own. */
  rateWindow: RateWindow | undefined;
  /** True when a round trip to the backing store works (never hangs: false after a short time). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface StoreOptions {
  url: string;
  secret?: string;
  /** Prefix of every key: lets several deployments (or test runs) share one Redis; on Postgres, the schema (`-` read as `_`). */
  namespace?: string;
  /** Called with every secret the store reveals, so the logger can keep it out of the logs. */
  onSecret?: (value: string) => void;
  /** Redis or Postgres connection lost / back (for the log). */
  events?: ConnectionEvents;
  /** Time limit of one Redis command or Postgres query (default 2 s). */
  commandTimeoutMs?: number;
  /** How long opening waits for an unreachable Redis or Postgres before going on without it (default 3 s). */
  connectWaitMs?: number;
  /** Connections to Postgres at most (default 10). */
  poolMax?: number;
  /** What the operators should know about the store, though it is used (a Redis that keeps nothing on disk). */
  onWarning?: (message: string) => void;
}

/** How a backend is opened (openBackend): the store's options, and whether it is opened as it is. */
export interface BackendOptions extends StoreOptions {
  /**
   * A store that must be there, opened as it is (a copy's source): nothing is created, upgraded or
   * written, and every session is read-only. A place that holds no store is refused (NoStoreError),
   * and so is one whose format is not this app's (StoreVersionError).
   */
  existing?: boolean;
}

export const DEFAULT_NAMESPACE = 'pix-ops';
/** How long an inspection waits for Redis or Postgres to answer. */
const INSPECT_WAIT_MS = 3_000;

/** Which backend a STORE_URL names. */
export function storeKindOf(url: string): StoreKind {
  return sqlitePathOf(url) !== undefined ? 'sqlite' : isPostgresUrl(url) ? 'postgres' : 'redis';
}

/**
 * What the store at `url` holds under `namespace`, asked of the store and read without creating or
 * changing anything there (a sqlite file that is not there stays so): its format's version and its
 * identity, or none.
 */
export async function inspectStore(options: Pick<StoreOptions, 'url' | 'namespace' | 'connectWaitMs'>): Promise<Inspection> {
  const namespace = storeNamespace(options.namespace ?? DEFAULT_NAMESPACE);
  const sqliteFile = sqlitePathOf(options.url);
  if (sqliteFile !== undefined) {
    const { inspectSqliteFile } = require('./sqlite/index') as typeof import('./sqlite/index');
    return inspectSqliteFile(sqliteFile, namespace);
  }
  if (isPostgresUrl(options.url)) {
    const { inspectPostgres } = require('./postgres/inspect') as typeof import('./postgres/inspect');
    const { poolConfig, schemaOf } = require('./postgres/db') as typeof import('./postgres/db');
    const { loadMigrations } = require('./postgres/migrate') as typeof import('./postgres/migrate');
    const config = poolConfig(options.url, { poolMax: 1, timeoutMs: options.connectWaitMs ?? INSPECT_WAIT_MS });
    return inspectPostgres(config, schemaOf(namespace), loadMigrations().length);
  }
  const { createRedisClient, closeRedis } = require('./redis/client') as typeof import('./redis/client');
  const { inspectRedis } = require('./redis/format') as typeof import('./redis/format');
  const client = createRedisClient(options.url);
  try {
    await withDeadline(client.connect(), options.connectWaitMs ?? INSPECT_WAIT_MS);
    return await inspectRedis(client, namespace);
  } finally {
    await closeRedis(client);
  }
}

/** A store there, at this app's version: else refused (NoStoreError, StoreVersionError). */
function refuseUnlessCurrent(found: Inspection): void {
  if (found.identity === undefined) throw new NoStoreError(`${found.where} holds no store under this namespace`);
  if (found.version !== found.known) throw new StoreVersionError(found.where, found.version, found.known);
}

/** A backend opened and guarded, with the secret box its repositories seal with and how to close it. */
export interface OpenBackend {
  backend: Backend;
  box: SecretBox;
  holder: string;
  close(): Promise<void>;
}

/**
 * Opens the configured backend (sqlite for one process, Postgres or Redis for several instances) with every part
 * guarded: each operation either succeeds or fails with StoreUnavailableError, none hangs and none
 * fails silently. What `openStore` builds on; the contract tests reach a backend's parts through it.
 */
export async function openBackend(options: BackendOptions): Promise<OpenBackend> {
  const sqliteFile = sqlitePathOf(options.url);
  const namespace = storeNamespace(options.namespace ?? DEFAULT_NAMESPACE);
  const existing = options.existing === true;
  if (existing) refuseUnlessCurrent(await inspectStore(options));
  const holder = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const state: GuardState = { closed: false, timeoutMs: undefined };
  const guard = guardOf(state);
  // Each backend's modules are loaded only when it is the configured one (start-up time: @keyv/redis
  // alone takes ~150 ms to load). `require`, not `import()`: this is CommonJS, and jest runs it so. The
  // folders' index files by name: a `redis.js` left in dist/ by an earlier build would answer `./redis`.
  let backend: Backend;
  let box: SecretBox;
  if (sqliteFile !== undefined) {
    const sqlite = require('./sqlite/index') as typeof import('./sqlite/index');
    if (!existing) await sqlite.prepareFile(sqliteFile, namespace);
    box = new SecretBox(resolveStoreSecret(options, { create: !existing }));
    backend = await sqlite.openSqliteBackend({ file: sqliteFile, namespace, holder, existing });
  } else {
    box = new SecretBox(resolveStoreSecret(options));
    const events: ConnectionEvents = {
      onDown: (reason) => !state.closed && options.events?.onDown?.(reason),
      onUp: () => !state.closed && options.events?.onUp?.(),
    };
    // Found unusable after start (it could not be reached then): nothing runs on it from now on.
    const onRefused = (err: Error) => {
      state.refused = err;
      events.onDown?.(err.message);
    };
    const shared = {
      url: options.url,
      namespace,
      holder,
      events,
      connectWaitMs: options.connectWaitMs,
      guard,
      onRefused,
      existing,
    };
    if (isPostgresUrl(options.url)) {
      const { openPostgresBackend } = require('./postgres/index') as typeof import('./postgres/index');
      backend = await openPostgresBackend({ ...shared, poolMax: options.poolMax, timeoutMs: options.commandTimeoutMs });
    } else {
      const { openRedisBackend } = require('./redis/index') as typeof import('./redis/index');
      backend = await openRedisBackend({ ...shared, commandTimeoutMs: options.commandTimeoutMs, onWarning: options.onWarning });
    }
  }
  state.timeoutMs = backend.timeoutMs;
  const guarded: Backend = {
    kind: backend.kind,
    shared: backend.shared,
    timeoutMs: backend.timeoutMs,
    claims: guardAll('claims', backend.claims, guard),
    accountApps: guardAll('accountApps', backend.accountApps, guard),
    trackedRequests: guardAll('trackedRequests', backend.trackedRequests, guard),
    filingIntents: guardAll('filingIntents', backend.filingIntents, guard),
    approvals: guardAll('approvals', backend.approvals, guard),
    audit: guardAll('audit', backend.audit, guard),
    pixEvents: guardAll('pixEvents', backend.pixEvents, guard),
    records: guardAll('records', backend.records, guard),
    // Guarded by itself (it is given the guard).
    rateWindow: backend.rateWindow,
    identity: () => guard('identity', () => backend.identity()),
    ping: () => guard('ping', () => backend.ping()),
    close: () => backend.close(),
  };
  return {
    backend: guarded,
    box,
    holder,
    async close() {
      if (state.closed) return;
      state.closed = true;
      await backend.close();
    },
  };
}

/** The app's state: the repositories over the configured backend (see openBackend). */
export async function openStore(options: StoreOptions): Promise<Store> {
  const opened = await openBackend(options);
  const { backend, box } = opened;
  const audit = new AuditTrail(backend.audit);
  return {
    kind: backend.kind,
    shared: backend.shared,
    holder: opened.holder,
    accountApps: new AccountAppsRepo(backend.accountApps, box, options.onSecret),
    trackedRequests: new TrackedRequestsRepo(backend.trackedRequests),
    filingIntents: new FilingIntentsRepo(backend.filingIntents),
    approvals: new ApprovalsRepo(backend.approvals, box),
    audit,
    pixEvents: backend.pixEvents,
    records: new RecordsRepo(backend.records),
    rateWindow: backend.rateWindow,
    claim: (key, ttlMs) => backend.claims.claim(key, ttlMs),
    renew: (key, ttlMs) => backend.claims.renew(key, ttlMs),
    release: (key) => backend.claims.release(key),
    async ping() {
      try {
        await backend.ping();
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      // What was recorded is written before the store goes.
      await audit.flush();
      await opened.close();
    },
  };
}
