import { createClient, type RedisClientType } from '@keyv/redis';
import { openStore, type Store } from '../../src/store';
import { EVENT_KEEP_MS } from '../../src/store/pix-events';
import { RedisPixEvents } from '../../src/store/redis/pix-events';
import { deleteKeys, keysOf, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { redisBackend } from '../support/store-backends';
import { waitFor } from '../support/wait';
import { SECRET, storeContract } from './contract';
import { APP_ID } from './contract/account-apps';
import { auditEntry, minute } from './contract/audit-trail';
import { pixEvent } from './contract/pix-events';
import { trackedRequest } from './contract/tracked-requests';

// Needs the Redis server on 127.0.0.1:6379 (present on every machine of this project, CI included).
storeContract(redisBackend);

describe('Redis: what is particular to its keys', () => {
  let namespace: string;
  let raw: RedisClientType;
  const stores: Store[] = [];
  const open = async () => {
    const store = await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace });
    stores.push(store);
    return store;
  };
  beforeEach(async () => {
    namespace = testNamespace('redis-keys');
    raw = createClient({ url: SHARED_REDIS_URL }) as unknown as RedisClientType;
    await raw.connect();
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    await raw.close();
    await deleteKeys(SHARED_REDIS_URL, namespace);
  });

  test('every key under the namespace (the requests to poll in a sorted set), with its lifetime; no AppID in clear in any value', async () => {
    const store = await open();
    await store.trackedRequests.track({
      limitRequestId: 'r1',
      accountId: 'a',
      requesterId: 'U',
      channel: 'C',
      requested: {},
      documents: [],
      source: 'filed',
    });
    await store.filingIntents.record({
      intentId: 'i1',
      requesterId: 'U',
      channel: 'C',
      accountId: 'a',
      current: {},
      requested: {},
      documents: [],
      createdAt: minute(0),
    });
    await store.approvals.create({
      id: 'ap1',
      makerId: 'U',
      makerLocale: 'en',
      channel: 'C',
      payload: { action: 'account-create', name: 'n' },
      expiresAt: minute(30),
    });
    await store.accountApps.save({ accountId: 'acc', appId: APP_ID, clientId: 'cl' });
    await store.pixEvents.add(pixEvent('h1', minute(1)));
    await store.pixEvents.add({ ...pixEvent('h2', minute(1)), keptUntil: new Date(Date.now() + EVENT_KEEP_MS).toISOString() });
    await store.pixEvents.saveDispute({ endToEndId: 'E1', channel: 'C', closed: false, firstAt: minute(1), updatedAt: minute(1) });
    await store.audit.append(auditEntry(1, minute(1)));
    await store.records.set('mark', 'k', { v: 1 }, 60_000);
    await store.records.set('mark', 'kept', true);
    await store.claim('c1', 60_000);
    const ns = namespace;
    expect((await keysOf(SHARED_REDIS_URL, namespace)).sort()).toEqual(
      [
        `${ns}-intents::${ns}-intents:i1`,
        `${ns}::${ns}:account-app-client:cl`,
        `${ns}::${ns}:account-app:acc`,
        `${ns}::${ns}:approval:ap1`,
        `${ns}::${ns}:tracked:r1`,
        `${ns}:approvals:due`,
        `${ns}:audit`,
        `${ns}:claim:c1`,
        `${ns}:format`,
        `${ns}:intents-index`,
        `${ns}:tracked:polled`,
        `${ns}:pix-dispute:E1`,
        `${ns}:pix-disputes-open`,
        `${ns}:pix-event:h1`,
        `${ns}:pix-event:h2`,
        `${ns}:pix-events-pending`,
        `${ns}:record:mark:k`,
        `${ns}:record:mark:kept`,
        `${ns}:records:mark`,
        // The store's identity, kept for good.
        `${ns}:record:store:identity`,
        `${ns}:records:store`,
      ].sort(),
    );
    expect(await raw.type(`${ns}:approvals:due`)).toBe('zset');
    expect(await raw.type(`${ns}:intents-index`)).toBe('zset');
    expect(await raw.type(`${ns}:tracked:polled`)).toBe('zset');
    expect(await raw.type(`${ns}:audit`)).toBe('stream');
    // An event with no time of its own is kept for good; one with a time, until its keptUntil.
    expect(await raw.pTTL(`${ns}:pix-event:h1`)).toBe(-1);
    expect(await raw.pTTL(`${ns}:pix-event:h2`)).toBeGreaterThan(EVENT_KEEP_MS - 60_000);
    expect(await raw.pTTL(`${ns}:record:mark:k`)).toBeGreaterThan(50_000);
    expect(await raw.pTTL(`${ns}:record:mark:kept`)).toBe(-1);
    expect(await raw.pTTL(`${ns}:claim:c1`)).toBeGreaterThan(50_000);
    expect(await raw.get(`${ns}:format`)).toBe('1');
    expect(await raw.pTTL(`${ns}:record:store:identity`)).toBe(-1);
    expect(await raw.get(`${ns}:record:mark:k`)).toBe('{"v":1}');
    const values = await Promise.all(
      (await keysOf(SHARED_REDIS_URL, namespace)).map(async (key) =>
        (await raw.type(key)) === 'string' ? String(await raw.get(key)) : '',
      ),
    );
    expect(values.some((v) => v.includes('"clientId":"cl"'))).toBe(true); // Redis really holds the record…
    for (const v of values) expect(v).not.toContain(APP_ID); // …but not the AppID in clear
  });

  test('the requests to poll are read from their sorted set: no SCAN of the keyspace at each tick', async () => {
    const store = await open();
    for (const id of ['r1', 'r2']) {
      await store.trackedRequests.track(trackedRequest(id));
    }
    expect((await store.trackedRequests.openIds()).sort()).toEqual(['r1', 'r2']);
    const watcher = raw.duplicate();
    await watcher.connect();
    const seen: string[] = [];
    try {
      await watcher.monitor((line) => void seen.push(String(line)));
      const marker = `${namespace}:marker`;
      await store.trackedRequests.close('r2');
      expect(await store.trackedRequests.openIds()).toEqual(['r1']);
      expect(await store.trackedRequests.openIds()).toEqual(['r1']);
      // A command after them, to know the monitor has passed them all on.
      await raw.get(marker);
      await waitFor('the monitor to pass the marker on', () => seen.some((l) => l.includes(marker)), 5_000);
    } finally {
      await watcher.close();
    }
    const ours = seen.filter((l) => l.includes(namespace));
    expect(ours.filter((l) => /"scan"/i.test(l))).toEqual([]);
    expect(ours.some((l) => /"zrange"/i.test(l) && l.includes(`${namespace}:tracked:polled`))).toBe(true);
  });

  test('a keyed record that lapsed leaves its kind’s listing when the kind is listed', async () => {
    const store = await open();
    await store.records.set('mark', 'a', 1);
    await store.records.set('mark', 'b', 2, 60_000);
    await raw.del(`${namespace}:record:mark:b`); // as its lifetime would
    expect(await store.records.list('mark', 10)).toEqual([{ key: 'a', value: 1 }]);
    expect(await raw.zRange(`${namespace}:records:mark`, 0, -1)).toEqual(['a']);
  });

  describe('a webhook event is never recorded without being pending', () => {
    test('the connection lost after the first command: the event is recorded and pending, or not recorded at all', async () => {
      const client = createClient({ url: SHARED_REDIS_URL }) as unknown as RedisClientType;
      await client.connect();
      try {
        // The repository's client: the first command goes through, every later one fails as on a lost connection.
        let sent = 0;
        const failing = new Proxy(client, {
          get(target, name, receiver) {
            const value = Reflect.get(target, name, receiver) as unknown;
            if (typeof value !== 'function') return value;
            return (...args: unknown[]) => {
              if (sent++ > 0) return Promise.reject(new Error('connection lost'));
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          },
        });
        const events = new RedisPixEvents(failing, namespace);
        await events.add(pixEvent('cut', '2026-11-25T10:00:00.000Z')).catch(() => undefined);
        const recorded = (await raw.exists(`${namespace}:pix-event:cut`)) === 1;
        const pending = (await raw.zScore(`${namespace}:pix-events-pending`, 'cut')) !== null;
        expect({ recorded, pending }).toEqual({ recorded: pending, pending });
        // And the retry ends with the event pending, whichever it was.
        await new RedisPixEvents(client, namespace).add(pixEvent('cut', '2026-11-25T10:00:08.000Z'));
        expect(await new RedisPixEvents(client, namespace).pending()).toEqual(['cut']);
      } finally {
        await client.close();
      }
    });
  });
});
