import type { RedisClientType } from '@keyv/redis';
import { type Admission, admissionOf, BOOK_AHEAD_MS, type RateWindow, WINDOW_MS } from '../../pix/budget';

/**
 * Admits one call in one round trip, for every instance on this Redis (the same rules as
 * MemoryRateWindow, pix/budget.ts): a sorted set of the admission times of the last window (Redis's
 * own clock, `TIME`, to the microsecond, so instances' clocks do not matter), the time the next evenly
 * spaced turn is due, a key that holds everyone off after a 429, and one that halves the limit for a
 * while after it. Answers one number as text (Lua's numbers reach the client as integers): a wait (> 0)
 * or a place taken, the call to go in minus that many ms (admissionOf).
 * KEYS: window, blocked, slow, next turn. ARGV: limit, reserve (places left to people: PEOPLE_PLACES
 * for the poller), member (unique), window ms, how far ahead a poller's turn is booked.
 */
const ADMIT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local blocked = redis.call('PTTL', KEYS[2])
if blocked > 0 then return tostring(blocked) end
local limit = tonumber(ARGV[1])
if redis.call('EXISTS', KEYS[3]) == 1 then limit = math.max(1, math.floor(limit / 2)) end
local window = tonumber(ARGV[4])
local nextTurn = tonumber(redis.call('GET', KEYS[4]) or '0')
local reserve = tonumber(ARGV[2])
local at = now
if reserve > 0 and now < nextTurn then
  local ahead = tonumber(ARGV[5])
  if nextTurn - now > ahead then return tostring(math.max(1, math.ceil(nextTurn - now - ahead))) end
  at = nextTurn
end
local cap = math.max(1, limit - reserve)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n >= cap then
  local freeing = redis.call('ZRANGE', KEYS[1], n - cap, n - cap, 'WITHSCORES')
  return tostring(math.max(1, math.ceil(tonumber(freeing[2]) + window - now)))
end
redis.call('ZADD', KEYS[1], at, ARGV[3])
redis.call('PEXPIRE', KEYS[1], 2 * window)
local gap = window / limit
if at - nextTurn >= gap then nextTurn = at end
redis.call('SET', KEYS[4], tostring(nextTurn + gap), 'PX', 2 * window)
return tostring(now - at)
`;

/** KEYS: blocked, slow. ARGV: ms, slowMs. Never shortens a hold already longer. */
const HOLD_OFF = `
local ms = tonumber(ARGV[1])
if redis.call('PTTL', KEYS[1]) < ms then redis.call('SET', KEYS[1], '1', 'PX', ms) end
local slow = ms + tonumber(ARGV[2])
if redis.call('PTTL', KEYS[2]) < slow then redis.call('SET', KEYS[2], '1', 'PX', slow) end
return 1
`;

export class RedisRateWindow implements RateWindow {
  private seq = 0;

  constructor(
    private readonly client: RedisClientType,
    /** `<namespace>:pix-budget`: one budget per deployment. */
    private readonly prefix: string,
    private readonly holder: string,
    /** The store's guard: a time limit and StoreUnavailableError, like every other operation. */
    private readonly guard: <T>(operation: string, run: () => Promise<T>) => Promise<T>,
  ) {}

  async admit(limit: number, reserve: number): Promise<Admission> {
    const member = `${this.holder}:${++this.seq}`;
    const keys = [`${this.prefix}:window`, `${this.prefix}:blocked`, `${this.prefix}:slow`, `${this.prefix}:next`];
    const answer = await this.guard('pix budget', () =>
      this.client.eval(ADMIT, { keys, arguments: [String(limit), String(reserve), member, String(WINDOW_MS), String(BOOK_AHEAD_MS)] }),
    );
    return admissionOf(Number(answer));
  }

  async holdOff(ms: number, slowMs: number): Promise<void> {
    const keys = [`${this.prefix}:blocked`, `${this.prefix}:slow`];
    await this.guard('pix budget', () =>
      this.client.eval(HOLD_OFF, { keys, arguments: [String(Math.max(1, Math.round(ms))), String(slowMs)] }),
    );
  }
}
