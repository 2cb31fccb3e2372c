import { StoreRunCoordinator } from '../../../src/poller/coordinator';
import { createLogger, SecretRegistry } from '../../../src/runtime/logger';
import type { Store } from '../../../src/store';
import { waitFor } from '../../support/wait';
import { type BackendUnderTest, eachSpace } from './backend';

const quiet = createLogger({ level: 'silent', secrets: new SecretRegistry() });

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

/**
 * One holder at a time, expiry, only the holder renews or releases; two instances of one state.
 * Claims meant to be held are held for a minute (a slow moment must not lapse them); the one meant to
 * lapse is waited for, the deadline a hang guard only.
 */
export function claimsContract(backend: BackendUnderTest): void {
  describe(`claims on ${backend.name}`, () => {
    const space = eachSpace(backend);

    test('exclusive, by anyone (the holder included); only the holder renews or releases; a lapsed claim is free again', async () => {
      const [a, b] = [await space().open(), await space().open()];
      expect(await a.claim('k', 60_000)).toBe(true);
      expect(await a.claim('k', 60_000)).toBe(false);
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
      expect(await b.claim('k', 60_000)).toBe(true);
      expect(await a.renew('nobody', 60_000)).toBe(false);
    });

    test('claims asked at once, each for its own time: a key asked twice goes to its first asker; each lapses at its own time', async () => {
      const a = await space().open();
      expect(await Promise.all([a.claim('x', 200), a.claim('y', 60_000), a.claim('x', 60_000)])).toEqual([true, true, false]);
      await waitFor('x to lapse on its own', () => a.claim('x', 60_000));
      expect(await a.claim('y', 60_000)).toBe(false);
    });

    test('two instances racing for the same keys: each key goes to exactly one', async () => {
      const [a, b] = [await space().open(), await space().open()];
      const keys = Array.from({ length: 20 }, (_, i) => `race-${i}`);
      const won = await Promise.all(keys.flatMap((k) => [a.claim(k, 60_000), b.claim(k, 60_000), a.claim(k, 60_000)]));
      for (let i = 0; i < keys.length; i++) expect(won.slice(3 * i, 3 * i + 3).filter(Boolean)).toHaveLength(1);
    });

    test('the run coordinator over them: one instance per tick slot, none while another still polls, a dead holder’s lease lapses', async () => {
      const claims = [watched(await space().open()), watched(await space().open())];
      const [a, b] = claims.map((c) => new StoreRunCoordinator(c, quiet, 500)) as [StoreRunCoordinator, StoreRunCoordinator];
      let slot = 0;
      const next = () => `task:2030-01-01T00:00:${String(slot++).padStart(2, '0')}.000Z`;
      const first = next();
      const won = await Promise.all([a.shouldRun(first, 60_000), b.shouldRun(first, 60_000)]);
      expect(won.filter(Boolean)).toHaveLength(1);
      const [winner, loser, winnerClaims] = won[0] ? [a, b, claims[0]!] : [b, a, claims[1]!];
      // The next slot while the winner still runs: nobody (the lease is held, and renewed past its
      // TTL: four renewals, a third of the TTL apart, take longer than the TTL).
      await waitFor('the lease renewed past its TTL', () => winnerClaims.kept >= 4);
      expect(await loser.shouldRun(next(), 60_000)).toBe(false);
      await winner.onComplete();
      expect(await loser.shouldRun(next(), 60_000)).toBe(true);
      await loser.onComplete();
      expect(await winner.shouldRun(next(), 60_000)).toBe(true);
      winnerClaims.dies();
      expect(await loser.shouldRun(next(), 60_000)).toBe(false);
      await waitFor('the dead holder’s lease to lapse', () => loser.shouldRun(next(), 60_000));
      await loser.onComplete();
      await winner.onComplete();
    });
  });
}
