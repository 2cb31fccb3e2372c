import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Keyv, { type KeyvStoreAdapter } from 'keyv';
import type { RateWindow } from '../pix/budget';
import { withDeadline } from '../runtime/deadline';
import { AccountAppsRepo } from './account-apps';
import { type ApprovalIndex, RedisApprovalIndex, SqliteApprovalIndex } from './approval-index';
import { ApprovalsRepo } from './approvals';
import { type AuditBackend, AuditTrail, RedisAuditBackend, SqliteAuditBackend } from './audit-trail';
import { type Claims, MemoryClaims, RedisClaims } from './claims';
import { StoreUnavailableError } from './errors';
import { FilingIntentsRepo } from './filing-intents';
import { type IdIndex, KeyvIdIndex, RedisIdIndex } from './id-index';
import { type PixEventsRepo, RedisPixEvents, SqlitePixEvents } from './pix-events';
import type { ConnectionEvents } from './redis';
import { SecretBox } from './secret-box';
import { checkSqliteFile } from './sqlite-file';
import { resolveStoreSecret, sqlitePathOf } from './store-secret';
import { TrackedRequestsRepo } from './tracked-requests';

export { isStoreUnavailable, StoreUnavailableError } from './errors';
export { StoreLocationError } from './sqlite-file';

export interface Store extends Claims {
  readonly kind: 'sqlite' | 'redis';
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
  /** The Pix budget's window shared by the instances (Redis); undefined: each process counts its own. */
  rateWindow: RateWindow | undefined;
  /** True when a round trip to the backing store works (never hangs: false after a short time). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface StoreOptions {
  url: string;
  secret?: string;
  /** Prefix of every key: lets several deployments (or test runs) share one Redis. */
  namespace?: string;
  /** Called with every secret the store reveals, so the logger can keep it out of the logs. */
  onSecret?: (value: string) => void;
  /** Redis connection lost / back (for the log). */
  events?: ConnectionEvents;
  /** Time limit of one Redis command (default 2 s). */
  commandTimeoutMs?: number;
  /** How long opening waits for an unreachable Redis before going on without it (default 3 s). */
  connectWaitMs?: number;
}

export const DEFAULT_NAMESPACE = 'pix-ops';

/**
 * The app's state: keyv over sqlite (one process) or Redis (several instances), plus claims (see
 * claims.ts). Every operation either succeeds or fails with StoreUnavailableError; none hangs and
 * none fails silently (keyv's default is to swallow adapter errors and answer "not found").
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  const sqliteFile = sqlitePathOf(options.url);
  // Each backend's modules are loaded only when it is the configured one (start-up time: @keyv/redis
  // alone takes ~150 ms to load). `require`, not `import()`: this is CommonJS, and jest runs it so.
  const KeyvSqlite = sqliteFile === undefined ? undefined : (require('@keyv/sqlite') as typeof import('@keyv/sqlite')).default;
  if (KeyvSqlite && sqliteFile !== undefined) await checkSqliteFile(KeyvSqlite, sqliteFile);
  const box = new SecretBox(resolveStoreSecret(options));
  const namespace = options.namespace ?? DEFAULT_NAMESPACE;
  const holder = `${process.pid}-${randomBytes(6).toString('hex')}`;
  // Redis: a time limit on every operation. node-redis's own command timeout only covers a command
  // waiting to be written; one already sent to a server that hangs would wait for ever.
  const state: GuardState = { closed: false, timeoutMs: undefined };
  const guard = <T>(operation: string, run: () => Promise<T>) => guarded(state, operation, run);

  let keyv: Keyv;
  let pollSet: Keyv;
  let intents: Keyv;
  let approvalSet: Keyv;
  let approvalIndex: ApprovalIndex;
  let claims: Claims;
  let rateWindow: RateWindow | undefined;
  let intentIndex: IdIndex;
  let auditBackend: AuditBackend;
  let pixEvents: PixEventsRepo;
  let ping: () => Promise<unknown>;
  let closeBackend: () => Promise<void>;
  if (KeyvSqlite && sqliteFile !== undefined) {
    const adapter = () => new KeyvSqlite({ uri: `sqlite://${sqliteFile}`, busyTimeout: 5_000, iterationLimit: 1_000 }) as KeyvStoreAdapter;
    const mainAdapter = adapter();
    keyv = openKeyv(mainAdapter, namespace, state);
    pollSet = openKeyv(adapter(), `${namespace}-poll`, state);
    intents = openKeyv(adapter(), `${namespace}-intents`, state);
    approvalSet = openKeyv(adapter(), `${namespace}-approvals`, state);
    intentIndex = new KeyvIdIndex(keyv, 'intents-index');
    claims = new MemoryClaims(`${path.resolve(sqliteFile)}\n${namespace}`, holder);
    const indexAdapter = new KeyvSqlite({ uri: `sqlite://${sqliteFile}`, busyTimeout: 5_000 });
    approvalIndex = new SqliteApprovalIndex(
      (sql, params) => indexAdapter.query(sql, params) as Promise<Array<Record<string, unknown>>>,
      namespace,
    );
    // A connection of its own: appends never wait behind the app's reads and writes.
    const auditAdapter = new KeyvSqlite({ uri: `sqlite://${sqliteFile}`, busyTimeout: 5_000 });
    auditBackend = new SqliteAuditBackend(
      (sql, params) => auditAdapter.query(sql, params) as Promise<Array<Record<string, unknown>>>,
      namespace,
    );
    // The main connection: a second one would wait on the file's lock (busy-timeout sleeps) whenever
    // the other writes, and the receiver's answer waits on this insert.
    pixEvents = new SqlitePixEvents(
      (sql, params) => (mainAdapter as InstanceType<typeof KeyvSqlite>).query(sql, params) as Promise<Array<Record<string, unknown>>>,
      namespace,
    );
    ping = () => keyv.get('__ping__');
    closeBackend = async () => {
      await Promise.all([
        keyv.disconnect(),
        pollSet.disconnect(),
        intents.disconnect(),
        approvalSet.disconnect(),
        indexAdapter.disconnect(),
        auditAdapter.disconnect(),
      ]);
    };
  } else {
    const events: ConnectionEvents = {
      onDown: (reason) => !state.closed && options.events?.onDown?.(reason),
      onUp: () => !state.closed && options.events?.onUp?.(),
    };
    const { closeRedis, connectRedis, createRedisClient, redisAdapter, REDIS_COMMAND_TIMEOUT_MS } =
      require('./redis') as typeof import('./redis');
    state.timeoutMs = options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
    const client = createRedisClient(options.url, { commandTimeoutMs: options.commandTimeoutMs, events });
    await connectRedis(client, events, options.connectWaitMs);
    // One connection for everything: the keyv namespaces and the claims.
    keyv = openKeyv(redisAdapter(client), namespace, state);
    pollSet = openKeyv(redisAdapter(client), `${namespace}-poll`, state);
    intents = openKeyv(redisAdapter(client), `${namespace}-intents`, state);
    approvalSet = openKeyv(redisAdapter(client), `${namespace}-approvals`, state);
    claims = new RedisClaims(client, `${namespace}:claim:`, holder);
    approvalIndex = new RedisApprovalIndex(client, `${namespace}:approvals:due`);
    const { RedisRateWindow } = require('./rate-window') as typeof import('./rate-window');
    intentIndex = new RedisIdIndex(client, `${namespace}:intents-index`, guard);
    rateWindow = new RedisRateWindow(client, `${namespace}:pix-budget`, holder, guard);
    auditBackend = new RedisAuditBackend(client, `${namespace}:audit`);
    pixEvents = new RedisPixEvents(client, namespace);
    ping = () => client.ping();
    closeBackend = () => closeRedis(client);
  }

  const audit = new AuditTrail(auditBackend, guard);
  return {
    kind: sqliteFile !== undefined ? 'sqlite' : 'redis',
    holder,
    accountApps: new AccountAppsRepo(keyv, box, options.onSecret),
    trackedRequests: new TrackedRequestsRepo(keyv, pollSet),
    filingIntents: new FilingIntentsRepo(intents, intentIndex),
    approvals: new ApprovalsRepo(keyv, guardedRepo('approvals index', approvalIndex, guard), box, approvalSet),
    audit,
    pixEvents: guardedRepo('pixEvents', pixEvents, guard),
    rateWindow,
    claim: (key, ttlMs) => guard('claim', () => claims.claim(key, ttlMs)),
    renew: (key, ttlMs) => guard('renew', () => claims.renew(key, ttlMs)),
    release: (key) => guard('release', () => claims.release(key)),
    async ping() {
      try {
        await guard('ping', ping);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (state.closed) return;
      // What was recorded is written before the store goes.
      await audit.flush();
      state.closed = true;
      await closeBackend();
    },
  };
}

/** Every operation of a repository that works on the backend directly, guarded like keyv's. */
function guardedRepo<T extends object>(label: string, repo: T, guard: <R>(operation: string, run: () => Promise<R>) => Promise<R>): T {
  return new Proxy(repo, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        guard(`${label}.${String(name)}`, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    },
  });
}

interface GuardState {
  closed: boolean;
  /** Time limit of one operation; none for sqlite (its own busy timeout bounds it). */
  timeoutMs: number | undefined;
}

async function guarded<T>(state: GuardState, operation: string, run: () => Promise<T>): Promise<T> {
  if (state.closed) throw new StoreUnavailableError(operation, new Error('the store is closed'));
  try {
    const work = run();
    return await (state.timeoutMs === undefined ? work : withDeadline(work, state.timeoutMs));
  } catch (err) {
    throw err instanceof StoreUnavailableError ? err : new StoreUnavailableError(operation, err);
  }
}

/**
 * A keyv whose failures are errors (StoreUnavailableError), never silent misses: the repositories
 * must not take "Redis is down" for "no such record".
 */
function openKeyv(adapter: ConstructorParameters<typeof Keyv>[0], namespace: string, state: GuardState): Keyv {
  const keyv = new Keyv({ store: adapter, namespace, throwOnErrors: true });
  keyv.on('error', () => {
    // Errors reach the caller through the rejected operation; this listener keeps them from
    // becoming unhandled 'error' events that would end the process.
  });
  const wrap = <F extends (...args: never[]) => Promise<unknown>>(operation: string, fn: F): F =>
    ((...args: Parameters<F>) => guarded(state, operation, () => fn(...args))) as F;
  keyv.get = wrap('get', keyv.get.bind(keyv));
  keyv.set = wrap('set', keyv.set.bind(keyv));
  keyv.delete = wrap('delete', keyv.delete.bind(keyv));
  keyv.has = wrap('has', keyv.has.bind(keyv));
  const iterate = keyv.iterator?.bind(keyv);
  if (iterate) {
    // Each step of a listing is one guarded operation (a SCAN page on Redis).
    keyv.iterator = async function* (ns?: string) {
      const steps = iterate(ns)[Symbol.asyncIterator]();
      for (;;) {
        const step = await guarded(state, 'list', () => steps.next());
        if (step.done) return;
        yield step.value;
      }
    } as typeof keyv.iterator;
  }
  return keyv;
}
