import type { RedisClientType } from '@keyv/redis';
import type { RecordsStorage, StoredRecord } from '../records';
import { scanStrings } from './client';

/**
 * Each record a string (`<namespace>:record:<kind>:<key>`, its lifetime Redis's own), and each kind's
 * keys in a sorted set (`<namespace>:records:<kind>`, every score 0, so listed by key) read to list
 * them: never a SCAN. A record and its listing change in one script.
 */

/** KEYS: record, listing. ARGV: text, lifetime (ms, or empty), key, 'NX' or ''. */
const SET = `
local done
if ARGV[2] == '' then
  if ARGV[4] == 'NX' then done = redis.call('SET', KEYS[1], ARGV[1], 'NX') else done = redis.call('SET', KEYS[1], ARGV[1]) end
else
  if ARGV[4] == 'NX' then done = redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') else done = redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
end
if not done then return 0 end
redis.call('ZADD', KEYS[2], 0, ARGV[3])
return 1
`;

/** KEYS: record. ARGV: expected, next. */
const COMPARE_AND_SET = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 1
`;

/**
 * Up to ARGV[2] live records of a kind, by key: listed keys whose record lapsed are dropped from the
 * listing on the way. KEYS: listing. ARGV: the records' key prefix, limit. Answers key, text, key, text…
 */
const LIST = `
local limit = tonumber(ARGV[2])
local out = {}
local offset = 0
while #out < 2 * limit do
  local keys = redis.call('ZRANGE', KEYS[1], offset, offset + limit - 1)
  if #keys == 0 then break end
  for _, key in ipairs(keys) do
    local text = redis.call('GET', ARGV[1] .. key)
    if text then
      if #out < 2 * limit then
        out[#out + 1] = key
        out[#out + 1] = text
      end
    else
      redis.call('ZREM', KEYS[1], key)
      offset = offset - 1
    end
  end
  offset = offset + #keys
end
return out
`;

export class RedisRecords implements RecordsStorage {
  constructor(
    private readonly client: RedisClientType,
    private readonly prefix: string,
  ) {}

  private key = (kind: string, key: string) => `${this.prefix}:record:${kind}:${key}`;
  private listing = (kind: string) => `${this.prefix}:records:${kind}`;

  async get(kind: string, key: string): Promise<string | undefined> {
    return (await this.client.get(this.key(kind, key))) ?? undefined;
  }

  async set(kind: string, key: string, text: string, ttlMs?: number): Promise<void> {
    await this.write(kind, key, text, ttlMs, '');
  }

  async setIfAbsent(kind: string, key: string, text: string, ttlMs?: number): Promise<boolean> {
    return this.write(kind, key, text, ttlMs, 'NX');
  }

  async compareAndSet(kind: string, key: string, expected: string, next: string): Promise<boolean> {
    const reply = await this.client.eval(COMPARE_AND_SET, { keys: [this.key(kind, key)], arguments: [expected, next] });
    return Number(reply) === 1;
  }

  async delete(kind: string, key: string): Promise<void> {
    await this.client.multi().del(this.key(kind, key)).zRem(this.listing(kind), key).exec();
  }

  async list(kind: string, limit: number): Promise<Array<{ key: string; text: string }>> {
    const reply = (await this.client.eval(LIST, {
      keys: [this.listing(kind)],
      arguments: [this.key(kind, ''), String(limit)],
    })) as string[];
    const out: Array<{ key: string; text: string }> = [];
    for (let i = 0; i < reply.length; i += 2) out.push({ key: String(reply[i]), text: String(reply[i + 1]) });
    return out;
  }

  async *all(): AsyncGenerator<StoredRecord> {
    const prefix = this.key('', '').slice(0, -1);
    for await (const { key, text } of scanStrings(this.client, `${prefix}*`)) {
      // `<kind>:<key>`: a kind never holds the colon, a key may.
      const rest = key.slice(prefix.length);
      const colon = rest.indexOf(':');
      if (colon < 1) continue;
      const ttlMs = await this.client.pTTL(key);
      if (ttlMs === -2 || ttlMs === 0) continue;
      yield { kind: rest.slice(0, colon), key: rest.slice(colon + 1), text, ...(ttlMs > 0 ? { ttlMs } : {}) };
    }
  }

  private async write(kind: string, key: string, text: string, ttlMs: number | undefined, condition: 'NX' | ''): Promise<boolean> {
    const reply = await this.client.eval(SET, {
      keys: [this.key(kind, key), this.listing(kind)],
      arguments: [text, ttlMs === undefined ? '' : String(ttlMs), key, condition],
    });
    return Number(reply) === 1;
  }
}
