import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import Keyv from 'keyv';
import { openStore, type Store } from '../../src/store';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';

// The approvals a tick must look at are read from an index by due time (issue 18: never a scan of a
// keyv namespace per tick), on sqlite and on Redis alike.

const payload = { action: 'key-add' as const, accountId: '6840aeca23c0d1fe48c856a3', pixKey: 'a@example.com', type: 'EMAIL' };

async function pending(store: Store, id: string, input: { expiresIn: number; remindIn?: number; rootTs?: string }): Promise<void> {
  const now = Date.now();
  await store.approvals.create({
    id,
    makerId: 'U0MAKER01',
    makerLocale: 'en',
    channel: 'C0CHANNEL',
    payload,
    expiresAt: new Date(now + input.expiresIn).toISOString(),
    ...(input.remindIn === undefined ? {} : { remindAt: new Date(now + input.remindIn).toISOString() }),
  });
  if (input.rootTs !== '') await store.approvals.update(id, (r) => ({ ...r, rootTs: input.rootTs ?? '1700000000.000100' }));
}

function behaves(open: () => Promise<Store>) {
  let store: Store;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(() => store.close());

  test('only the due ones, earliest first: an expiry or a reminder past, a record without a root, one being run; settled ones leave', async () => {
    await pending(store, 'a000000000000001', { expiresIn: 3_600_000 }); // nothing due
    await pending(store, 'a000000000000002', { expiresIn: -2_000 }); // expired
    await pending(store, 'a000000000000003', { expiresIn: 3_600_000, remindIn: -1_000 }); // reminder due
    await pending(store, 'a000000000000004', { expiresIn: 3_600_000, remindIn: 60_000 }); // reminder later
    await pending(store, 'a000000000000005', { expiresIn: 3_600_000, rootTs: '' }); // never got its root
    await pending(store, 'a000000000000006', { expiresIn: 3_600_000 });
    await store.approvals.update('a000000000000006', (r) => ({ ...r, state: 'approving' }));
    // Earliest due first: being run (at once), expired 2 s ago, reminder 1 s ago, rootless since it was made.
    expect(await store.approvals.dueIds()).toEqual(['a000000000000006', 'a000000000000002', 'a000000000000003', 'a000000000000005']);
    expect((await store.approvals.openIds()).sort()).toEqual([
      'a000000000000001',
      'a000000000000002',
      'a000000000000003',
      'a000000000000004',
      'a000000000000005',
      'a000000000000006',
    ]);
    await store.approvals.update('a000000000000002', (r) => ({ ...r, state: 'expired', settled: true }));
    expect(await store.approvals.dueIds()).not.toContain('a000000000000002');
    expect(await store.approvals.openIds()).not.toContain('a000000000000002');
    // Later on, the reminder of the fourth comes due too.
    expect(await store.approvals.dueIds(Date.now() + 120_000)).toContain('a000000000000004');
  });
}

describe('the approvals’ index on sqlite', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-index-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  behaves(() => openStore({ url: `sqlite://${path.join(dir, 'pix-ops.sqlite')}` }));

  test('ids an earlier version listed in its keyv namespace are adopted into the index, due at once', async () => {
    const file = path.join(dir, 'pix-ops.sqlite');
    const store = await openStore({ url: `sqlite://${file}` });
    try {
      await pending(store, 'b000000000000001', { expiresIn: 3_600_000 });
      await store.approvals.forget('b000000000000001');
      const former = new Keyv({ store: new KeyvSqlite({ uri: `sqlite://${file}` }), namespace: 'pix-ops-approvals' });
      await former.set('b000000000000001', true);
      await former.disconnect();
      const reopened = await openStore({ url: `sqlite://${file}` });
      try {
        expect(await reopened.approvals.dueIds()).toEqual(['b000000000000001']);
      } finally {
        await reopened.close();
      }
    } finally {
      await store.close();
    }
  });
});

describe('the approvals’ index on Redis', () => {
  const namespace = testNamespace('approval-index');
  afterAll(() => deleteKeys(SHARED_REDIS_URL, namespace));
  let n = 0;
  behaves(() => openStore({ url: SHARED_REDIS_URL, secret: 'i'.repeat(40), namespace: `${namespace}-${++n}` }));
});
