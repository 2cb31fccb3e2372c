import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import type { AuditEntry, StoredAuditEntry } from '../../src/audit/entry';
import { openStore, type Store } from '../../src/store';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';

const SECRET = 's'.repeat(40);

const entry = (i: number, time: string, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  time,
  user: `U0USER${String(i).padStart(4, '0')}`,
  role: 'operator',
  action: '/pix limits',
  outcome: 'ok',
  ...extra,
});

const at = (minute: number) => new Date(Date.UTC(2026, 2, 5, 12, minute)).toISOString();
const collect = async (store: Store, from: Date, to: Date, batch: number) => {
  const out: StoredAuditEntry[][] = [];
  for await (const b of (await store.audit.snapshot(from, to, batch)).batches()) out.push(b);
  return out;
};

/** The same contract on both backends. `reopen` gives a fresh store on the same data (a restart). */
async function exerciseTrail(open: () => Promise<Store>): Promise<void> {
  let store = await open();
  try {
    // Every field, round trip.
    const full = entry(0, at(0), {
      target: 'account:6840aeca23c0d1fe48c856a3 key:***.982.247-**',
      pixMethod: 'DELETE',
      pixPath: '/api/v1/pix-keys/***.982.247-**',
      pixStatus: 204,
      maker: 'U0MAKER',
      checker: 'U0CHECK',
      outcome: 'approved',
      detail: 'needs admin',
    });
    await store.audit.append(full);
    await Promise.all(Array.from({ length: 30 }, (_, i) => store.audit.append(entry(i + 1, at(i + 1)))));
    await store.close();

    // A restart: all of it is there, in the order appended.
    store = await open();
    const since = new Date(at(0));
    const first = await store.audit.page({ since, limit: 10 });
    expect(first.map((e) => e.user)).toEqual(Array.from({ length: 10 }, (_, i) => `U0USER${String(30 - i).padStart(4, '0')}`));
    const next = await store.audit.page({ since, limit: 10, before: first[9]!.id });
    expect(next[0]!.user).toBe('U0USER0020');
    const back = await store.audit.page({ since, limit: 10, after: next[0]!.id, top: first[0]!.id });
    expect(back.map((e) => e.id)).toEqual(first.map((e) => e.id));
    const last = await store.audit.page({ since, limit: 10, before: (await store.audit.page({ since, limit: 30 }))[29]!.id });
    const { id: _id, ...roundTrip } = last[0]!;
    expect(roundTrip).toEqual(full);
    // `since` cuts: from minute 25 on.
    expect((await store.audit.page({ since: new Date(at(25)), limit: 50 })).map((e) => e.user)).toHaveLength(6);
    expect(store.audit.isCursor(first[0]!.id)).toBe(true);
    expect(store.audit.isCursor('1; DROP TABLE audit_trail')).toBe(false);

    // A snapshot of [minute 5, minute 15): oldest first, in batches, the same when read again even
    // after more entries of that period are appended.
    const from = new Date(at(5));
    const to = new Date(at(15));
    const batches = await collect(store, from, to, 4);
    expect(batches.map((b) => b.length)).toEqual([4, 4, 2]);
    expect(batches.flat().map((e) => e.user)).toEqual(Array.from({ length: 10 }, (_, i) => `U0USER${String(i + 5).padStart(4, '0')}`));
    const snapshot = await store.audit.snapshot(from, to, 4);
    const firstRead: string[] = [];
    for await (const b of snapshot.batches()) firstRead.push(...b.map((e) => e.id));
    await store.audit.append(entry(99, at(40)));
    const secondRead: string[] = [];
    for await (const b of snapshot.batches()) secondRead.push(...b.map((e) => e.id));
    expect(secondRead).toEqual(firstRead);
    expect(await collect(store, new Date(at(50)), new Date(at(59)), 4)).toEqual([]);
  } finally {
    await store.close();
  }
}

describe('audit trail on sqlite', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-audit-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('appends in order, survives a restart, pages both ways, snapshots a period', async () => {
    const url = `sqlite://${path.join(dir, 'pix-ops.sqlite')}`;
    await exerciseTrail(() => openStore({ url }));
  });

  test('append, never update: the database refuses to change or delete an entry', async () => {
    const file = path.join(dir, 'pix-ops.sqlite');
    const store = await openStore({ url: `sqlite://${file}` });
    await store.audit.append(entry(1, at(1)));
    await store.close();
    const raw = new KeyvSqlite({ uri: `sqlite://${file}` });
    try {
      await expect(raw.query("UPDATE audit_trail SET outcome = 'refused'")).rejects.toThrow(/append-only/);
      await expect(raw.query('DELETE FROM audit_trail')).rejects.toThrow(/append-only/);
      expect(await raw.query('SELECT outcome FROM audit_trail')).toEqual([{ outcome: 'ok' }]);
    } finally {
      await raw.disconnect();
    }
  });

  test('a namespace sees only its own entries', async () => {
    const url = `sqlite://${path.join(dir, 'pix-ops.sqlite')}`;
    const [a, b] = [await openStore({ url, namespace: 'a' }), await openStore({ url, namespace: 'b' })];
    try {
      await a.audit.append(entry(1, at(1)));
      await b.audit.append(entry(2, at(2)));
      expect((await a.audit.page({ since: new Date(at(0)), limit: 10 })).map((e) => e.user)).toEqual(['U0USER0001']);
      expect((await collect(b, new Date(at(0)), new Date(at(10)), 10)).flat().map((e) => e.user)).toEqual(['U0USER0002']);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('audit trail on Redis (127.0.0.1:6379)', () => {
  test('appends in order, survives a restart, pages both ways, snapshots a period', async () => {
    const namespace = testNamespace('audit');
    try {
      await exerciseTrail(() => openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace }));
    } finally {
      await deleteKeys(SHARED_REDIS_URL, namespace);
    }
  });

  test('two instances appending at once: nothing lost, each one’s entries in its own order', async () => {
    const namespace = testNamespace('audit2');
    const [a, b] = [
      await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace }),
      await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace }),
    ];
    try {
      const now = Date.now();
      const time = (i: number) => new Date(now + Math.floor(i / 50)).toISOString();
      // Interleaved bursts, B's clock a little behind A's.
      await Promise.all([
        ...Array.from({ length: 500 }, (_, i) => a.audit.append(entry(i, time(i), { action: 'A' }))),
        ...Array.from({ length: 500 }, (_, i) =>
          b.audit.append(entry(i, new Date(Date.parse(time(i)) - 5).toISOString(), { action: 'B' })),
        ),
      ]);
      const all = (await collect(a, new Date(now - 1_000), new Date(now + 60_000), 100)).flat();
      expect(all).toHaveLength(1_000);
      for (const who of ['A', 'B']) {
        expect(all.filter((e) => e.action === who).map((e) => e.user)).toEqual(
          Array.from({ length: 500 }, (_, i) => `U0USER${String(i).padStart(4, '0')}`),
        );
      }
      // Ids only go forward.
      const ids = all.map((e) => e.id.split('-').map(Number) as [number, number]);
      for (let i = 1; i < ids.length; i++)
        expect(ids[i]![0] > ids[i - 1]![0] || (ids[i]![0] === ids[i - 1]![0] && ids[i]![1] > ids[i - 1]![1])).toBe(true);
    } finally {
      await a.close();
      await b.close();
      await deleteKeys(SHARED_REDIS_URL, namespace);
    }
  });
});
