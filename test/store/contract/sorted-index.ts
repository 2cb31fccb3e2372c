import { type BackendUnderTest, eachSpace } from './backend';

/** The one sorted-set index (filing intents, approvals): id → score, shared by the instances. */
export function sortedIndexContract(backend: BackendUnderTest): void {
  describe(`the sorted index on ${backend.name}`, () => {
    const space = eachSpace(backend);

    test('put adds or moves; remove; range by score with a limit; all lowest first; count', async () => {
      const index = await space().sortedIndex('contract_index');
      await index.put('c', 30);
      await index.put('a', 10);
      await index.put('b', 20);
      await index.put('d', 40);
      await index.put('c', 5); // moved
      expect(await index.all()).toEqual([
        { id: 'c', score: 5 },
        { id: 'a', score: 10 },
        { id: 'b', score: 20 },
        { id: 'd', score: 40 },
      ]);
      expect(await index.all(2)).toEqual([
        { id: 'c', score: 5 },
        { id: 'a', score: 10 },
      ]);
      expect(await index.range(20, 10)).toEqual([
        { id: 'c', score: 5 },
        { id: 'a', score: 10 },
        { id: 'b', score: 20 },
      ]);
      expect((await index.range(20, 2)).map((e) => e.id)).toEqual(['c', 'a']);
      expect(await index.range(4, 10)).toEqual([]);
      expect(await index.range(100, 0)).toEqual([]);
      expect(await index.all(0)).toEqual([]);
      expect(await index.count()).toBe(4);
      await index.remove('a');
      await index.remove('nope');
      expect((await index.all()).map((e) => e.id)).toEqual(['c', 'b', 'd']);
      expect(await index.count()).toBe(3);
    });

    test('equal scores by id; scores of any size a time in ms takes, zero and negative ones too', async () => {
      const index = await space().sortedIndex('contract_index');
      const late = Date.parse('2100-01-01T00:00:00.000Z');
      await index.put('y', late);
      await index.put('x', late);
      await index.put('z', 0);
      await index.put('w', -5);
      expect(await index.all()).toEqual([
        { id: 'w', score: -5 },
        { id: 'z', score: 0 },
        { id: 'x', score: late },
        { id: 'y', score: late },
      ]);
      expect((await index.range(late, 3)).map((e) => e.id)).toEqual(['w', 'z', 'x']);
    });

    test('two indexes of one space, and one index seen from a second instance', async () => {
      const a = await space().sortedIndex('contract_index');
      const b = await space().sortedIndex('contract_other');
      const again = await space().sortedIndex('contract_index');
      await a.put('one', 1);
      await b.put('two', 2);
      expect((await again.all()).map((e) => e.id)).toEqual(['one']);
      expect((await b.all()).map((e) => e.id)).toEqual(['two']);
      await again.remove('one');
      expect(await a.count()).toBe(0);
    });
  });
}
