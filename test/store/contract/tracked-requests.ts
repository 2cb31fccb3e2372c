import type { Store } from '../../../src/store';
import { NoSuchRecordError } from '../../../src/store/errors';
import { type BackendUnderTest, eachSpace } from './backend';

/** A limit request to track, as a filing records it. */
export const trackedRequest = (id: string) => ({
  limitRequestId: id,
  accountId: 'acc1',
  requesterId: 'U1',
  channel: 'C1',
  requested: { pixDayLimit: 1 },
  documents: [],
  source: 'filed' as const,
});

const openIds = async (store: Store) => (await store.trackedRequests.openIds()).sort();

/** Tracked limit requests: in review → decided → replied → closed, and the ids still to poll. */
export function trackedRequestsContract(backend: BackendUnderTest): void {
  describe(`tracked requests on ${backend.name}`, () => {
    const space = eachSpace(backend);

    test('tracked, polled until closed; what each step records is read by a second instance and after a restart', async () => {
      const a = await space().open();
      const tracked = await a.trackedRequests.track({ ...trackedRequest('r1'), createdAt: '2026-11-25T10:00:00.000Z' });
      expect(tracked).toEqual({ ...trackedRequest('r1'), createdAt: '2026-11-25T10:00:00.000Z', closed: false });
      await a.trackedRequests.track(trackedRequest('r2'));
      await a.trackedRequests.track(trackedRequest('r3'));
      const b = await space().open();
      expect(await b.trackedRequests.get('r1')).toEqual(tracked);
      expect(await openIds(b)).toEqual(['r1', 'r2', 'r3']);
      expect((await b.trackedRequests.get('r1'))?.rootTs).toBeUndefined();

      await b.trackedRequests.attachRoot('r1', { channel: 'D1', ts: '1700000000.000100' });
      expect(await b.trackedRequests.noteUnreadable('r1', 404)).toMatchObject({ count: 1, status: 404 });
      const second = await a.trackedRequests.noteUnreadable('r1', 403, 'x'.repeat(3000));
      expect(second).toMatchObject({ count: 2, status: 403 });
      expect(second.error).toHaveLength(2000);
      expect(await a.trackedRequests.get('r1')).toMatchObject({ channel: 'D1', rootTs: '1700000000.000100', unreadable: { count: 2 } });
      await a.trackedRequests.clearUnreadable('r1');
      expect((await b.trackedRequests.get('r1'))?.unreadable).toBeUndefined();

      await a.trackedRequests.recordReply('r2', { ts: '9.9', status: 'REJECTED' });
      const closed = await a.trackedRequests.close('r2');
      expect(closed).toMatchObject({ closed: true, reply: { ts: '9.9', status: 'REJECTED' } });
      expect(await openIds(b)).toEqual(['r1', 'r3']);

      expect(await b.trackedRequests.noteUndeliverable('r3', 'channel_not_found')).toMatchObject({ count: 1, error: 'channel_not_found' });
      expect(await b.trackedRequests.noteUndeliverable('r3', 'x'.repeat(300))).toMatchObject({ count: 2 });
      const undelivered = await b.trackedRequests.closeUndelivered('r3', { status: 'APPROVED', error: 'user_not_found' });
      expect(undelivered).toMatchObject({ closed: true, undelivered: { status: 'APPROVED', error: 'user_not_found' } });
      expect((await b.trackedRequests.get('r3'))?.undeliverable?.error).toHaveLength(200);

      await a.close();
      const restarted = await space().open();
      expect(await openIds(restarted)).toEqual(['r1']);
      expect(await restarted.trackedRequests.get('r2')).toEqual({
        ...trackedRequest('r2'),
        createdAt: expect.any(String),
        closed: true,
        reply: { ts: '9.9', status: 'REJECTED' },
      });
    });

    test('getMany: the records of many ids in their order, undefined for one never tracked or forgotten', async () => {
      const store = await space().open();
      for (const id of ['m1', 'm2', 'm3']) await store.trackedRequests.track(trackedRequest(id));
      await store.trackedRequests.forget('m2');
      const read = await store.trackedRequests.getMany(['m3', 'nope', 'm1', 'm2']);
      expect(read.map((r) => r?.limitRequestId)).toEqual(['m3', undefined, 'm1', undefined]);
      expect(read[0]).toEqual(await store.trackedRequests.get('m3'));
      expect(await store.trackedRequests.getMany([])).toEqual([]);
    });

    test('forget removes record and polling; untrack stops polling and keeps the record; a change to an untracked id fails', async () => {
      const store = await space().open();
      await store.trackedRequests.track(trackedRequest('f1'));
      await store.trackedRequests.track(trackedRequest('u1'));
      await store.trackedRequests.forget('f1');
      await store.trackedRequests.untrack('u1');
      expect(await store.trackedRequests.get('f1')).toBeUndefined();
      expect(await store.trackedRequests.get('u1')).toMatchObject({ limitRequestId: 'u1', closed: false });
      expect(await store.trackedRequests.openIds()).toEqual([]);
      await expect(store.trackedRequests.attachRoot('nope', { channel: 'C', ts: '1.1' })).rejects.toThrow(/not tracked/);
      await expect(store.trackedRequests.close('nope')).rejects.toBeInstanceOf(NoSuchRecordError);
      expect(await store.trackedRequests.get('nope')).toBeUndefined();
    });
  });
}
