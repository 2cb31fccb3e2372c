import { openStore, StoreUnavailableError } from '../../src/store';
import { OwnRedis } from '../support/redis-server';
import { waitFor } from '../support/wait';

const SECRET = 's'.repeat(40);

describe('store on a Redis that goes away', () => {
  let redis: OwnRedis;
  beforeAll(async () => {
    redis = await OwnRedis.start();
  });
  afterAll(() => redis.close());

  const record = (id: string) => ({
    limitRequestId: id,
    accountId: 'acc',
    requesterId: 'U1',
    channel: 'C1',
    rootTs: '1.1',
    requested: { pixDayLimit: 1 },
    documents: [],
    source: 'filed' as const,
  });

  test('stopped: every operation fails at once with StoreUnavailableError; restarted: it reconnects by itself, data intact', async () => {
    const events: string[] = [];
    // A command time limit far past the test's own: waiting for a reconnection would outlast it.
    const store = await openStore({
      url: redis.url,
      secret: SECRET,
      namespace: 'outage',
      commandTimeoutMs: 120_000,
      events: { onDown: () => events.push('down'), onUp: () => events.push('up') },
    });
    try {
      await store.trackedRequests.track(record('r1'));
      await redis.stop();

      await expect(store.trackedRequests.get('r1')).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.trackedRequests.openIds()).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.trackedRequests.track(record('r2'))).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.claim('x', 1_000)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.pixEvents.add({ hash: 'h', kind: 'X', receivedAt: new Date().toISOString() })).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
      await expect(store.records.setIfAbsent('slot', 'k', 1)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(await store.ping()).toBe(false);
      expect(events).toEqual(['down']);

      await redis.resume();
      await waitFor('the store to reconnect', () => store.ping());
      expect(events).toEqual(['down', 'up']);
      expect((await store.trackedRequests.get('r1'))?.limitRequestId).toBe('r1');
      expect(await store.trackedRequests.openIds()).toEqual(['r1']);
    } finally {
      await store.close();
    }
  });

  test('hung (SIGSTOP): operations fail after the command time limit instead of hanging', async () => {
    const store = await openStore({ url: redis.url, secret: SECRET, namespace: 'hung', commandTimeoutMs: 300 });
    try {
      await store.trackedRequests.track(record('h1'));
      redis.pause();
      // A frozen Redis never answers: the rejection is the time limit's doing.
      await expect(store.trackedRequests.get('h1')).rejects.toBeInstanceOf(StoreUnavailableError);
      // A listing too, step by step, each step under the time limit.
      await expect(store.trackedRequests.openIds()).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.records.list('mark', 10)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(await store.ping()).toBe(false);
      redis.unpause();
      expect((await store.trackedRequests.get('h1'))?.limitRequestId).toBe('h1');
    } finally {
      redis.unpause();
      await store.close();
    }
  });

  test('a store opened while Redis is down starts anyway, and works once Redis is there', async () => {
    await redis.stop();
    const opening = openStore({ url: redis.url, secret: SECRET, namespace: 'late', connectWaitMs: 300 });
    const store = await opening; // waits a short while, then goes on without Redis
    try {
      await expect(store.trackedRequests.get('x')).rejects.toBeInstanceOf(StoreUnavailableError);
      await redis.resume();
      await waitFor('the store to connect', () => store.ping());
      expect(await store.trackedRequests.get('x')).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  test('after close(), operations fail at once (no reconnection from a closed store)', async () => {
    const store = await openStore({ url: redis.url, secret: SECRET, namespace: 'closed' });
    await store.close();
    await expect(store.trackedRequests.get('x')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.claim('x', 100)).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});
