import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore, type Store } from '../../src/store';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';

/** What following a filed request keeps in the store: filing intents, rootless requests, unreadable counts. */
async function exercise(store: Store, reopen: () => Promise<Store>) {
  const intent = (id: string, minutesAgo: number) => ({
    intentId: id,
    requesterId: 'U1',
    channel: 'C1',
    accountId: 'acc1',
    current: { pixDayLimit: 500_000 },
    requested: { pixDayLimit: 700_000 },
    documents: [{ fileName: 'proof.pdf', contentType: 'application/pdf' }],
    createdAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  });
  const older = intent('older', 5);
  await store.filingIntents.record(intent('newer', 1));
  await store.filingIntents.record(older);
  await store.filingIntents.record(intent('gone', 3));
  await store.filingIntents.delete('gone');

  await store.trackedRequests.track({
    limitRequestId: 'r1',
    accountId: 'acc1',
    requesterId: 'U1',
    channel: 'C1',
    requested: { pixDayLimit: 1 },
    documents: [],
    source: 'filed',
  });
  expect((await store.trackedRequests.get('r1'))?.rootTs).toBeUndefined();
  await store.trackedRequests.attachRoot('r1', { channel: 'D1', ts: '1700000000.000100' });
  expect(await store.trackedRequests.noteUnreadable('r1', 404)).toMatchObject({ count: 1, status: 404 });
  const second = await store.trackedRequests.noteUnreadable('r1', 403);
  expect(second).toMatchObject({ count: 2, status: 403 });

  const again = await reopen();
  expect((await again.filingIntents.list()).map((i) => i.intentId)).toEqual(['older', 'newer']);
  expect((await again.filingIntents.list())[0]).toEqual(older);
  expect(await again.trackedRequests.get('r1')).toMatchObject({
    channel: 'D1',
    rootTs: '1700000000.000100',
    unreadable: { count: 2, since: second.since },
  });
  await again.trackedRequests.clearUnreadable('r1');
  expect((await again.trackedRequests.get('r1'))?.unreadable).toBeUndefined();
  expect(await again.trackedRequests.openIds()).toEqual(['r1']);
  return again;
}

describe('following filed requests: the store’s part', () => {
  test('sqlite, across a restart', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-follow-'));
    const url = `sqlite://${path.join(dir, 'pix-ops.sqlite')}`;
    const store = await openStore({ url });
    try {
      const again = await exercise(store, async () => {
        await store.close();
        return openStore({ url });
      });
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('Redis (127.0.0.1:6379), seen by a second instance', async () => {
    const namespace = testNamespace('follow');
    const open = () => openStore({ url: SHARED_REDIS_URL, secret: 's'.repeat(40), namespace });
    const store = await open();
    let other: Store | undefined;
    try {
      other = await exercise(store, open);
    } finally {
      await other?.close();
      await store.close();
      await deleteKeys(SHARED_REDIS_URL, namespace);
    }
  });
});
