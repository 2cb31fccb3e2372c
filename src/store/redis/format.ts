import type { RedisClientType } from '@keyv/redis';
import type { Inspection } from '../backend';
import { StoreVersionError } from '../errors';
import { IDENTITY_RECORD, identityIdOf, newIdentityText } from '../identity';
import { RedisRecords } from './records';

/** One step of the format: what turns a namespace's keys at one version into the next one's. */
export type RedisUpgrade = (client: RedisClientType, namespace: string) => Promise<void>;

/**
 * How a namespace is brought from one version to the next: `UPGRADES[0]` takes a 0.1.0 store (version
 * 1) to version 2, and so on. One instance runs them (under the key `<namespace>:format:upgrading`)
 * while the others wait; each step's version is recorded after it, so a step cut short runs again: a
 * step is written to be run again safely. A change of the stored format adds its step here, and its
 * case to test/store/upgrade-0.1.0.test.ts.
 */
const UPGRADES: readonly RedisUpgrade[] = [];

/** The format version this app writes. */
export const REDIS_FORMAT = 1 + UPGRADES.length;

/** How long one instance may hold the upgrade before another takes it over (it died). */
const UPGRADE_LEASE_MS = 5 * 60_000;
/** How often an instance waiting on another's upgrade looks again. */
const WAIT_MS = 200;

const formatKey = (namespace: string) => `${namespace}:format`;
export const redisWhere = (namespace: string) => `the store "${namespace}" in Redis`;

/**
 * Makes the store under `namespace` (its format version, `<namespace>:format`, and its identity), or
 * brings it to this app's version; a namespace at a newer version is refused (StoreVersionError), unchanged.
 */
export async function makeOrUpgradeRedis(
  client: RedisClientType,
  namespace: string,
  holder: string,
  upgrades: readonly RedisUpgrade[] = UPGRADES,
): Promise<void> {
  const known = 1 + upgrades.length;
  const lock = `${formatKey(namespace)}:upgrading`;
  for (;;) {
    const found = Number((await client.get(formatKey(namespace))) ?? 0);
    if (found > known) throw new StoreVersionError(redisWhere(namespace), found, known);
    if (found === known) break;
    if (found === 0) {
      // A new store is made at 0.1.0's version, then upgraded as any other.
      await client.set(formatKey(namespace), '1', { condition: 'NX' });
      continue;
    }
    if ((await client.set(lock, holder, { condition: 'NX', expiration: { type: 'PX', value: UPGRADE_LEASE_MS } })) === null) {
      await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
      continue;
    }
    try {
      // Read again under the lock: another instance may have just finished.
      const from = Number((await client.get(formatKey(namespace))) ?? 0);
      for (let version = from; version < known; version++) {
        await upgrades[version - 1]!(client, namespace);
        await client.set(formatKey(namespace), String(version + 1));
      }
    } finally {
      await client.del(lock);
    }
  }
  await new RedisRecords(client, namespace).setIfAbsent(IDENTITY_RECORD.kind, IDENTITY_RECORD.key, newIdentityText());
}

/** What Redis holds under `namespace`, read without writing anything. */
export async function inspectRedis(client: RedisClientType, namespace: string): Promise<Inspection> {
  const version = Number((await client.get(formatKey(namespace))) ?? 0);
  const id = identityIdOf(await new RedisRecords(client, namespace).get(IDENTITY_RECORD.kind, IDENTITY_RECORD.key));
  return { version, known: REDIS_FORMAT, where: redisWhere(namespace), ...(id === undefined ? {} : { identity: { id } }) };
}
