import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLogger, SecretRegistry } from '../../src/runtime/logger';
import { StoreRunCoordinator } from '../../src/poller/coordinator';
import { openStore, StoreUnavailableError, type Store } from '../../src/store';
import { MemoryClaims } from '../../src/store/claims';
import { deleteKeys, OwnRedis, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';

const SECRET = 's'.repeat(40);
const quiet = createLogger({ level: 'silent', secrets: new SecretRegistry() });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The same contract on both backends: one holder at a time, expiry, only the holder renews/releases. */
async function exerciseClaims(a: Store, b: Store): Promise<void> {
  expect(await a.claim('k', 300)).toBe(true);
  expect(await a.claim('k', 300)).toBe(false); // held, by anyone (itself included)
  expect(await b.claim('k', 300)).toBe(false);
  expect(await b.renew('k', 300)).toBe(false); // not b's
  await b.release('k'); // not b's: left alone
  expect(await b.claim('k', 300)).toBe(false);
  expect(await a.renew('k', 600)).toBe(true);
  await a.release('k');
  expect(await b.claim('k', 200)).toBe(true);
  await sleep(350); // lapses on its own (a holder that died)
  expect(await a.claim('k', 200)).toBe(true);
  expect(await b.renew('k', 200)).toBe(false);
}

describe('claims', () => {
  test('in memory (sqlite): shared by the stores of one file, expiring', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-claims-'));
    const url = `sqlite://${path.join(dir, 's.sqlite')}`;
    const [a, b] = [await openStore({ url }), await openStore({ url })];
    try {
      await exerciseClaims(a, b);
      const other = await openStore({ url: `sqlite://${path.join(dir, 'other.sqlite')}` });
      expect(await other.claim('k', 1_000)).toBe(true); // another file: another space
      await other.close();
    } finally {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('MemoryClaims forgets lapsed keys', async () => {
    let now = 0;
    const claims = new MemoryClaims(`space-${Date.now()}`, 'me', () => now);
    expect(await claims.claim('a', 10)).toBe(true);
    now = 61_000;
    expect(await claims.claim('b', 10)).toBe(true); // sweeps 'a'
    expect((claims as unknown as { held: Map<string, unknown> }).held.has('a')).toBe(false);
  });

  test('on Redis (127.0.0.1:6379): SET NX PX under the namespace, cleaned up', async () => {
    const namespace = testNamespace('claims');
    const [a, b] = [await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace }), await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace })];
    try {
      await exerciseClaims(a, b);
    } finally {
      await a.close();
      await b.close();
      await deleteKeys(SHARED_REDIS_URL, namespace);
    }
  });

  test('the run coordinator: one instance per tick slot, none while another still polls', async () => {
    const namespace = testNamespace('coord');
    const stores = [await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace }), await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace })];
    const [a, b] = stores.map((s) => new StoreRunCoordinator(s, quiet, 500));
    try {
      const slot = 'task:2030-01-01T00:00:00.000Z';
      const won = await Promise.all([a!.shouldRun(slot, 60_000), b!.shouldRun(slot, 60_000)]);
      expect(won.filter(Boolean)).toHaveLength(1);
      const [winner, loser] = won[0] ? [a!, b!] : [b!, a!];
      // The next slot while the winner still runs: nobody (the lease is held, and renewed past its TTL).
      await sleep(700);
      expect(await loser.shouldRun('task:2030-01-01T00:00:01.000Z', 60_000)).toBe(false);
      await winner.onComplete();
      expect(await loser.shouldRun('task:2030-01-01T00:00:02.000Z', 60_000)).toBe(true);
      await loser.onComplete();
      // A holder that dies (no renewal, no release): its lease lapses within the TTL.
      expect(await winner.shouldRun('task:2030-01-01T00:00:03.000Z', 60_000)).toBe(true);
      (winner as unknown as { stopRenewal(): void }).stopRenewal();
      expect(await loser.shouldRun('task:2030-01-01T00:00:04.000Z', 60_000)).toBe(false);
      await sleep(600);
      expect(await loser.shouldRun('task:2030-01-01T00:00:05.000Z', 60_000)).toBe(true);
      await loser.onComplete();
    } finally {
      for (const s of stores) await s.close();
      await deleteKeys(SHARED_REDIS_URL, namespace);
    }
  });
});

describe('store on a Redis that goes away', () => {
  let redis: OwnRedis;
  beforeAll(async () => {
    redis = await OwnRedis.start();
  });
  afterAll(() => redis.close());

  const record = (id: string) => ({ limitRequestId: id, accountId: 'acc', requesterId: 'U1', channel: 'C1', rootTs: '1.1', requested: { pixDayLimit: 1 }, documents: [], source: 'filed' as const });

  test('stopped: every operation fails at once with StoreUnavailableError; restarted: it reconnects by itself, data intact', async () => {
    const events: string[] = [];
    const store = await openStore({ url: redis.url, secret: SECRET, namespace: 'outage', events: { onDown: () => events.push('down'), onUp: () => events.push('up') } });
    try {
      await store.trackedRequests.track(record('r1'));
      await redis.stop();

      const started = Date.now();
      await expect(store.trackedRequests.get('r1')).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.trackedRequests.openIds()).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.trackedRequests.track(record('r2'))).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.claim('x', 1_000)).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(await store.ping()).toBe(false);
      expect(Date.now() - started).toBeLessThan(1_000); // no waiting for a reconnection
      expect(events).toEqual(['down']);

      await redis.resume();
      const back = Date.now();
      while (!(await store.ping())) {
        if (Date.now() - back > 5_000) throw new Error('the store did not reconnect');
        await sleep(50);
      }
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
      const started = Date.now();
      await expect(store.trackedRequests.get('h1')).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(Date.now() - started).toBeLessThan(1_500);
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
      const back = Date.now();
      while (!(await store.ping())) {
        if (Date.now() - back > 5_000) throw new Error('the store did not connect');
        await sleep(50);
      }
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
