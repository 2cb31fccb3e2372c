import Keyv from 'keyv';
import { openStore, type Store } from '../../src/store';
import { type FilingIntent, FilingIntentsRepo } from '../../src/store/filing-intents';
import { KeyvIdIndex } from '../../src/store/id-index';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';

const intent = (id: string, createdAt: string): FilingIntent => ({
  intentId: id,
  requesterId: 'U0REQUEST1',
  channel: 'C0FINANCE1',
  accountId: '6840aeca23c0d1fe48c856a3',
  current: { pixDayLimit: 1 },
  requested: { pixDayLimit: 2 },
  documents: [],
  createdAt,
});

describe('filing intents: read through their index, never by scanning the namespace', () => {
  test('a tick’s listing reads the index (the namespace cannot even be scanned); oldest first; a deleted one gone', async () => {
    const records = new Keyv();
    const repo = new FilingIntentsRepo(records, new KeyvIdIndex(new Keyv(), 'intents-index'));
    await repo.record(intent('b', '2026-01-01T10:00:01.000Z'));
    await repo.record(intent('a', '2026-01-01T10:00:00.000Z'));
    await repo.record(intent('c', '2026-01-01T10:00:02.000Z'));
    await repo.delete('c');
    records.iterator = (() => {
      throw new Error('scanned the namespace');
    }) as unknown as typeof records.iterator;
    expect((await repo.list()).map((i) => i.intentId)).toEqual(['a', 'b']);
  });

  test('an indexed id without its record: kept while young (a filing writing it), dropped once old', async () => {
    const index = new KeyvIdIndex(new Keyv(), 'intents-index');
    const repo = new FilingIntentsRepo(new Keyv(), index);
    const at = Date.parse('2026-01-01T10:00:00.000Z');
    await index.add('ghost', at);
    expect(await repo.list(at + 1_000)).toEqual([]);
    expect((await index.entries()).map((e) => e.id)).toEqual(['ghost']);
    await repo.list(at + 5 * 60_000);
    expect(await index.entries()).toEqual([]);
  });

  test('intents an older version left without an index are indexed once, at start', async () => {
    const records = new Keyv();
    await records.set('old', intent('old', '2026-01-01T09:00:00.000Z'));
    const repo = new FilingIntentsRepo(records, new KeyvIdIndex(new Keyv(), 'intents-index'));
    expect(await repo.list()).toEqual([]);
    expect(await repo.adoptUnindexed()).toBe(1);
    expect(await repo.adoptUnindexed()).toBe(0);
    expect((await repo.list()).map((i) => i.intentId)).toEqual(['old']);
  });

  describe('on Redis, one sorted set shared by the instances', () => {
    const namespace = testNamespace('intents-index');
    const stores: Store[] = [];
    afterAll(async () => {
      await Promise.all(stores.map((s) => s.close()));
      await deleteKeys(SHARED_REDIS_URL, namespace);
    });

    test('recorded on one instance, listed and deleted on the other', async () => {
      for (let i = 0; i < 2; i++) stores.push(await openStore({ url: SHARED_REDIS_URL, secret: 's'.repeat(40), namespace }));
      const [a, b] = stores as [Store, Store];
      await a.filingIntents.record(intent('i2', '2026-01-01T10:00:01.000Z'));
      await b.filingIntents.record(intent('i1', '2026-01-01T10:00:00.000Z'));
      expect((await b.filingIntents.list()).map((i) => i.intentId)).toEqual(['i1', 'i2']);
      await b.filingIntents.delete('i2');
      expect((await a.filingIntents.list()).map((i) => i.intentId)).toEqual(['i1']);
    });
  });
});
