import type { DisputeRecord, PixEventRecord } from '../../../src/store/pix-events';
import { waitFor } from '../../support/wait';
import { type BackendUnderTest, eachSpace } from './backend';

export const pixEvent = (hash: string, receivedAt: string): PixEventRecord => ({
  hash,
  kind: 'DISPUTE_CREATED',
  receivedAt,
  dispute: { endToEndId: `E-${hash}`, status: 'OPENED', value: 1500 },
});

const dispute = (e2e: string, closed: boolean, updatedAt: string): DisputeRecord => ({
  endToEndId: e2e,
  channel: 'C1',
  closed,
  firstAt: updatedAt,
  updatedAt,
  status: closed ? 'ACCEPTED' : 'OPENED',
});

/** The Pix events outbox: recorded once, pending until posted, and the disputes seen. */
export function pixEventsContract(backend: BackendUnderTest): void {
  describe(`Pix events on ${backend.name}`, () => {
    const space = eachSpace(backend);

    test('added once, also when the same bytes reach two instances at once; pending oldest first until posted', async () => {
      const [a, b] = [await space().open(), await space().open()];
      const results = await Promise.all([
        a.pixEvents.add(pixEvent('h1', '2026-11-25T10:00:01.000Z')),
        b.pixEvents.add(pixEvent('h1', '2026-11-25T10:00:01.000Z')),
        a.pixEvents.add(pixEvent('h1', '2026-11-25T10:00:01.000Z')),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await b.pixEvents.add(pixEvent('h0', '2026-11-25T10:00:00.000Z'))).toBe(true);
      expect(await b.pixEvents.pending()).toEqual(['h0', 'h1']);
      expect(await a.pixEvents.get('h1')).toEqual(pixEvent('h1', '2026-11-25T10:00:01.000Z'));
      await b.pixEvents.update({ ...pixEvent('h1', '2026-11-25T10:00:01.000Z'), attemptedAt: '2026-11-25T10:00:02.000Z' });
      expect((await a.pixEvents.get('h1'))?.attemptedAt).toBe('2026-11-25T10:00:02.000Z');
      await a.pixEvents.markPosted('h0');
      expect(await b.pixEvents.pending()).toEqual(['h1']);
      const posted = await b.pixEvents.get('h0');
      expect(posted?.postedAt).toEqual(expect.any(String));
      await a.pixEvents.markPosted('h0'); // again: nothing changes
      expect((await b.pixEvents.get('h0'))?.postedAt).toBe(posted?.postedAt);
      await a.pixEvents.markPosted('nope');
      expect(await a.pixEvents.get('nope')).toBeUndefined();
    });

    test('a repeat of an event not posted leaves it pending; a repeat of a posted one does not bring it back', async () => {
      const [a, b] = [await space().open(), await space().open()];
      expect(await a.pixEvents.add(pixEvent('r1', '2026-11-25T10:00:00.000Z'))).toBe(true);
      expect(await a.pixEvents.add(pixEvent('r2', '2026-11-25T10:00:01.000Z'))).toBe(true);
      // The service's retry: the same bytes, later.
      expect(await b.pixEvents.add(pixEvent('r1', '2026-11-25T10:01:30.000Z'))).toBe(false);
      expect(await a.pixEvents.pending()).toEqual(['r1', 'r2']);
      expect((await a.pixEvents.get('r1'))?.receivedAt).toBe('2026-11-25T10:00:00.000Z');
      await a.pixEvents.markPosted('r1');
      expect(await b.pixEvents.add(pixEvent('r1', '2026-11-25T10:05:00.000Z'))).toBe(false);
      expect(await a.pixEvents.pending()).toEqual(['r2']);
    });

    test('a dropped event (answered, never to be posted) is recorded once and never pending, its repeats neither', async () => {
      const [a, b] = [await space().open(), await space().open()];
      const test = { hash: 'd1', kind: 'TEST', receivedAt: new Date().toISOString(), dropped: 'test_delivery' } as const;
      const results = await Promise.all([a.pixEvents.add(test), b.pixEvents.add(test)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await a.pixEvents.add({ ...test, receivedAt: new Date().toISOString() })).toBe(false);
      expect(await b.pixEvents.get('d1')).toEqual(test);
      expect(await a.pixEvents.pending()).toEqual([]);
      // A copy of the store reads it as it is, and writes it so.
      const copied: PixEventRecord[] = [];
      for await (const event of a.pixEvents.events()) copied.push(event);
      expect(copied).toEqual([test]);
    });

    test('a posted event is kept until its keptUntil, and for good without one, whenever it was received', async () => {
      const a = await space().open();
      const monthAgo = new Date(Date.now() - 30 * 24 * 60 * 60 * 1000).toISOString();
      const at = (ms: number) => new Date(Date.now() + ms).toISOString();
      const lapsed = { ...pixEvent('k-lapsed', monthAgo), keptUntil: at(-60_000) };
      const timeless = pixEvent('k-timeless', monthAgo);
      const ahead = { ...pixEvent('k-ahead', monthAgo), keptUntil: at(24 * 60 * 60 * 1000) };
      const dropped = { hash: 'k-dropped', kind: 'CHARGE_COMPLETED', receivedAt: monthAgo, dropped: 'too_old' } as const;
      for (const event of [lapsed, timeless, ahead]) {
        expect(await a.pixEvents.add(event)).toBe(true);
        await a.pixEvents.markPosted(event.hash);
      }
      expect(await a.pixEvents.add(dropped)).toBe(true);
      // Another instance (or the next start) prunes in passing.
      const b = await space().open();
      await b.pixEvents.pending();
      await waitFor('the lapsed one gone', async () => (await b.pixEvents.get('k-lapsed')) === undefined);
      for (const hash of ['k-timeless', 'k-ahead', 'k-dropped']) expect(await b.pixEvents.get(hash)).toMatchObject({ hash });
      expect(await b.pixEvents.add(timeless)).toBe(false);
      expect(await b.pixEvents.add(dropped)).toBe(false);
      expect(await b.pixEvents.pending()).toEqual([]);
    });

    test('a posted event keeps what tells a repeat of it, not what was posted (its digest)', async () => {
      const a = await space().open();
      const event = { ...pixEvent('s1', new Date().toISOString()), keptUntil: new Date(Date.now() + 60_000).toISOString() };
      await a.pixEvents.add(event);
      await a.pixEvents.markPosted('s1');
      const { dispute: _digest, ...rest } = event;
      expect(await a.pixEvents.get('s1')).toEqual({ ...rest, postedAt: expect.any(String) });
      expect(await a.pixEvents.add(event)).toBe(false);
    });

    test('a payment’s end is recorded with its summary, pending; once posted it keeps only what tells a repeat', async () => {
      const a = await space().open();
      const event: PixEventRecord = {
        hash: 'm1',
        kind: 'MOVEMENT_FAILED',
        receivedAt: new Date().toISOString(),
        movement: { correlationId: 'approval-1', stage: 'failed', code: 'REACH_TRANSFER_LIMIT', description: 'Limite atingido' },
      };
      expect(await a.pixEvents.add(event)).toBe(true);
      expect(await a.pixEvents.get('m1')).toEqual(event);
      expect(await a.pixEvents.pending()).toContain('m1');
      await a.pixEvents.markPosted('m1');
      const { movement: _summary, ...rest } = event;
      expect(await a.pixEvents.get('m1')).toEqual({ ...rest, postedAt: expect.any(String) });
      expect(await a.pixEvents.add(event)).toBe(false);
    });

    test('disputes: saved and replaced; the open ones, most recently updated first; a closed one still found', async () => {
      const [a, b] = [await space().open(), await space().open()];
      await a.pixEvents.saveDispute(dispute('E1', false, '2026-11-25T10:00:00.000Z'));
      await a.pixEvents.saveDispute(dispute('E2', false, '2026-11-25T11:00:00.000Z'));
      await b.pixEvents.saveDispute(dispute('E3', true, '2026-11-25T12:00:00.000Z'));
      expect((await b.pixEvents.openDisputes()).map((d) => d.endToEndId)).toEqual(['E2', 'E1']);
      await b.pixEvents.saveDispute({ ...dispute('E1', true, '2026-11-25T13:00:00.000Z'), rootTs: '1.2' });
      expect((await a.pixEvents.openDisputes()).map((d) => d.endToEndId)).toEqual(['E2']);
      expect(await a.pixEvents.dispute('E1')).toEqual({ ...dispute('E1', true, '2026-11-25T13:00:00.000Z'), rootTs: '1.2' });
      expect(await a.pixEvents.dispute('E3')).toMatchObject({ closed: true });
      expect(await a.pixEvents.dispute('nope')).toBeUndefined();
      // Reopened (a late event of it).
      await a.pixEvents.saveDispute(dispute('E3', false, '2026-11-25T14:00:00.000Z'));
      expect((await b.pixEvents.openDisputes()).map((d) => d.endToEndId)).toEqual(['E3', 'E2']);
    });

    test('a dispute keeps the hashes of its events with it, open or closed: they last as long as it does', async () => {
      const [a, b] = [await space().open(), await space().open()];
      await a.pixEvents.saveDispute({ ...dispute('E4', false, '2026-11-25T10:00:00.000Z'), events: ['h-created'] });
      expect((await b.pixEvents.openDisputes()).find((d) => d.endToEndId === 'E4')?.events).toEqual(['h-created']);
      await b.pixEvents.saveDispute({ ...dispute('E4', true, '2026-11-25T11:00:00.000Z'), events: ['h-created', 'h-accepted'] });
      expect((await a.pixEvents.dispute('E4'))?.events).toEqual(['h-created', 'h-accepted']);
    });
  });
}
