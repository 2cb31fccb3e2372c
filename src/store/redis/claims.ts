import type { RedisClientType } from '@keyv/redis';
import type { Claims } from '../claims';

// Compare-and-act scripts: only the holder (the value) may extend or delete its claim.
const RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/** Claims shared by every instance on one Redis: `SET key holder NX PX ttl`. */
export class RedisClaims implements Claims {
  constructor(
    private readonly client: RedisClientType,
    private readonly prefix: string,
    private readonly holder: string,
  ) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const reply = await this.client.set(this.prefix + key, this.holder, {
      condition: 'NX',
      expiration: { type: 'PX', value: Math.max(1, Math.round(ttlMs)) },
    });
    return reply === 'OK';
  }

  async renew(key: string, ttlMs: number): Promise<boolean> {
    const reply = await this.client.eval(RENEW, {
      keys: [this.prefix + key],
      arguments: [this.holder, String(Math.max(1, Math.round(ttlMs)))],
    });
    return Number(reply) === 1;
  }

  async release(key: string): Promise<void> {
    await this.client.eval(RELEASE, { keys: [this.prefix + key], arguments: [this.holder] });
  }
}
