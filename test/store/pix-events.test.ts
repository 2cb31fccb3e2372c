import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openStore, type Store } from '../../src/store';
import type { DisputeRecord, PixEventRecord } from '../../src/store/pix-events';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';

const SECRET = 's'.repeat(40);

const event = (hash: string, receivedAt: string): PixEventRecord => ({
  hash,
  kind: 'DISPUTE_CREATED',
  receivedAt,
  dispute: { endToEndId: `E-${hash}`, status: 'OPENED' },
});
const dispute = (e2e: string, closed: boolean, updatedAt: string): DisputeRecord => ({
  endToEndId: e2e,
  channel: 'C1',
  closed,
  firstAt: updatedAt,
  updatedAt,
  status: closed ? 'ACCEPTED' : 'OPENED',
});

/** The outbox's contract on both backends, with two stores on one state (two instances, or a restart). */
async function exercise(a: Store, b: Store): Promise<void> {
  // Insert-if-absent, also when the same bytes arrive at both at the same moment.
  const results = await Promise.all([
    a.pixEvents.add(event('h1', '2026-11-25T10:00:01.000Z')),
    b.pixEvents.add(event('h1', '2026-11-25T10:00:01.000Z')),
    a.pixEvents.add(event('h1', '2026-11-25T10:00:01.000Z')),
  ]);
  expect(results.filter(Boolean)).toHaveLength(1);
  expect(await b.pixEvents.add(event('h0', '2026-11-25T10:00:00.000Z'))).toBe(true);
  expect(await b.pixEvents.pending()).toEqual(['h0', 'h1']); // oldest first
  await b.pixEvents.update({ ...event('h1', '2026-11-25T10:00:01.000Z'), attemptedAt: '2026-11-25T10:00:02.000Z' });
  expect((await a.pixEvents.get('h1'))?.attemptedAt).toBe('2026-11-25T10:00:02.000Z');
  await a.pixEvents.markPosted('h0');
  expect(await b.pixEvents.pending()).toEqual(['h1']);
  expect((await b.pixEvents.get('h0'))?.postedAt).toEqual(expect.any(String));
  // A posted event is still known: its redelivery is not new.
  expect(await b.pixEvents.add(event('h0', '2026-11-25T10:05:00.000Z'))).toBe(false);
  expect(await a.pixEvents.get('nope')).toBeUndefined();

  await a.pixEvents.saveDispute(dispute('E1', false, '2026-11-25T10:00:00.000Z'));
  await a.pixEvents.saveDispute(dispute('E2', false, '2026-11-25T11:00:00.000Z'));
  await b.pixEvents.saveDispute(dispute('E3', true, '2026-11-25T12:00:00.000Z'));
  expect((await b.pixEvents.openDisputes()).map((d) => d.endToEndId)).toEqual(['E2', 'E1']);
  await b.pixEvents.saveDispute({ ...dispute('E1', true, '2026-11-25T13:00:00.000Z'), rootTs: '1.2' });
  expect((await a.pixEvents.openDisputes()).map((d) => d.endToEndId)).toEqual(['E2']);
  expect((await a.pixEvents.dispute('E1'))?.rootTs).toBe('1.2');
}

describe('the Pix events outbox in the store', () => {
  test('sqlite', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-events-store-'));
    const url = `sqlite://${path.join(dir, 's.sqlite')}`;
    const a = await openStore({ url, secret: SECRET });
    const b = await openStore({ url, secret: SECRET });
    try {
      await exercise(a, b);
      // Another namespace on the same file sees nothing.
      const other = await openStore({ url, secret: SECRET, namespace: 'other' });
      expect(await other.pixEvents.pending()).toEqual([]);
      await other.close();
    } finally {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('Redis (two instances)', async () => {
    const namespace = testNamespace('pixevents-store');
    const a = await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace });
    const b = await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace });
    try {
      await exercise(a, b);
    } finally {
      await a.close();
      await b.close();
      await deleteKeys(SHARED_REDIS_URL, namespace);
    }
  });
});
