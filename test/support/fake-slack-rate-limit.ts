/**
 * Slack's rate limits for the fake Slack, off unless a test sets a rule: per method, per channel (the
 * call's `channel` argument; methods called without one share one bucket), each a token bucket of
 * `perSecond` with a burst of `burst`. A call past its bucket is answered as Slack answers it: HTTP 429,
 * `Retry-After` in whole seconds, `{"ok":false,"error":"ratelimited"}`, and nothing done.
 * https://docs.slack.dev/apis/web-api/rate-limits ("Responding to rate limiting conditions";
 * chat.postMessage: one message per second per channel, short bursts allowed).
 *
 * It also keeps what a test needs to judge the client: every refusal, and every call made on a key
 * before the Retry-After of its last refusal had passed (`ignored`: a client that honours
 * Retry-After makes none).
 */
export interface RateRule {
  perSecond: number;
  burst: number;
  /** Retry-After to announce when it is longer than the time until the next token (seconds). */
  retryAfterS?: number;
}

export interface Refusal {
  method: string;
  channel: string;
  at: number;
  retryAfterS: number;
}

interface Bucket {
  tokens: number;
  at: number;
  /** The end of the Retry-After last announced on this key. */
  until: number;
}

export class FakeSlackRateLimit {
  readonly refusals: Refusal[] = [];
  /** Calls made on a key while the Retry-After of its last refusal was running. */
  readonly ignored: Refusal[] = [];
  private readonly rules = new Map<string, RateRule>();
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Limits `method` (per channel) from now on, each channel's bucket starting full. */
  limit(method: string, rule: RateRule): this {
    this.rules.set(method, rule);
    return this;
  }

  /** Lifts every limit and forgets what was recorded. */
  clear(): void {
    this.rules.clear();
    this.buckets.clear();
    this.refusals.length = 0;
    this.ignored.length = 0;
  }

  refusalsOf(method: string): Refusal[] {
    return this.refusals.filter((r) => r.method === method);
  }

  /** The 429 answer for this call, or undefined when it may go through (its token is taken then). */
  refuse(method: string, args: Record<string, unknown>): { httpStatus: 429; headers: Record<string, string>; body: unknown } | undefined {
    const rule = this.rules.get(method);
    if (!rule) return undefined;
    const channel = typeof args.channel === 'string' ? args.channel : '';
    const key = `${method} ${channel}`;
    const now = this.now();
    let bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, (bucket = { tokens: rule.burst, at: now, until: 0 }));
    bucket.tokens = Math.min(rule.burst, bucket.tokens + ((now - bucket.at) / 1000) * rule.perSecond);
    bucket.at = now;
    if (now < bucket.until) this.ignored.push({ method, channel, at: now, retryAfterS: Math.ceil((bucket.until - now) / 1000) });
    else if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    const untilToken = Math.ceil(((1 - bucket.tokens) / rule.perSecond) * 1000) / 1000;
    const retryAfterS = Math.max(1, Math.ceil(untilToken), rule.retryAfterS ?? 0);
    bucket.until = Math.max(bucket.until, now + retryAfterS * 1000);
    this.refusals.push({ method, channel, at: now, retryAfterS });
    return { httpStatus: 429, headers: { 'retry-after': String(retryAfterS) }, body: { ok: false, error: 'ratelimited' } };
  }
}
