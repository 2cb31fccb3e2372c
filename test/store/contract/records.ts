import { z } from 'zod';
import { StoreMisuseError } from '../../../src/store/errors';
import { recordsOf } from '../../../src/store/records';
import { waitFor } from '../../support/wait';
import { type BackendUnderTest, eachSpace } from './backend';

const MarkSchema = z.object({ below: z.boolean(), blocked: z.boolean() });

/** The keyed records features keep their own state in: durable, first-wins, compare-and-set, listed by kind. */
export function recordsContract(backend: BackendUnderTest): void {
  describe(`keyed records on ${backend.name}`, () => {
    const space = eachSpace(backend);

    test('set, read by another instance and after a restart, replaced, deleted; JSON values of every kind; kinds apart', async () => {
      const a = await space().open();
      await a.records.set('delegation', 'U0ABEL', { delegate: 'U0BRUNO', until: '2026-12-01' });
      await a.records.set('digest-slot', 'U0ABEL', 'a string');
      await a.records.set('note', 'n', null);
      await a.records.set('note', 'list', [1, 'two', { three: 3 }]);
      await a.close();
      const b = await space().open();
      expect(await b.records.get('delegation', 'U0ABEL')).toEqual({ delegate: 'U0BRUNO', until: '2026-12-01' });
      expect(await b.records.get('digest-slot', 'U0ABEL')).toBe('a string');
      expect(await b.records.get('note', 'n')).toBeNull();
      expect(await b.records.get('note', 'list')).toEqual([1, 'two', { three: 3 }]);
      expect(await b.records.get('delegation', 'U0NOBODY')).toBeUndefined();
      await b.records.set('delegation', 'U0ABEL', { delegate: 'U0CARLA', until: '2026-12-02' });
      expect(await b.records.get('delegation', 'U0ABEL')).toEqual({ delegate: 'U0CARLA', until: '2026-12-02' });
      await b.records.delete('delegation', 'U0ABEL');
      await b.records.delete('delegation', 'U0NOBODY');
      expect(await b.records.get('delegation', 'U0ABEL')).toBeUndefined();
      expect(await b.records.get('digest-slot', 'U0ABEL')).toBe('a string');
    });

    test('first one wins: two instances racing for the same keys, each key written by exactly one, the winner’s value kept', async () => {
      const [a, b] = [await space().open(), await space().open()];
      const keys = Array.from({ length: 20 }, (_, i) => `2026-11-25T09:00:${String(i).padStart(2, '0')}.000Z`);
      const won = await Promise.all(
        keys.flatMap((k) => [a.records.setIfAbsent('digest-slot', k, { by: 'a' }), b.records.setIfAbsent('digest-slot', k, { by: 'b' })]),
      );
      for (let i = 0; i < keys.length; i++) {
        const [byA, byB] = [won[2 * i], won[2 * i + 1]];
        expect([byA, byB].filter(Boolean)).toHaveLength(1);
        expect(await a.records.get('digest-slot', keys[i]!)).toEqual({ by: byA ? 'a' : 'b' });
      }
      await a.close();
      const restarted = await space().open();
      expect(await restarted.records.setIfAbsent('digest-slot', keys[0]!, { by: 'later' })).toBe(false);
    });

    test('a lifetime: the record lapses on its own, and a lapsed key is free for setIfAbsent again', async () => {
      const store = await space().open();
      await store.records.set('mark', 'long', 1, 60_000);
      expect(await store.records.setIfAbsent('mark', 'short', 'first', 150)).toBe(true);
      await waitFor('the record to lapse', async () => (await store.records.get('mark', 'short')) === undefined);
      expect(await store.records.setIfAbsent('mark', 'short', 'second', 60_000)).toBe(true);
      expect(await store.records.get('mark', 'short')).toBe('second');
      expect(await store.records.get('mark', 'long')).toBe(1);
      // A lapsed record is no record, for compare-and-set too.
      await store.records.set('mark', 'gone', 'v', 100);
      await waitFor('the record to lapse', async () => (await store.records.get('mark', 'gone')) === undefined);
      expect(await store.records.compareAndSet('mark', 'gone', 'v', 'w')).toBe(false);
      expect(await store.records.get('mark', 'gone')).toBeUndefined();
    });

    test('compare-and-set: only from the value the caller saw (fields in any order), exactly one of two racers, its lifetime kept', async () => {
      const [a, b] = [await space().open(), await space().open()];
      expect(await a.records.compareAndSet('alert', 'acc1', { below: false }, { below: true })).toBe(false); // absent
      await a.records.set('alert', 'acc1', { below: false, blocked: false });
      expect(await a.records.compareAndSet('alert', 'acc1', { below: true, blocked: false }, { below: true, blocked: true })).toBe(false);
      expect(await a.records.get('alert', 'acc1')).toEqual({ below: false, blocked: false });
      const seen = await b.records.get('alert', 'acc1');
      const raced = await Promise.all([
        a.records.compareAndSet('alert', 'acc1', seen, { below: true, blocked: false }),
        b.records.compareAndSet('alert', 'acc1', { blocked: false, below: false }, { blocked: false, below: true }),
      ]);
      expect(raced.filter(Boolean)).toHaveLength(1);
      expect(await b.records.get('alert', 'acc1')).toEqual({ below: true, blocked: false });

      await a.records.set('alert', 'acc2', 'x', 1_000);
      expect(await a.records.compareAndSet('alert', 'acc2', 'x', 'y')).toBe(true);
      expect(await a.records.get('alert', 'acc2')).toBe('y');
      await waitFor(
        'the record set with a lifetime to lapse after its compare-and-set',
        async () => (await a.records.get('alert', 'acc2')) === undefined,
      );
    });

    test('listed by key, at most `limit`, lapsed ones left out; each kind its own', async () => {
      const store = await space().open();
      for (const user of ['U3', 'U1', 'U4', 'U2']) await store.records.set('delegation', user, { user });
      await store.records.set('delegation', 'U0', { user: 'U0' }, 100);
      await store.records.set('other', 'U9', {});
      await waitFor('the short one to lapse', async () => (await store.records.get('delegation', 'U0')) === undefined);
      expect(await store.records.list('delegation', 10)).toEqual(['U1', 'U2', 'U3', 'U4'].map((user) => ({ key: user, value: { user } })));
      expect((await store.records.list('delegation', 2)).map((r) => r.key)).toEqual(['U1', 'U2']);
      await store.records.delete('delegation', 'U1');
      expect((await store.records.list('delegation', 2)).map((r) => r.key)).toEqual(['U2', 'U3']);
      expect(await store.records.list('nothing', 10)).toEqual([]);
    });

    test('kinds, keys, values and lifetimes checked; one kind typed by its schema', async () => {
      const store = await space().open();
      await expect(store.records.set('Bad Kind', 'k', 1)).rejects.toThrow(/kind/);
      await expect(store.records.set('a:b', 'k', 1)).rejects.toThrow(/kind/);
      await expect(store.records.get('mark', '')).rejects.toThrow(/key/);
      await expect(store.records.set('mark', 'k', undefined)).rejects.toThrow(/JSON/);
      await expect(store.records.set('mark', 'k', 1, 0)).rejects.toThrow(/lifetime/);
      await expect(store.records.list('mark', 0)).rejects.toThrow(/limit/);
      await expect(store.records.set('Bad Kind', 'k', 1)).rejects.toBeInstanceOf(StoreMisuseError);

      const marks = recordsOf(store.records, 'balance-alert', MarkSchema);
      expect(await marks.setIfAbsent('acc1', { below: false, blocked: false })).toBe(true);
      const seen = (await marks.get('acc1'))!;
      expect(await marks.compareAndSet('acc1', seen, { ...seen, below: true })).toBe(true);
      expect(await marks.list(10)).toEqual([{ key: 'acc1', value: { below: true, blocked: false } }]);
      await expect(marks.set('acc2', { below: 'no' } as never)).rejects.toThrow();
      await store.records.set('balance-alert', 'acc3', { below: 'not a boolean' });
      await expect(marks.get('acc3')).rejects.toThrow();
    });
  });
}
