import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { openStore, type Store, StoreRefusedError, StoreUnavailableError } from '../../src/store';
import { BrokenMigrationsError } from '../../src/store/errors';
import { schemaOf } from '../../src/store/postgres/db';
import { loadMigrations } from '../../src/store/postgres/migrate';
import { dropSchema, PG_URL, pgNamespace, pgQuery } from '../support/postgres';
import { postgresBackend } from '../support/store-backends';
import { TcpProxy } from '../support/tcp-proxy';
import { waitFor } from '../support/wait';
import { SECRET, storeContract } from './contract';
import { APP_ID } from './contract/account-apps';
import { auditEntry, minute } from './contract/audit-trail';

// Needs the PostgreSQL server on 127.0.0.1:5432 (present on every machine of this project, CI included).
storeContract(postgresBackend);

const tracked = (id: string) => ({
  limitRequestId: id,
  accountId: 'acc',
  requesterId: 'U1',
  channel: 'C1',
  rootTs: '1.1',
  requested: { pixDayLimit: 1 },
  documents: [],
  source: 'filed' as const,
});

describe('Postgres: what is particular to it', () => {
  let namespace: string;
  let schema: string;
  const stores: Store[] = [];
  const open = async (options: { url?: string; commandTimeoutMs?: number; poolMax?: number; connectWaitMs?: number } = {}) => {
    const store = await openStore({ url: PG_URL, secret: SECRET, namespace, poolMax: 4, ...options });
    stores.push(store);
    return store;
  };
  const tables = async () =>
    (await pgQuery<{ t: string }>('SELECT tablename AS t FROM pg_tables WHERE schemaname = $1 ORDER BY 1', [schema])).map((r) => r.t);
  const migrations = async () =>
    pgQuery<{ version: number; applied_at: Date }>(`SELECT version, applied_at FROM "${schema}".schema_migrations ORDER BY version`);

  beforeEach(() => {
    namespace = pgNamespace('pg');
    schema = schemaOf(namespace);
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    await dropSchema(namespace);
  });

  test('every table in the schema STORE_NAMESPACE names (`-` read as `_`), each migration a row with its time; no AppID in clear', async () => {
    expect(schema).toBe(namespace.replace(/-/g, '_'));
    const store = await open();
    await store.accountApps.save({ accountId: 'acc', appId: APP_ID, clientId: 'cl' });
    expect(await tables()).toEqual([
      'account_apps',
      'approvals',
      'audit_log',
      'claims',
      'filing_intents',
      'pix_budget',
      'pix_budget_admitted',
      'pix_disputes',
      'pix_events',
      'records',
      'schema_migrations',
      'sorted_index',
      'tracked_requests',
    ]);
    const applied = await migrations();
    expect(applied.map((m) => m.version)).toEqual(loadMigrations().map((m) => m.version));
    expect(applied[0]!.applied_at).toBeInstanceOf(Date);
    const [row] = await pgQuery<{ record: unknown }>(`SELECT record FROM "${schema}".account_apps`);
    expect(JSON.stringify(row!.record)).toContain('"clientId":"cl"');
    expect(JSON.stringify(row!.record)).not.toContain(APP_ID);
  });

  test('the audit trail is append-only in the database: UPDATE, DELETE and TRUNCATE refused even for the app’s own user, who owns the table', async () => {
    const role = `pixops_app_${randomBytes(4).toString('hex')}`;
    await pgQuery(`CREATE ROLE ${role} LOGIN`);
    await pgQuery(`GRANT CREATE ON DATABASE test TO ${role}`);
    const asApp = PG_URL.replace('postgres@', `${role}@`);
    try {
      const store = await open({ url: asApp });
      await store.audit.append(auditEntry(1, minute(1)));
      await store.audit.append(auditEntry(2, minute(2)));
      const [owner] = await pgQuery<{ owner: string }>(
        'SELECT tableowner AS owner FROM pg_tables WHERE schemaname = $1 AND tablename = $2',
        [schema, 'audit_log'],
      );
      expect(owner!.owner).toBe(role);
      for (const attack of [
        `UPDATE "${schema}".audit_log SET outcome = 'refused'`,
        `DELETE FROM "${schema}".audit_log WHERE id = 1`,
        `DELETE FROM "${schema}".audit_log WHERE false`,
        `TRUNCATE "${schema}".audit_log`,
      ]) {
        await expect(pgQuery(attack, [], asApp)).rejects.toThrow(/append-only/);
      }
      const rows = await pgQuery<{ user_id: string; outcome: string; time: Date }>(
        `SELECT user_id, outcome, time FROM "${schema}".audit_log ORDER BY id`,
      );
      expect(rows.map((r) => [r.user_id, r.outcome, r.time.toISOString()])).toEqual([
        ['U0USER0001', 'ok', minute(1)],
        ['U0USER0002', 'ok', minute(2)],
      ]);
    } finally {
      for (const s of stores.splice(0)) await s.close();
      await dropSchema(namespace);
      await pgQuery(`DROP OWNED BY ${role}`);
      await pgQuery(`DROP ROLE ${role}`);
    }
  });

  test('five instances starting at once on an empty database: the migrations applied once, all of them working', async () => {
    const opened = await Promise.all(Array.from({ length: 5 }, () => open({ poolMax: 2 })));
    expect((await migrations()).map((m) => m.version)).toEqual(loadMigrations().map((m) => m.version));
    await Promise.all(opened.map((s, i) => s.trackedRequests.track(tracked(`r${i}`))));
    expect((await opened[0]!.trackedRequests.openIds()).sort()).toEqual(['r0', 'r1', 'r2', 'r3', 'r4']);
  });

  test('a schema at a version newer than the app knows is refused, both versions named, and nothing is changed', async () => {
    await (await open()).trackedRequests.track(tracked('r1'));
    for (const s of stores.splice(0)) await s.close();
    const known = loadMigrations().length;
    await pgQuery(`INSERT INTO "${schema}".schema_migrations (version, name) VALUES ($1, 'from_a_newer_app')`, [known + 41]);
    const before = { tables: await tables(), migrations: await migrations() };
    const refused = open().then(
      () => undefined,
      (err: unknown) => err,
    );
    const err = await refused;
    expect(err).toBeInstanceOf(StoreRefusedError);
    expect(String((err as Error).message)).toContain(`version ${known + 41}`);
    expect(String((err as Error).message)).toContain(`version ${known})`);
    expect({ tables: await tables(), migrations: await migrations() }).toEqual(before);
  });

  test('no query waits longer than the time limit: a row held by another session fails the claim within it', async () => {
    const store = await open({ commandTimeoutMs: 300 });
    expect(await store.claim('held', 60_000)).toBe(true);
    const other = new Client({ connectionString: PG_URL });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT * FROM "${schema}".claims WHERE key = 'held' FOR UPDATE`);
      const started = Date.now();
      await expect(store.claim('held', 60_000)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(Date.now() - started).toBeLessThan(1_500);
      await other.query('ROLLBACK');
      expect(await store.claim('free', 60_000)).toBe(true);
    } finally {
      await other.end();
    }
  });

  test('sslmode is honoured as libpq reads it: require fails on a server without TLS; disable connects', async () => {
    const plain = await open({ url: `${PG_URL}?sslmode=disable` });
    expect(await plain.ping()).toBe(true);
    const tls = await open({ url: `${PG_URL}?sslmode=require`, connectWaitMs: 300 });
    expect(await tls.ping()).toBe(false);
  });

  describe('through a TCP proxy (the database itself never touched)', () => {
    let proxy: TcpProxy;
    beforeEach(async () => {
      proxy = await TcpProxy.start({ host: '127.0.0.1', port: 5432 });
    });
    afterEach(async () => {
      for (const s of stores.splice(0)) await s.close();
      await proxy.close();
    });
    const viaProxy = () => `postgres://postgres@127.0.0.1:${proxy.port}/test`;

    test('cut: every operation fails at once with StoreUnavailableError; restored: the pool reconnects by itself, data intact', async () => {
      const events: string[] = [];
      const store = await openStore({
        url: viaProxy(),
        secret: SECRET,
        namespace,
        events: { onDown: () => events.push('down'), onUp: () => events.push('up') },
      });
      stores.push(store);
      await store.trackedRequests.track(tracked('r1'));
      proxy.cut();
      await expect(store.trackedRequests.get('r1')).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.trackedRequests.openIds()).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.claim('x', 1_000)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.pixEvents.add({ hash: 'h', kind: 'X', receivedAt: new Date().toISOString() })).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
      await expect(store.audit.append(auditEntry(1, minute(1)))).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(await store.ping()).toBe(false);
      expect(events).toEqual(['down']);
      proxy.restore();
      await waitFor('the store to reconnect', () => store.ping());
      expect(events).toEqual(['down', 'up']);
      expect(await store.trackedRequests.openIds()).toEqual(['r1']);
    });

    test('frozen (nothing answers): operations fail after the time limit instead of hanging; the pool holds at most STORE_POOL_MAX connections', async () => {
      const store = await openStore({ url: viaProxy(), secret: SECRET, namespace, commandTimeoutMs: 300, poolMax: 3 });
      stores.push(store);
      await store.trackedRequests.track(tracked('h1'));
      await Promise.all(Array.from({ length: 20 }, (_, i) => store.records.set('mark', `k${i}`, i)));
      expect(proxy.open).toBeLessThanOrEqual(3);
      proxy.freeze();
      const started = Date.now();
      await expect(store.trackedRequests.get('h1')).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.records.list('mark', 10)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(Date.now() - started).toBeLessThan(2_000);
      proxy.thaw();
      await waitFor('the store to answer again', () => store.ping());
      expect((await store.trackedRequests.get('h1'))?.limitRequestId).toBe('h1');
    });

    test('opened while the database cannot be reached: it starts anyway, migrates, and works once it can', async () => {
      proxy.cut();
      const store = await openStore({ url: viaProxy(), secret: SECRET, namespace, connectWaitMs: 300 });
      stores.push(store);
      await expect(store.trackedRequests.get('x')).rejects.toBeInstanceOf(StoreUnavailableError);
      proxy.restore();
      await waitFor('the store to migrate and answer', () => store.ping(), 10_000);
      expect(await store.trackedRequests.get('x')).toBeUndefined();
      expect((await migrations()).length).toBe(loadMigrations().length);
    });
  });
});

describe('the migrations shipped with the app', () => {
  test('numbered 1, 2, 3 without a gap: a set that skips or repeats a number, or none, is a broken install', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-migrations-'));
    try {
      expect(() => loadMigrations(dir)).toThrow(BrokenMigrationsError);
      writeFileSync(path.join(dir, '001_initial.sql'), 'SELECT 1;');
      writeFileSync(path.join(dir, '003_later.sql'), 'SELECT 3;');
      expect(() => loadMigrations(dir)).toThrow(/skip or repeat a number at later \(3\)/);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
});
