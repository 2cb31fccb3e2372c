import { BalanceMarks } from '../../../src/store/balance-marks';
import { DigestSlots } from '../../../src/store/digest-slots';
import { type BackendUnderTest, eachSpace } from './backend';

const SLOT = '2026-11-26T12:00:00.000Z';

/**
 * The digest's scheduled times (first-wins on the time, a lease while posting, taken over only from a
 * holder that stopped) and the balance marks (the last seen state per account, moved by
 * compare-and-set), over the keyed records: what makes one digest a time and one alert a crossing
 * across instances and restarts.
 */
export function digestAndAlertsContract(backend: BackendUnderTest): void {
  describe(`digest slots and balance marks on ${backend.name}`, () => {
    const space = eachSpace(backend);

    test('a slot: of two instances claiming it at once one takes it; nobody again, after a restart neither; it is the latest', async () => {
      const [a, b] = [await space().open(), await space().open()];
      const [slotsA, slotsB] = [new DigestSlots(a.records), new DigestSlots(b.records)];
      const times = Array.from({ length: 10 }, (_, i) => `2026-11-25T12:00:${String(i).padStart(2, '0')}.000Z`);
      const won = await Promise.all(times.flatMap((t) => [slotsA.claim(t, 'a', 60_000), slotsB.claim(t, 'b', 60_000)]));
      for (let i = 0; i < times.length; i++) expect([won[2 * i], won[2 * i + 1]].filter(Boolean)).toHaveLength(1);
      expect(await slotsB.get(times[0]!)).toMatchObject({ holder: won[0] ? 'a' : 'b', state: 'posting' });
      await a.close();
      const restarted = new DigestSlots((await space().open()).records);
      expect(await restarted.claim(times[0]!, 'a2', 60_000)).toBe(false);
      expect(await restarted.claim(SLOT, 'a2', 60_000)).toBe(true);
      expect(await restarted.latest()).toBe(SLOT);
      expect(await restarted.get('2026-11-25T13:00:00.000Z')).toBeUndefined();
    });

    test('held while renewed; taken over by one of two only once its lease lapsed; the holder that lost it can neither renew nor finish', async () => {
      const [a, b, c] = [await space().open(), await space().open(), await space().open()];
      const [slotsA, slotsB, slotsC] = [a, b, c].map((s) => new DigestSlots(s.records)) as [DigestSlots, DigestSlots, DigestSlots];
      const t0 = Date.parse('2026-11-25T12:00:00Z');
      expect(await slotsA.claim(SLOT, 'a', 10_000, t0)).toBe(true);
      expect(await slotsB.takeOver(SLOT, 'b', 10_000, t0 + 5_000)).toBe(false);
      expect(await slotsA.renew(SLOT, 'a', 10_000, t0 + 8_000)).toBe(true);
      expect(await slotsB.takeOver(SLOT, 'b', 10_000, t0 + 12_000)).toBe(false);
      expect(await slotsB.renew(SLOT, 'b', 10_000, t0 + 12_000)).toBe(false);
      const later = t0 + 19_000;
      const taken = await Promise.all([slotsB.takeOver(SLOT, 'b', 10_000, later), slotsC.takeOver(SLOT, 'c', 10_000, later)]);
      expect(taken.filter(Boolean)).toHaveLength(1);
      const holder = taken[0] ? 'b' : 'c';
      expect(await slotsA.renew(SLOT, 'a', 10_000, later)).toBe(false);
      expect(await slotsA.finish(SLOT, 'a', { state: 'posted', ts: '1.000001' })).toBe(false);
      expect(await (holder === 'b' ? slotsB : slotsC).finish(SLOT, holder, { state: 'posted', ts: '1.000002' })).toBe(true);
      expect(await slotsA.get(SLOT)).toMatchObject({ holder, state: 'posted', ts: '1.000002' });
      // Ended: never taken over, renewed or ended again, however late.
      expect(await slotsA.takeOver(SLOT, 'a', 10_000, later + 3_600_000)).toBe(false);
      expect(await slotsB.finish(SLOT, 'b', { state: 'undelivered', error: 'not_in_channel' })).toBe(false);
    });

    test('undelivered is an end too, with why', async () => {
      const slots = new DigestSlots((await space().open()).records);
      await slots.claim(SLOT, 'a', 10_000);
      expect(await slots.finish(SLOT, 'a', { state: 'undelivered', error: 'not_in_channel' })).toBe(true);
      expect(await slots.get(SLOT)).toMatchObject({ state: 'undelivered', error: 'not_in_channel' });
      expect(await slots.takeOver(SLOT, 'b', 10_000, Date.now() + 60_000)).toBe(false);
    });

    test('the last digest posted (what "since the last digest" counts from): a posted slot, not one undelivered', async () => {
      const space1 = await space().open();
      const slots = new DigestSlots(space1.records);
      expect(await slots.lastPosted()).toBeUndefined();
      await slots.claim(SLOT, 'a', 10_000);
      await slots.finish(SLOT, 'a', { state: 'posted', ts: '1.1' });
      const later = '2026-11-27T12:00:00.000Z';
      await slots.claim(later, 'a', 10_000);
      await slots.finish(later, 'a', { state: 'undelivered', error: 'not_in_channel' });
      expect(await new DigestSlots(space1.records).lastPosted()).toBe(SLOT);
    });

    test('balance marks: first sight written once, moved only from the state read (one of two racers), all read in one listing, after a restart too', async () => {
      const [a, b] = [await space().open(), await space().open()];
      const [marksA, marksB] = [new BalanceMarks(a.records), new BalanceMarks(b.records)];
      const above = { below: false, blocked: false, pending: [] };
      expect(await marksA.first('acc1', above)).toBe(true);
      expect(await marksB.first('acc1', { below: true, blocked: false, pending: [] })).toBe(false);
      expect(await marksB.get('acc1')).toEqual(above);
      const alert = { id: 'alert-1', kind: 'below' as const, available: 90_000, threshold: 100_000, at: '2026-11-25T12:00:00.000Z' };
      const crossed = await Promise.all([
        marksA.move('acc1', above, { below: true, blocked: false, pending: [alert] }),
        marksB.move('acc1', above, { below: true, blocked: false, pending: [{ ...alert, id: 'alert-2' }] }),
      ]);
      expect(crossed.filter(Boolean)).toHaveLength(1);
      const moved = (await marksA.get('acc1'))!;
      expect(moved.pending.map((p) => p.id)).toEqual([crossed[0] ? 'alert-1' : 'alert-2']);
      expect(await marksB.move('acc1', above, above)).toBe(false);
      expect(await marksB.move('acc1', moved, { ...moved, pending: [] })).toBe(true);
      await marksA.first('acc2', { below: true, blocked: true, pending: [] });
      await a.close();
      const restarted = new BalanceMarks((await space().open()).records);
      expect([...(await restarted.all(1_000))]).toEqual([
        ['acc1', { below: true, blocked: false, pending: [] }],
        ['acc2', { below: true, blocked: true, pending: [] }],
      ]);
    });
  });
}
