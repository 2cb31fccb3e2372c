import type { RedisClientType } from '@keyv/redis';
import { errorText } from '../../errors';
import { StoreRefusedError } from '../errors';

/** What the check found worth a line in the log (the store is used anyway). */
export interface RedisSafety {
  warnings: string[];
}

async function configValue(client: RedisClientType, name: string): Promise<string | undefined> {
  const reply = (await client.configGet(name)) as Record<string, unknown>;
  const value = reply[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * A Redis that keeps the app's state must not drop it: any `maxmemory-policy` but `noeviction` lets
 * Redis evict keys when memory is full (pending approvals, claims, the audit trail) without a word,
 * so it is refused (StoreRefusedError). A Redis with no persistence at all (no AOF, no save points)
 * empties the store when it restarts: a warning. A server that refuses CONFIG GET (a managed Redis,
 * an ACL) is taken as it is, with a warning.
 */
export async function checkRedisSafety(client: RedisClientType): Promise<RedisSafety> {
  let policy: string | undefined;
  let appendonly: string | undefined;
  let save: string | undefined;
  try {
    policy = await configValue(client, 'maxmemory-policy');
    appendonly = await configValue(client, 'appendonly');
    save = await configValue(client, 'save');
  } catch (err) {
    return {
      warnings: [
        `Redis refused CONFIG GET (${errorText(err)}): its maxmemory-policy (it must be noeviction) and its persistence could not be checked`,
      ],
    };
  }
  if (policy !== undefined && policy !== 'noeviction') {
    throw new StoreRefusedError(
      `Redis's maxmemory-policy is ${policy}: it may evict pending approvals, claims or audit entries without a word; set maxmemory-policy noeviction (in redis.conf, or CONFIG SET maxmemory-policy noeviction)`,
    );
  }
  const warnings: string[] = [];
  if (policy === undefined) warnings.push('Redis did not say its maxmemory-policy: it must be noeviction');
  if (appendonly === 'no' && save !== undefined && save.trim() === '') {
    warnings.push(
      'Redis keeps nothing on disk (no persistence: appendonly no, no save points): a restart of Redis empties the store; turn on appendonly yes, or save points',
    );
  }
  return { warnings };
}
