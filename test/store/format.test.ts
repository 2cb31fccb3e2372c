import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient, type RedisClientType } from '@keyv/redis';
import KeyvSqlite from '@keyv/sqlite';
import { inspectStore, openStore, StoreVersionError } from '../../src/store';
import { makeOrUpgradeRedis, type RedisUpgrade } from '../../src/store/redis/format';
import { makeOrUpgrade, SQLITE_FORMAT, type SqliteUpgrade } from '../../src/store/sqlite/format';
import { queryOf } from '../../src/store/sqlite/query';
import { deleteKeys, keysOf, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { waitFor } from '../support/wait';
import { SECRET } from './contract';

/** What a store refuses for being newer than this app, and how a later version's upgrade steps run. */
describe('the store format of sqlite and Redis', () => {
  describe('sqlite: the file’s version (PRAGMA user_version)', () => {
    let dir: string;
    let connection: KeyvSqlite;
    const file = () => path.join(dir, 'pix-ops.sqlite');
    const query = () => queryOf(connection);
    const version = async () => Number((await query()('PRAGMA user_version'))[0]!.user_version);
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-format-'));
      connection = new KeyvSqlite({ uri: `sqlite://${file()}` });
    });
    afterEach(async () => {
      await connection.disconnect();
      rmSync(dir, { recursive: true, force: true });
    });

    test('newer than this app knows: refused, both versions named, and the file changed in nothing', async () => {
      await (await openStore({ url: `sqlite://${file()}`, secret: SECRET })).close();
      await query()('PRAGMA user_version = 7');
      const refused = await openStore({ url: `sqlite://${file()}`, secret: SECRET, namespace: 'another' }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(StoreVersionError);
      expect((refused as Error).message).toMatch(
        new RegExp(`^the store in the sqlite file is at version 7, newer than this app knows \\(version ${SQLITE_FORMAT}\\)`),
      );
      expect(await version()).toBe(7);
      expect((await inspectStore({ url: `sqlite://${file()}`, namespace: 'another' })).identity).toBeUndefined();
    });

    test('a later version’s steps run in order, once each, in the transaction that records the version they reach', async () => {
      // A file as 0.1.0 made it (no step after version 1).
      await makeOrUpgrade(query(), 'pix-ops', []);
      expect(await version()).toBe(1);
      const steps: SqliteUpgrade[] = [
        async (q) => void (await q('CREATE TABLE made_by_two (n INTEGER)')),
        async (q) => void (await q('INSERT INTO made_by_two VALUES (3)')),
      ];
      await makeOrUpgrade(query(), 'pix-ops', steps);
      await makeOrUpgrade(query(), 'pix-ops', steps);
      expect(await version()).toBe(3);
      expect(await query()('SELECT n FROM made_by_two')).toEqual([{ n: 3 }]);
      const cut: SqliteUpgrade = async (q) => {
        await q('INSERT INTO made_by_two VALUES (4)');
        throw new Error('cut short');
      };
      await expect(makeOrUpgrade(query(), 'pix-ops', [...steps, cut])).rejects.toThrow('cut short');
      expect(await version()).toBe(3);
      expect(await query()('SELECT n FROM made_by_two')).toEqual([{ n: 3 }]);
    });
  });

  describe('Redis: the namespace’s version (<namespace>:format)', () => {
    let namespace: string;
    let raw: RedisClientType;
    beforeEach(async () => {
      namespace = testNamespace('format');
      raw = createClient({ url: SHARED_REDIS_URL }) as unknown as RedisClientType;
      await raw.connect();
    });
    afterEach(async () => {
      await raw.close();
      await deleteKeys(SHARED_REDIS_URL, namespace);
    });

    test('newer than this app knows: refused, both versions named, and nothing written', async () => {
      await raw.set(`${namespace}:format`, '4');
      const refused = await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(StoreVersionError);
      expect((refused as Error).message).toMatch(
        new RegExp(`^the store "${namespace}" in Redis is at version 4, newer than this app knows \\(version 1\\)`),
      );
      expect(await keysOf(SHARED_REDIS_URL, namespace)).toEqual([`${namespace}:format`]);
    });

    test('instances starting together on a 0.1.0 store: one runs each step, the others wait for it', async () => {
      await makeOrUpgradeRedis(raw, namespace, 'first');
      expect(await raw.get(`${namespace}:format`)).toBe('1');
      let runs = 0;
      let finish: () => void = () => undefined;
      const finished = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const step: RedisUpgrade = async (client, ns) => {
        runs++;
        await client.set(`${ns}:made-by-two`, 'yes');
        await finished;
      };
      const upgrades = ['a', 'b', 'c'].map((holder) => makeOrUpgradeRedis(raw, namespace, holder, [step]));
      await waitFor('one instance in the step', () => runs === 1, 5_000);
      finish();
      await Promise.all(upgrades);
      expect(runs).toBe(1);
      expect(await raw.get(`${namespace}:format`)).toBe('2');
      expect(await raw.exists(`${namespace}:format:upgrading`)).toBe(0);
      await makeOrUpgradeRedis(raw, namespace, 'later', [step]);
      expect(runs).toBe(1);
    });
  });
});
