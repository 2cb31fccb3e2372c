import { delegationsIn } from '../../../src/approvals/delegations-repo';
import { waitFor } from '../../support/wait';
import { type BackendUnderTest, eachSpace } from './backend';

/** Delegations while away, kept in the keyed records: set, seen by another instance, listed by delegate, ended, lapsed at their end. */
export function delegationsContract(backend: BackendUnderTest): void {
  describe(`delegations on ${backend.name}`, () => {
    const space = eachSpace(backend);
    const now = new Date();
    const tomorrow = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
    const setAt = now.toISOString();

    test('one per away person; another instance and a restart see it; listed by delegate; replaced; ended', async () => {
      const a = delegationsIn(await space().open());
      await a.set('U0ABEL', { delegate: 'U0BRUNO', until: tomorrow, setAt }, now);
      await a.set('U0ANA', { delegate: 'U0BRUNO', until: tomorrow, setAt }, now);
      await a.set('U0CARLA', { delegate: 'U0DAVI', until: tomorrow, setAt }, now);
      const b = delegationsIn(await space().open());
      expect(await b.of('U0ABEL', now)).toEqual({ delegate: 'U0BRUNO', until: tomorrow, setAt });
      expect(await b.of('U0BRUNO', now)).toBeUndefined();
      expect((await b.forDelegate('U0BRUNO', now)).map((d) => d.awayUserId).sort()).toEqual(['U0ABEL', 'U0ANA']);
      expect((await b.active(now)).map((d) => `${d.awayUserId}>${d.delegate}`).sort()).toEqual([
        'U0ABEL>U0BRUNO',
        'U0ANA>U0BRUNO',
        'U0CARLA>U0DAVI',
      ]);
      await b.set('U0ABEL', { delegate: 'U0DAVI', until: tomorrow, setAt }, now);
      expect((await a.forDelegate('U0DAVI', now)).map((d) => d.awayUserId).sort()).toEqual(['U0ABEL', 'U0CARLA']);
      expect(await a.end('U0ABEL', now)).toEqual({ delegate: 'U0DAVI', until: tomorrow, setAt });
      expect(await b.of('U0ABEL', now)).toBeUndefined();
      expect(await b.end('U0ABEL', now)).toBeUndefined();
    });

    test('a delegation lapses on its own once its last day has ended (São Paulo time), also in the store', async () => {
      const store = await space().open();
      const delegations = delegationsIn(store);
      // Its last day is today; the store is told it ends a moment from now, as it will at midnight.
      const today = now.toISOString().slice(0, 10);
      const endOfToday = new Date(Date.parse(`${today}T00:00:00.000Z`) + 86_400_000 + 3 * 3_600_000);
      const almost = new Date(endOfToday.getTime() - 300);
      await delegations.set('U0ABEL', { delegate: 'U0BRUNO', until: today, setAt }, almost);
      expect(await delegations.of('U0ABEL', almost)).toBeDefined();
      // Past its end: not in force, whatever the store still holds.
      expect(await delegations.of('U0ABEL', endOfToday)).toBeUndefined();
      expect(await delegations.forDelegate('U0BRUNO', endOfToday)).toEqual([]);
      // And gone from the store itself once its lifetime is over.
      await waitFor('the record to lapse', async () => (await store.records.get('delegation', 'U0ABEL')) === undefined);
    });
  });
}
