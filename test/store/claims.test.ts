import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StoreRunCoordinator } from '../../src/poller/coordinator';
import { createLogger, SecretRegistry } from '../../src/runtime/logger';
import { openStore, type Store, StoreUnavailableError } from '../../src/store';
import { MemoryClaims } from '../../src/store/claims';
import { deleteKeys, OwnRedis, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { waitFor } from '../support/wait';

const SECRET = 's'.repeat(40);
const quiet = createLogger({ level: 'silent', secrets: new SecretRegistry() });

/**
 * The same contract on both backends: one holder at a time, expiry, only the holder renews/releases.
 * Claims meant to be held are held for a minute (a slow moment must not lapse them); the one meant to
 * lapse is waited for, the deadline a hang guard only.
 */
async function exerciseClaims(a: Store, b: Store): Promise<void> {
  expect(await a.claim('k', 60_000)).toBe(true);
  expect(await a.claim('k', 60_000)).toBe(false); // held, by anyone (itself included)
  expect(await b.claim('k', 60_000)).toBe(false);
  expect(await b.renew('k', 60_000)).toBe(false); // not b's
  await b.release('k'); // not b's: left alone
  expect(await b.claim('k', 60_000)).toBe(false);
  expect(await a.renew('k', 60_000)).toBe(true);
  await a.release('k');
  expect(await b.claim('k', 200)).toBe(true);
  await waitFor('the claim to lapse on its own (a holder that died)', () => a.claim('k', 60_000));
  expect(await b.renew('k', 60_000)).toBe(false);
  await a.release('k');
}

/** A store's claims, counting the renewals that kept the claim; `dies()` stops renewing and releasing, as a killed process. */
function watched(store: Store) {
  let dead = false;
  const claims = {
    kept: 0,
    claim: (key: string, ttlMs: number) => store.claim(key, ttlMs),
    renew: async (key: string, ttlMs: number) => {
      if (dead) return false;
      const ok = await store.renew(key, ttlMs);
      if (ok) claims.kept++;
      return ok;
    },
    release: async (key: string) => (dead ? undefined : store.release(key)),
    dies: () => {
      dead = true;
    },
  };
  return claims;
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
    expect(await claims.claim('c', 120_000)).toBe(true);
    now = 30_000;
    expect(await claims.claim('b', 10)).toBe(true); // no sweep yet: 'a' is still kept
    expect(claims.size).toBe(3);
    now = 61_000;
    expect(await claims.claim('d', 10)).toBe(true); // sweeps 'a' and 'b'
    expect(claims.size).toBe(2);
  });

  test('on Redis (127.0.0.1:6379): SET NX PX under the namespace, cleaned up', async () => {
    const namespace = testNamespace('claims');
    const [a, b] = [
      await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace }),
      await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace }),
    ];
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
    const stores = [
      await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace }),
      await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace }),
    ];
    const claims = stores.map(watched);
    const [a, b] = claims.map((c) => new StoreRunCoordinator(c, quiet, 500));
    let slot = 0;
    const next = () => `task:2030-01-01T00:00:${String(slot++).padStart(2, '0')}.000Z`;
    try {
      const first = next();
      const won = await Promise.all([a!.shouldRun(first, 60_000), b!.shouldRun(first, 60_000)]);
      expect(won.filter(Boolean)).toHaveLength(1);
      const [winner, loser, winnerClaims] = won[0] ? [a!, b!, claims[0]!] : [b!, a!, claims[1]!];
      // The next slot while the winner still runs: nobody (the lease is held, and renewed past its
      // TTL: four renewals, a third of the TTL apart, take longer than the TTL).
      await waitFor('the lease renewed past its TTL', () => winnerClaims.kept >= 4);
      expect(await loser.shouldRun(next(), 60_000)).toBe(false);
      await winner.onComplete();
      expect(await loser.shouldRun(next(), 60_000)).toBe(true);
      await loser.onComplete();
      // A holder that dies (no renewal, no release): its lease lapses within the TTL.
      expect(await winner.shouldRun(next(), 60_000)).toBe(true);
      winnerClaims.dies();
      expect(await loser.shouldRun(next(), 60_000)).toBe(false);
      await waitFor('the dead holder’s lease to lapse', () => loser.shouldRun(next(), 60_000));
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
