import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../src/errors';
import { openStore, type Store, type StoreOptions } from '../../src/store';
import { namespaceProblem } from '../../src/store/namespace';
import { schemaOf } from '../../src/store/postgres/db';
import { dropSchema, PG_URL, pgNamespace, pgQuery } from '../support/postgres';
import { deleteKeys, keysOf, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { SECRET } from './contract';
import { trackedRequest } from './contract/tracked-requests';

describe('a namespace names one store, and one store has one name', () => {
  test('letters, digits, dots, dashes and underscores, at most 63 bytes, never ending in -intents', () => {
    expect(namespaceProblem('pix-ops')).toBeUndefined();
    expect(namespaceProblem('Team_A.prod')).toBeUndefined();
    expect(namespaceProblem('n'.repeat(63))).toBeUndefined();
    expect(namespaceProblem('n'.repeat(64))).toMatch(/at most 63/);
    expect(namespaceProblem('-pix')).toMatch(/expected letters/);
    expect(namespaceProblem('pix ops')).toMatch(/expected letters/);
    expect(namespaceProblem('pix:ops')).toMatch(/expected letters/);
    expect(namespaceProblem('pix-ops-intents')).toMatch(/-intents/);
    expect(namespaceProblem('pix_ops_intents')).toMatch(/-intents/);
  });

  const stores: Store[] = [];
  const open = async (options: StoreOptions) => {
    const store = await openStore({ secret: SECRET, ...options });
    stores.push(store);
    return store;
  };
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
  });

  describe.each<[string, () => { url: string; base: string; cleanUp: () => Promise<void> }]>([
    [
      'sqlite',
      () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-ns-'));
        return {
          url: `sqlite://${path.join(dir, 'pix-ops.sqlite')}`,
          base: 'team-a',
          cleanUp: async () => rmSync(dir, { recursive: true }),
        };
      },
    ],
    [
      'Redis',
      () => {
        const base = testNamespace('ns');
        return { url: SHARED_REDIS_URL, base, cleanUp: async () => void (await deleteKeys(SHARED_REDIS_URL, base)) };
      },
    ],
    [
      'Postgres',
      () => {
        const base = pgNamespace('ns');
        return { url: PG_URL, base, cleanUp: () => dropSchema(base) };
      },
    ],
  ])('on %s', (_name, place) => {
    let url: string;
    let base: string;
    let cleanUp: () => Promise<void>;
    beforeEach(() => {
      ({ url, base, cleanUp } = place());
    });
    afterEach(async () => {
      for (const s of stores.splice(0)) await s.close();
      await cleanUp();
    });

    test('`_` is read as `-`: the namespace written either way opens the one store', async () => {
      const dashed = await open({ url, namespace: base });
      await dashed.trackedRequests.track(trackedRequest('r1'));
      const underscored = await open({ url, namespace: base.replace(/-/g, '_') });
      expect(await underscored.trackedRequests.get('r1')).toMatchObject({ limitRequestId: 'r1' });
      expect(await underscored.trackedRequests.openIds()).toEqual(['r1']);
    });

    test('over 63 bytes, or ending in -intents: refused at open, naming STORE_NAMESPACE', async () => {
      for (const namespace of [`${base}-${'n'.repeat(63)}`, `${base}-intents`]) {
        const refused = await openStore({ url, secret: SECRET, namespace }).then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(refused).toBeInstanceOf(ConfigError);
        expect((refused as Error).message).toMatch(/^STORE_NAMESPACE: /);
      }
    });
  });

  test('Postgres: two long names alike in their first 63 bytes are refused, never one schema for both', async () => {
    const long = (tail: string) => `${pgNamespace('long')}-${'x'.repeat(40)}`.slice(0, 63) + tail;
    const [a, b] = [long('a'), long('b')];
    try {
      await expect(openStore({ url: PG_URL, secret: SECRET, namespace: a })).rejects.toBeInstanceOf(ConfigError);
      await expect(openStore({ url: PG_URL, secret: SECRET, namespace: b })).rejects.toBeInstanceOf(ConfigError);
      const made = await pgQuery('SELECT nspname FROM pg_namespace WHERE nspname = $1', [schemaOf(a).slice(0, 63)]);
      expect(made).toEqual([]);
    } finally {
      await dropSchema(a.slice(0, 63));
    }
  });

  test('sqlite: a refused namespace makes nothing, not even the file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-ns-'));
    try {
      await expect(
        openStore({ url: `sqlite://${path.join(dir, 'data', 'pix-ops.sqlite')}`, secret: SECRET, namespace: 'a'.repeat(64) }),
      ).rejects.toBeInstanceOf(ConfigError);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  test('Redis: a refused namespace writes no key', async () => {
    const namespace = `${testNamespace('ns')}-intents`;
    await expect(openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace })).rejects.toBeInstanceOf(ConfigError);
    expect(await keysOf(SHARED_REDIS_URL, namespace)).toEqual([]);
  });
});
