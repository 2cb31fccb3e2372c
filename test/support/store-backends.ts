import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type RedisClientType } from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import { Pool } from 'pg';
import type { Store } from '../../src/store';
import { poolConfig, schemaOf } from '../../src/store/postgres/db';
import { loadMigrations, migrate } from '../../src/store/postgres/migrate';
import { PostgresSortedIndex } from '../../src/store/postgres/sorted-index';
import { RedisSortedIndex } from '../../src/store/redis/sorted-index';
import type { SecretBox } from '../../src/store/secret-box';
import { sortedIndexTables } from '../../src/store/sqlite/format';
import { queryOf } from '../../src/store/sqlite/query';
import { SqliteSortedIndex } from '../../src/store/sqlite/sorted-index';
import { type BackendUnderTest, spaceOf } from '../store/contract';
import { dropSchema, PG_URL, pgNamespace } from './postgres';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from './redis-server';

/** The namespace every sqlite space uses (each space is a file of its own). */
export const SQLITE_NAMESPACE = 'pix-ops';

/** sqlite: each space a file in a temporary folder of its own. */
export const sqliteBackend: BackendUnderTest = {
  name: 'sqlite',
  sharesRateWindow: false,
  async space() {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-store-'));
    const url = `sqlite://${path.join(dir, 'pix-ops.sqlite')}`;
    return spaceOf(
      { url },
      async (name) => {
        const connection = new KeyvSqlite({ uri: url, busyTimeout: 5_000 });
        for (const sql of sortedIndexTables(name)) await connection.query(sql);
        return { index: new SqliteSortedIndex(queryOf(connection), SQLITE_NAMESPACE, name), close: () => connection.disconnect() };
      },
      async () => rmSync(dir, { recursive: true, force: true }),
    );
  },
};

/** Redis (the shared server on 127.0.0.1:6379): each space a key prefix of its own, its keys deleted after. */
export const redisBackend: BackendUnderTest = {
  name: 'Redis',
  sharesRateWindow: true,
  async space() {
    // A random tail: two spaces made in the same millisecond stay apart (and neither's prefix is the other's).
    const namespace = `${testNamespace('contract')}-${randomBytes(4).toString('hex')}`;
    return spaceOf(
      { url: SHARED_REDIS_URL, namespace },
      async (name) => {
        const client = createClient({ url: SHARED_REDIS_URL }) as unknown as RedisClientType;
        await client.connect();
        return { index: new RedisSortedIndex(client, `${namespace}:${name}`), close: async () => void (await client.close()) };
      },
      async () => void (await deleteKeys(SHARED_REDIS_URL, namespace)),
    );
  },
};

/** Postgres (the shared server on 127.0.0.1:5432, database test): each space a schema of its own, dropped after. */
export const postgresBackend: BackendUnderTest = {
  name: 'Postgres',
  sharesRateWindow: true,
  async space() {
    const namespace = pgNamespace('contract');
    const schema = schemaOf(namespace);
    return spaceOf(
      { url: PG_URL, namespace, poolMax: 4 },
      async (name) => {
        const config = poolConfig(PG_URL, { poolMax: 2, timeoutMs: 2_000 });
        await migrate(config, schema, loadMigrations());
        const pool = new Pool(config);
        const query = async (sql: string, params?: readonly unknown[]) => (await pool.query(sql, params as unknown[])).rows;
        return { index: new PostgresSortedIndex(query, `"${schema}"`, name), close: () => pool.end() };
      },
      () => dropSchema(namespace),
    );
  },
};

/**
 * Records as the versions before the backends had folders of their own wrote them, through keyv:
 * `[namespace suffix, key, value]` (suffix '' is the main namespace). A backend's test writes them
 * with keyv on its own adapter, opens a store on them and reads them back (deployments upgrade in place).
 */
export function formerRecords(box: SecretBox, createdAt: string): Array<[suffix: string, key: string, value: unknown]> {
  const payload = { action: 'key-add', accountId: '6840aeca23c0d1fe48c856a3', pixKey: 'old@example.com', type: 'EMAIL' };
  const approval = (id: string) => ({
    id,
    action: 'key-add',
    makerId: 'U0MAKER01',
    makerLocale: 'en',
    channel: 'C0CHANNEL',
    rootTs: '1700000000.000100',
    state: 'pending',
    createdAt,
    expiresAt: new Date(Date.parse(createdAt) + 3_600_000).toISOString(),
    sealedPayload: box.seal(JSON.stringify(payload), `approval:${id}`),
    updatedAt: createdAt,
  });
  return [
    [
      '',
      'tracked:old-r1',
      {
        limitRequestId: 'old-r1',
        accountId: 'acc1',
        requesterId: 'U1',
        channel: 'C1',
        rootTs: '1.1',
        requested: { pixDayLimit: 1 },
        documents: [],
        source: 'filed',
        createdAt,
        closed: false,
      },
    ],
    ['-poll', 'old-r1', true],
    [
      '-intents',
      'old-i1',
      {
        intentId: 'old-i1',
        requesterId: 'U1',
        channel: 'C1',
        accountId: 'acc1',
        current: {},
        requested: { pixDayLimit: 2 },
        documents: [],
        createdAt,
      },
    ],
    ['', 'approval:old-a1', approval('old-a1')],
    ['', 'approval:old-a2', approval('old-a2')],
    // The open set of the versions before the approvals' index.
    ['-approvals', 'old-a2', true],
    [
      '',
      'account-app:acc1',
      { accountId: 'acc1', sealedAppId: box.seal('OLD-APP-ID', 'account-app:acc1'), clientId: 'client-1', savedAt: createdAt },
    ],
    ['', 'account-app-client:client-1', 'acc1'],
  ];
}

/** What a store opened on `formerRecords` (with the approvals' index entry of `old-a1`) must read. */
export async function expectFormerRecordsRead(store: Store): Promise<void> {
  expect(await store.trackedRequests.openIds()).toEqual(['old-r1']);
  expect(await store.trackedRequests.get('old-r1')).toMatchObject({ rootTs: '1.1', closed: false });
  expect(await store.filingIntents.adoptUnindexed()).toBe(1);
  expect((await store.filingIntents.list()).map((i) => i.intentId)).toEqual(['old-i1']);
  expect((await store.approvals.get('old-a1'))?.payload).toMatchObject({ pixKey: 'old@example.com' });
  // old-a1 from the index, old-a2 adopted from the former open set (due at once).
  expect((await store.approvals.openIds()).sort()).toEqual(['old-a1', 'old-a2']);
  expect(await store.approvals.dueIds()).toEqual(['old-a2']);
  expect(await store.accountApps.findByClientId('client-1')).toMatchObject({ accountId: 'acc1', appId: 'OLD-APP-ID' });
}
