import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inspectStore, openStore, type Store, type StoreOptions } from '../../src/store';
import { dropSchema, PG_URL, pgNamespace } from '../support/postgres';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import {
  FIXTURE_DIR,
  FIXTURE_SECRET,
  HELD_CLAIM,
  loadPostgres,
  loadRedis,
  loadSqlite,
  readBack,
  VERSION_0_1_0,
} from '../support/store-0.1.0';
import { auditEntry } from './contract/audit-trail';
import { auditOf } from './contract/everything';
import { trackedRequest } from './contract/tracked-requests';

/** What 0.1.0 read back from its store (test/fixtures/store-0.1.0/README.md). */
const READ_BACK = JSON.parse(readFileSync(path.join(FIXTURE_DIR, 'read-back.json'), 'utf8')) as Awaited<ReturnType<typeof readBack>>;
/**
 * What this version reads back of a 0.1.0 store on each backend: what 0.1.0 wrote, but for the changes
 * of format since, each named here.
 * - sqlite format 2, Postgres migration 3: a posted Pix event keeps what tells a repeat of it, not its
 *   summary (`dispute`, `other`). On Redis, 0.1.0's posted events lapse a week after their receipt, as
 *   they did: they keep it until then.
 */
function readBackNow(backend: string): typeof READ_BACK {
  if (backend === 'Redis') return READ_BACK;
  const records = Object.fromEntries(
    Object.entries(READ_BACK.events.records).map(([hash, event]) => {
      if (!event?.postedAt) return [hash, event];
      const { dispute: _dispute, other: _other, ...kept } = event;
      return [hash, kept];
    }),
  );
  return { ...READ_BACK, events: { ...READ_BACK.events, records } };
}

/** As the JSON file holds it: no field left undefined. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

/** A fresh place holding a 0.1.0 store: how to open it, its version at 0.1.0, and how to remove it. */
interface Place {
  options: StoreOptions;
  version: number;
  cleanUp(): Promise<void>;
}

const places: Array<[string, () => Promise<Place>]> = [
  [
    'sqlite',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-upgrade-'));
      return { options: { url: loadSqlite(dir) }, version: VERSION_0_1_0.sqlite, cleanUp: async () => rmSync(dir, { recursive: true }) };
    },
  ],
  [
    'Redis',
    async () => {
      const namespace = testNamespace('upgrade');
      await loadRedis(SHARED_REDIS_URL, namespace);
      return {
        options: { url: SHARED_REDIS_URL, namespace },
        version: VERSION_0_1_0.redis,
        cleanUp: async () => void (await deleteKeys(SHARED_REDIS_URL, namespace)),
      };
    },
  ],
  [
    'Postgres',
    async () => {
      const namespace = pgNamespace('upgrade');
      await loadPostgres(namespace);
      return { options: { url: PG_URL, namespace }, version: VERSION_0_1_0.postgres, cleanUp: () => dropSchema(namespace) };
    },
  ],
];

/**
 * From 0.1.0 on, every change of a stored format comes with its migration: a store 0.1.0 wrote,
 * opened by this version, is upgraded as it opens and gives back everything as 0.1.0 wrote it.
 */
describe.each(places)('a 0.1.0 store on %s, opened by this version', (backend, load) => {
  let place: Place;
  const stores: Store[] = [];
  const open = async () => {
    const store = await openStore({ ...place.options, secret: FIXTURE_SECRET });
    stores.push(store);
    return store;
  };
  beforeEach(async () => {
    place = await load();
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    await place.cleanUp();
  });

  test('upgraded to this version as it opens, the same store (its identity kept); every repository reads back what 0.1.0 wrote', async () => {
    const before = await inspectStore(place.options);
    expect(before.version).toBe(place.version);
    expect(before.identity).toBeDefined();
    const store = await open();
    expect(await inspectStore(place.options)).toEqual({ ...before, version: before.known });
    expect(asJson(await readBack(store))).toEqual(readBackNow(backend));
    // A claim 0.1.0 held is still its holder's.
    if (store.shared) expect(await store.claim(HELD_CLAIM, 60_000)).toBe(false);
  });

  test('written after the upgrade: the new beside what 0.1.0 wrote, the audit trail going on after its entries', async () => {
    const store = await open();
    await store.trackedRequests.track(trackedRequest('after-upgrade'));
    await store.approvals.create({
      id: 'after-upgrade',
      makerId: 'U0MAKER01',
      makerLocale: 'en',
      channel: 'C0APPROVE',
      payload: { action: 'account-create', name: 'After' },
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    await store.audit.append(auditEntry(9, new Date().toISOString()));
    await store.close();
    const again = await open();
    expect((await again.trackedRequests.openIds()).sort()).toEqual([...READ_BACK.tracked.open, 'after-upgrade'].sort());
    expect((await again.approvals.get('after-upgrade'))?.payload).toEqual({ action: 'account-create', name: 'After' });
    expect((await again.approvals.get('pending'))?.payload).toEqual(READ_BACK.approvals.records.pending?.payload);
    const trail = await auditOf(again);
    expect(asJson(trail.slice(0, -1))).toEqual(READ_BACK.audit);
    expect(trail.at(-1)).toMatchObject({ user: 'U0USER0009' });
  });
});
