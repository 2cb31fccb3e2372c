import { errorText } from '../../errors';
import type { Backend } from '../backend';
import { StoreRefusedError } from '../errors';
import type { Guard } from '../guard';
import { identityIn } from '../identity';
import { KeyvAccountApps } from '../keyv/account-apps';
import { KeyvApprovals } from '../keyv/approvals';
import { KeyvFilingIntents } from '../keyv/filing-intents';
import { openKeyv } from '../keyv/open';
import { KeyvTrackedRequests } from '../keyv/tracked-requests';
import { RedisAuditBackend } from './audit-trail';
import { RedisClaims } from './claims';
import { type ConnectionEvents, closeRedis, connectRedis, createRedisClient, REDIS_COMMAND_TIMEOUT_MS, redisAdapter } from './client';
import { makeOrUpgradeRedis, redisWhere } from './format';
import { RedisPixEvents } from './pix-events';
import { RedisRateWindow } from './rate-window';
import { RedisRecords } from './records';
import { checkRedisSafety } from './safety';
import { RedisSortedIndex } from './sorted-index';

export interface RedisBackendOptions {
  url: string;
  namespace: string;
  holder: string;
  events?: ConnectionEvents;
  /** Time limit of one command (default 2 s). */
  commandTimeoutMs?: number;
  /** How long opening waits for an unreachable Redis before going on without it (default 3 s). */
  connectWaitMs?: number;
  /** The store's guard, for the Pix budget's window (it is handed to the budget, not kept behind the store). */
  guard: Guard;
  /** What the operators should know about this Redis (no persistence; its settings unreadable). */
  onWarning?(message: string): void;
  /** This Redis, reached only after start, may evict keys or holds a newer store: the store refuses every operation from then on. */
  onRefused?(err: Error): void;
  /** A store opened as it is (a copy's source): nothing is made, upgraded or written. */
  existing?: boolean;
}

/**
 * Several instances on one Redis, every key under the namespace, one connection for everything.
 * Records through keyv, the rest on the client directly: claims
 * `SET NX PX`, indexes and the pending events as sorted sets, the audit trail a stream.
 */
export async function openRedisBackend(options: RedisBackendOptions): Promise<Backend> {
  const { namespace } = options;
  const client = createRedisClient(options.url, { commandTimeoutMs: options.commandTimeoutMs, events: options.events });
  await connectRedis(client, options.events, options.connectWaitMs);
  // Checked once, when it is first reached: a Redis that may evict keys is not used; the store is made
  // or brought to this version (a newer one is not used).
  const check = async () => {
    for (const warning of (await checkRedisSafety(client)).warnings) options.onWarning?.(warning);
    if (!options.existing) await makeOrUpgradeRedis(client, namespace, options.holder);
  };
  if (client.isReady) {
    await check().catch(async (err: unknown) => {
      await closeRedis(client);
      throw err;
    });
  } else {
    const late = () => {
      check().then(
        () => client.off('ready', late),
        (err: unknown) => {
          if (err instanceof StoreRefusedError) {
            client.off('ready', late);
            options.onRefused?.(err);
          } else options.onWarning?.(`the Redis store could not be checked: ${errorText(err)} (again when Redis is back)`);
        },
      );
    };
    client.on('ready', late);
  }
  const keyv = openKeyv(redisAdapter(client), namespace);
  const records = new RedisRecords(client, namespace);
  const intents = openKeyv(redisAdapter(client), `${namespace}-intents`);
  return {
    kind: 'redis',
    shared: true,
    timeoutMs: options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS,
    claims: new RedisClaims(client, `${namespace}:claim:`, options.holder),
    accountApps: new KeyvAccountApps(keyv),
    trackedRequests: new KeyvTrackedRequests(keyv, new RedisSortedIndex(client, `${namespace}:tracked:polled`)),
    filingIntents: new KeyvFilingIntents(intents, new RedisSortedIndex(client, `${namespace}:intents-index`)),
    approvals: new KeyvApprovals(keyv, new RedisSortedIndex(client, `${namespace}:approvals:due`)),
    audit: new RedisAuditBackend(client, `${namespace}:audit`),
    pixEvents: new RedisPixEvents(client, namespace),
    records,
    rateWindow: new RedisRateWindow(client, `${namespace}:pix-budget`, options.holder, options.guard),
    identity: () => identityIn(records, redisWhere(namespace)),
    ping: () => client.ping(),
    close: () => closeRedis(client),
  };
}
