import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type RedisClientType } from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import { RedisSortedIndex } from '../../src/store/redis/sorted-index';
import { queryOf } from '../../src/store/sqlite/query';
import { SqliteSortedIndex } from '../../src/store/sqlite/sorted-index';
import { type BackendUnderTest, spaceOf } from '../store/contract';
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
