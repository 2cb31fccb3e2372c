import type { Store } from '../../../src/store';
import { NoSuchRecordError } from '../../../src/store/errors';
import { type BackendUnderTest, eachSpace } from './backend';

const payload = { action: 'key-add' as const, accountId: '6840aeca23c0d1fe48c856a3', pixKey: 'maker.secret@example.com', type: 'EMAIL' };

async function pending(
  store: Store,
  id: string,
  input: { expiresIn: number; remindIn?: number; escalateIn?: number; rootTs?: string },
  /** When it is made: one time for several, so their order does not hang on how long making them takes. */
  now = Date.now(),
): Promise<void> {
  await store.approvals.create(
    {
      id,
      makerId: 'U0MAKER01',
      makerLocale: 'en',
      channel: 'C0CHANNEL',
      payload,
      expiresAt: new Date(now + input.expiresIn).toISOString(),
      ...(input.remindIn === undefined ? {} : { remindAt: new Date(now + input.remindIn).toISOString() }),
      ...(input.escalateIn === undefined ? {} : { escalateAt: new Date(now + input.escalateIn).toISOString() }),
    },
    new Date(now),
  );
  if (input.rootTs !== '') await store.approvals.update(id, (r) => ({ ...r, rootTs: input.rootTs ?? '1700000000.000100' }));
}

/** Approvals: records with a sealed payload, and the index a tick reads by the time each next needs attention. */
export function approvalsContract(backend: BackendUnderTest): void {
  describe(`approvals on ${backend.name}`, () => {
    const space = eachSpace(backend);

    test('only the due ones, earliest first: an expiry or a reminder past, a record without a root, one being run; settled ones leave', async () => {
      const store = await space().open();
      const now = Date.now();
      await pending(store, 'a000000000000001', { expiresIn: 3_600_000 }, now); // nothing due
      await pending(store, 'a000000000000002', { expiresIn: -2_000 }, now); // expired
      await pending(store, 'a000000000000003', { expiresIn: 3_600_000, remindIn: -1_000 }, now); // reminder due
      await pending(store, 'a000000000000004', { expiresIn: 3_600_000, remindIn: 60_000 }, now); // reminder later
      await pending(store, 'a000000000000005', { expiresIn: 3_600_000, rootTs: '' }, now); // never got its root
      await pending(store, 'a000000000000006', { expiresIn: 3_600_000 }, now);
      await store.approvals.update('a000000000000006', (r) => ({ ...r, state: 'approving' }));
      await pending(store, 'a000000000000007', { expiresIn: 3_600_000, remindIn: 60_000, escalateIn: -1_500 }, now); // escalation due
      // Earliest due first: being run (at once), expired 2 s ago, escalation 1.5 s ago, reminder 1 s ago, rootless since it was made.
      expect(await store.approvals.dueIds()).toEqual([
        'a000000000000006',
        'a000000000000002',
        'a000000000000007',
        'a000000000000003',
        'a000000000000005',
      ]);
      // Escalated: the reminder is what comes next.
      await store.approvals.update('a000000000000007', ({ escalateAt: _, ...r }) => ({ ...r, escalatedAt: new Date().toISOString() }));
      expect(await store.approvals.dueIds()).not.toContain('a000000000000007');
      const other = await space().open();
      expect((await other.approvals.openIds()).sort()).toEqual([
        'a000000000000001',
        'a000000000000002',
        'a000000000000003',
        'a000000000000004',
        'a000000000000005',
        'a000000000000006',
        'a000000000000007',
      ]);
      expect(await other.approvals.openCount()).toBe(7);
      await other.approvals.update('a000000000000002', (r) => ({ ...r, state: 'expired', settled: true }));
      expect(await store.approvals.dueIds()).not.toContain('a000000000000002');
      expect(await store.approvals.openIds()).not.toContain('a000000000000002');
      expect(await store.approvals.openCount()).toBe(6);
      // Ended but not shown yet: still listed, due at once.
      await store.approvals.update('a000000000000001', (r) => ({ ...r, state: 'rejected' }));
      expect((await store.approvals.dueIds())[0]).toBe('a000000000000001');
      // Later on, the reminder of the fourth comes due too.
      expect(await store.approvals.dueIds(Date.now() + 120_000)).toContain('a000000000000004');
      await store.approvals.forget('a000000000000004');
      expect(await store.approvals.openIds()).not.toContain('a000000000000004');
      expect((await store.approvals.get('a000000000000004'))?.state).toBe('pending');
    });

    test('a record round trip, its payload and intent data sealed at rest and bound to it; the wrong secret reads nothing', async () => {
      const store = await space().open();
      await pending(store, 'b000000000000001', { expiresIn: 3_600_000, remindIn: 60_000 });
      const intent = { step: 'post-key', at: '2026-11-25T10:00:00.000Z', data: { keys: ['maker.secret@example.com'] } };
      const updated = await store.approvals.update('b000000000000001', (r) => ({
        ...r,
        state: 'approving',
        checkerId: 'U0CHECK01',
        intent,
        reminders: 1,
        reminding: 2,
      }));
      const read = await (await space().open()).approvals.get('b000000000000001');
      expect(read).toEqual(updated);
      expect(read).toMatchObject({ payload, intent, rootTs: '1700000000.000100', checkerId: 'U0CHECK01', reminders: 1 });
      const { backend: parts } = await space().openBackend();
      const raw = JSON.stringify(await parts.approvals.get('b000000000000001'));
      expect(raw).toContain('U0CHECK01'); // the record is really there…
      expect(raw).not.toContain('maker.secret@example.com'); // …its payload and intent data are not in clear
      const stranger = await space().open({ secret: 'w'.repeat(40) });
      await expect(stranger.approvals.get('b000000000000001')).rejects.toThrow();
      expect(await store.approvals.get('nope')).toBeUndefined();
      await expect(store.approvals.update('nope', (r) => r)).rejects.toThrow(/does not exist/);
      await expect(store.approvals.update('nope', (r) => r)).rejects.toBeInstanceOf(NoSuchRecordError);
    });

    test('two checkers, escalation and delegation on the record: the approvals given in order, whom a delegate decided for, where it was asked', async () => {
      const store = await space().open();
      const now = Date.now();
      await store.approvals.create({
        id: 'd000000000000001',
        makerId: 'U0MAKER01',
        makerLocale: 'pt-BR',
        channel: 'C0CHANNEL',
        payload,
        expiresAt: new Date(now + 3_600_000).toISOString(),
        escalateAt: new Date(now + 600_000).toISOString(),
        required: 2,
      });
      await store.approvals.update('d000000000000001', (r) => ({
        ...r,
        channel: 'D0MAKER01',
        askedIn: 'C0CHANNEL',
        rootTs: '1700000000.000200',
      }));
      const first = { userId: 'U0ANA', at: '2026-11-25T10:00:00.000Z' };
      const second = { userId: 'U0BRUNO', at: '2026-11-25T10:05:00.000Z', forUserId: 'U0ABEL' };
      await store.approvals.update('d000000000000001', (r) => ({ ...r, approvedBy: [first], escalating: true }));
      const other = await space().open();
      const seen = await other.approvals.get('d000000000000001');
      expect(seen).toMatchObject({ required: 2, approvedBy: [first], escalating: true, askedIn: 'C0CHANNEL', channel: 'D0MAKER01' });
      const escalated = await other.approvals.update('d000000000000001', ({ escalateAt: _, escalating: __, ...r }) => ({
        ...r,
        escalatedAt: '2026-11-25T10:03:00.000Z',
        state: 'approving',
        checkerId: 'U0BRUNO',
        approvedBy: [...(r.approvedBy ?? []), second],
      }));
      expect(await store.approvals.get('d000000000000001')).toEqual(escalated);
      expect(escalated.approvedBy).toEqual([first, second]);
      expect(escalated.escalateAt).toBeUndefined();
      const rejected = await store.approvals.update('d000000000000001', (r) => ({ ...r, state: 'rejected', checkerFor: 'U0ABEL' }));
      expect((await other.approvals.get('d000000000000001'))?.checkerFor).toBe(rejected.checkerFor);
      // More than two approvals is not a record.
      await expect(store.approvals.update('d000000000000001', (r) => ({ ...r, approvedBy: [first, second, first] }))).rejects.toThrow();
    });

    test('getMany: the records of many ids in their order, opened as get opens them; undefined for an unknown id', async () => {
      const store = await space().open();
      await pending(store, 'g000000000000001', { expiresIn: 3_600_000 });
      await pending(store, 'g000000000000002', { expiresIn: 3_600_000 });
      const read = await store.approvals.getMany(['g000000000000002', 'g00000000000000x', 'g000000000000001']);
      expect(read.map((r) => r?.id)).toEqual(['g000000000000002', undefined, 'g000000000000001']);
      expect(read[2]).toEqual(await store.approvals.get('g000000000000001'));
      expect(read[2]?.payload).toEqual(payload);
    });

    test('update spares a read when given the record as last written', async () => {
      const store = await space().open();
      await pending(store, 'c000000000000001', { expiresIn: 3_600_000 });
      const known = (await store.approvals.get('c000000000000001'))!;
      const next = await store.approvals.update('c000000000000001', (r) => ({ ...r, state: 'cancelled', settled: true }), known);
      expect(next.updatedAt >= known.updatedAt).toBe(true);
      expect(await store.approvals.get('c000000000000001')).toEqual(next);
      expect(await store.approvals.openCount()).toBe(0);
    });
  });
}
