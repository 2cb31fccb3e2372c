import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type RedisClientType } from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import { Pool } from 'pg';
import { poolConfig, schemaOf } from '../../src/store/postgres/db';
import { loadMigrations, migrate } from '../../src/store/postgres/migrate';
import { PostgresSortedIndex } from '../../src/store/postgres/sorted-index';
import { RedisSortedIndex } from '../../src/store/redis/sorted-index';
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
  filingIntentsIndex: 'filing_intents_index',
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
  filingIntentsIndex: 'intents-index',
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
  filingIntentsIndex: 'filing_intents',
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
