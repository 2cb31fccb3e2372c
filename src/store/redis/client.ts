import KeyvRedis, { createClient, type RedisClientType } from '@keyv/redis';
import { withDeadline } from '../../runtime/deadline';

/** How long one Redis command may take before it fails (a hung or overloaded server). */
export const REDIS_COMMAND_TIMEOUT_MS = 2_000;
/** How long start-up waits for Redis before going on without it (it keeps trying in the background). */
const START_WAIT_MS = 3_000;

export interface ConnectionEvents {
  /** The connection was lost, or could not be made (once per outage). */
  onDown?(reason: string): void;
  /** The connection is back after an outage. */
  onUp?(): void;
}

/**
 * The Redis client behind the store, set up so that an outage is never a hang:
 * - no offline queue: while disconnected every command fails at once instead of waiting;
 * - a time limit on every command, for a server that is reachable but does not answer;
 * - reconnection forever, backing off to one attempt a second, so the app recovers on its own
 *   when Redis comes back (restart, failover, network).
 */
export function createRedisClient(url: string, options: { commandTimeoutMs?: number; events?: ConnectionEvents } = {}): RedisClientType {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: options.commandTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS },
    socket: {
      connectTimeout: 2_000,
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1_000) + Math.floor(Math.random() * 100),
    },
  }) as unknown as RedisClientType;

  let up: boolean | undefined;
  const down = (reason: string) => {
    if (up === false) return;
    up = false;
    options.events?.onDown?.(reason);
  };
  // Without an 'error' listener node-redis would end the process on the first connection error.
  client.on('error', (err: unknown) => down(err instanceof Error ? err.message || err.name : String(err)));
  client.on('end', () => down('connection closed'));
  client.on('ready', () => {
    if (up === false) options.events?.onUp?.();
    up = true;
  });
  return client;
}

/** The keyv adapter over the shared client: its errors are thrown, never taken for misses. */
export function redisAdapter(client: RedisClientType): KeyvRedis<unknown> {
  return new KeyvRedis(client, { throwOnErrors: true, throwOnConnectError: true });
}

/** Starts connecting; resolves when ready, or after a short wait with the client still trying. */
export async function connectRedis(client: RedisClientType, events?: ConnectionEvents, waitMs = START_WAIT_MS): Promise<void> {
  const connected = client.connect().then(
    () => true,
    () => false,
  );
  const ready = await withDeadline(connected, waitMs).catch(() => false);
  if (!ready) events?.onDown?.('Redis is not reachable yet; the app keeps trying in the background');
}

/**
 * The keys matching `pattern` with their string values, a SCAN page at a time (each page one step of
 * a guarded listing). A key gone between the two commands is left out.
 */
export async function* scanStrings(client: RedisClientType, pattern: string): AsyncGenerator<{ key: string; text: string }> {
  for await (const keys of client.scanIterator({ MATCH: pattern, COUNT: 500 })) {
    if (keys.length === 0) continue;
    const texts = await client.mGet(keys);
    for (let i = 0; i < keys.length; i++) {
      const text = texts[i];
      if (typeof text === 'string') yield { key: String(keys[i]), text };
    }
  }
}

/** Closes gracefully when connected (pending replies are read), at once otherwise. */
export async function closeRedis(client: RedisClientType): Promise<void> {
  if (!client.isOpen) return;
  if (!client.isReady) {
    client.destroy();
    return;
  }
  try {
    await withDeadline(client.close(), 1_000);
  } catch {
    if (client.isOpen) client.destroy();
  }
}
