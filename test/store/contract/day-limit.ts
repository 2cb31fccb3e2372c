import { DayLimit, saoPauloDay } from '../../../src/payments/day-limit';
import { type BackendUnderTest, eachSpace } from './backend';

/** PAY_DAY_LIMIT's ledger over the keyed records: reservations racing on two instances never pass the limit together. */
export function dayLimitContract(backend: BackendUnderTest): void {
  describe(`the day's limit on ${backend.name}`, () => {
    const space = eachSpace(backend);

    test('the São Paulo day, not the UTC one: 01:00 UTC is still the evening before in São Paulo', () => {
      expect(saoPauloDay(new Date('2026-12-05T01:00:00Z'))).toBe('2026-12-04');
      expect(saoPauloDay(new Date('2026-12-05T03:00:00Z'))).toBe('2026-12-05');
    });

    test('twenty reservations racing on two instances: as many pass as the limit holds, each counted once, and a release frees its part', async () => {
      const [a, b] = [new DayLimit((await space().open()).records, 50_000), new DayLimit((await space().open()).records, 50_000)];
      const day = '2026-12-05';
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).reserve(day, `approval-${i}`, 10_000)));
      expect(results.filter((r) => r.ok)).toHaveLength(5);
      expect(await a.total(day)).toBe(50_000);
      const refused = results.find((r) => !r.ok);
      expect(refused).toEqual({ ok: false, day, total: 50_000, limit: 50_000 });
      const passed = results.flatMap((r, i) => (r.ok ? [i] : []));
      // A resumption reserving again is not counted twice.
      expect(await b.reserve(day, `approval-${passed[0]}`, 10_000)).toEqual({ ok: true, day });
      expect(await b.total(day)).toBe(50_000);
      await a.release(day, `approval-${passed[0]}`);
      expect(await b.total(day)).toBe(40_000);
      expect(await b.reserve(day, 'approval-late', 10_000)).toEqual({ ok: true, day });
      expect(await a.total('2026-12-06')).toBe(0);
    });

    test('without a limit every reservation passes and the day is still counted', async () => {
      const unlimited = new DayLimit((await space().open()).records, undefined);
      expect(await unlimited.reserve('2026-12-05', 'x', 100_000_000)).toEqual({ ok: true, day: '2026-12-05' });
      expect(await unlimited.total('2026-12-05')).toBe(100_000_000);
    });
  });
}
