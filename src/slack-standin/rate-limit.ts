/**
 * Slack's rate limits for the Slack stand-in, off unless a test sets a rule: per method, per channel (the
 * call's `channel` argument; methods called without one share one bucket), each a token bucket of
 * `perSecond` with a burst of `burst`. A call past its bucket is answered as Slack answers it: HTTP 429,
 * `Retry-After` in whole seconds, `{"ok":false,"error":"ratelimited"}`, and nothing done.
 * https://docs.slack.dev/apis/web-api/rate-limits ("Responding to rate limiting conditions";
 * chat.postMessage: one message per second per channel, short bursts allowed).
 *
 * It also keeps what a test needs to judge the client: every refusal, and every refused call made
 * again (same method, same arguments) before the Retry-After it was given had passed (`ignored`: a
 * client that honours Retry-After makes none). Other calls on the key during a Retry-After are refused
 * too, but not counted as ignoring it: they may have been on their way when the refusal went out.
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

export class SlackStandInRateLimit {
  readonly refusals: Refusal[] = [];
  /** Refused calls made again before their Retry-After had passed. */
  readonly ignored: Refusal[] = [];
  private readonly rules = new Map<string, RateRule>();
  private readonly buckets = new Map<string, Bucket>();
  /** When each refused call (by method and arguments) may be made again. */
  private readonly refusedUntil = new Map<string, number>();

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
    this.refusedUntil.clear();
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
    if (!bucket) {
      bucket = { tokens: rule.burst, at: now, until: 0 };
      this.buckets.set(key, bucket);
    }
    bucket.tokens = Math.min(rule.burst, bucket.tokens + ((now - bucket.at) / 1000) * rule.perSecond);
    bucket.at = now;
    const signature = `${method} ${JSON.stringify(args)}`;
    const again = this.refusedUntil.get(signature);
    if (again !== undefined && now < again) this.ignored.push({ method, channel, at: now, retryAfterS: Math.ceil((again - now) / 1000) });
    if (now >= bucket.until && bucket.tokens >= 1) {
      bucket.tokens -= 1;
      this.refusedUntil.delete(signature);
      return undefined;
    }
    const untilToken = Math.ceil(((1 - bucket.tokens) / rule.perSecond) * 1000) / 1000;
    const retryAfterS = Math.max(1, Math.ceil(untilToken), rule.retryAfterS ?? 0);
    bucket.until = Math.max(bucket.until, now + retryAfterS * 1000);
    this.refusedUntil.set(signature, now + retryAfterS * 1000);
    this.refusals.push({ method, channel, at: now, retryAfterS });
    return { httpStatus: 429, headers: { 'retry-after': String(retryAfterS) }, body: { ok: false, error: 'ratelimited' } };
  }
}
