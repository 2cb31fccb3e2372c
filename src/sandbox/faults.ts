import { z } from 'zod';
import { jsonReply, type Reply } from './http';

/** Which calls a fault applies to, and to how many of them. */
const ruleShape = {
  count: z.number().int().min(1),
  method: z.string().min(1).optional(),
  pathPrefix: z.string().min(1).optional(),
};

export const faultsSchema = z.object({
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  fail: z
    .object({
      ...ruleShape,
      status: z.number().int().min(400).max(599),
      retryAfter: z.number().int().min(0).optional(),
      /**
       * The call is handled (a write happens) and only then answered with this status, as when a
       * gateway loses the service's answer: the client cannot know that it was done.
       */
      afterWrite: z.boolean().optional(),
    })
    .optional(),
  /**
   * The service's rate limit, per AppID: past `perSecond` calls in the last second (a sliding window
   * of the calls it let through), a call is answered 429, with `Retry-After` when given. The 429s are
   * counted (`describe().rateLimited`).
   */
  rateLimit: z.object({ perSecond: z.number().int().min(1).max(100_000), retryAfter: z.number().int().min(0).optional() }).optional(),
  /** The call is handled (a write happens), and only then held this long before it is answered. */
  lateAnswer: z.object({ ...ruleShape, ms: z.number().int().min(1).max(60_000) }).optional(),
});
export type FaultsInput = z.infer<typeof faultsSchema>;
type FailRule = NonNullable<FaultsInput['fail']>;
type LateRule = NonNullable<FaultsInput['lateAnswer']>;
type RateRule = NonNullable<FaultsInput['rateLimit']>;

/** Whether a rule applies to this call; if it does, one of its count is used up. */
function take<R extends { count: number; method?: string; pathPrefix?: string }>(
  rule: R | undefined,
  method: string,
  path: string,
): R | undefined {
  if (!rule) return undefined;
  if (rule.method !== undefined && rule.method.toUpperCase() !== method) return undefined;
  if (rule.pathPrefix !== undefined && !path.startsWith(rule.pathPrefix)) return undefined;
  rule.count -= 1;
  return rule;
}

/** Injected latency and failures of `/api/v1` calls, to exercise clients' retries and timeouts. */
export class Faults {
  latencyMs = 0;
  private failRule: FailRule | undefined;
  private lateRule: LateRule | undefined;
  private rateRule: RateRule | undefined;
  /** Arrival times of the calls let through in the last second, per AppID. */
  private readonly arrivals = new Map<string, number[]>();
  private rateLimited = 0;

  /** Merges: each given part replaces its current setting. */
  configure(input: FaultsInput): void {
    if (input.latencyMs !== undefined) this.latencyMs = input.latencyMs;
    if (input.fail !== undefined) this.failRule = { ...input.fail };
    if (input.lateAnswer !== undefined) this.lateRule = { ...input.lateAnswer };
    if (input.rateLimit !== undefined) {
      this.rateRule = { ...input.rateLimit };
      this.arrivals.clear();
      this.rateLimited = 0;
    }
  }

  reset(): void {
    this.latencyMs = 0;
    this.failRule = undefined;
    this.lateRule = undefined;
    this.rateRule = undefined;
    this.arrivals.clear();
    this.rateLimited = 0;
  }

  describe(): { latencyMs: number; fail: FailRule | null; lateAnswer: LateRule | null; rateLimit: RateRule | null; rateLimited: number } {
    return {
      latencyMs: this.latencyMs,
      fail: this.failRule ? { ...this.failRule } : null,
      lateAnswer: this.lateRule ? { ...this.lateRule } : null,
      rateLimit: this.rateRule ? { ...this.rateRule } : null,
      rateLimited: this.rateLimited,
    };
  }

  /** The 429 for a call over its AppID's rate, if a rate limit is set and this call is past it. */
  takeRateLimit(appId: string | undefined, at: number): Reply | undefined {
    const rule = this.rateRule;
    if (!rule) return undefined;
    const key = appId ?? '';
    const seen = (this.arrivals.get(key) ?? []).filter((t) => t > at - 1_000);
    this.arrivals.set(key, seen);
    if (seen.length < rule.perSecond) {
      seen.push(at);
      return undefined;
    }
    this.rateLimited++;
    const headers = rule.retryAfter === undefined ? undefined : { 'retry-after': String(rule.retryAfter) };
    return jsonReply(429, { error: 'Too many requests' }, headers);
  }

  /**
   * The failure reply for this call, if one is due at this point (before handling it, or after with
   * `afterWrite`); consumes one of the configured count.
   */
  takeFailure(method: string, path: string, afterWrite = false): Reply | undefined {
    if (this.failRule && (this.failRule.afterWrite ?? false) !== afterWrite) return undefined;
    const rule = take(this.failRule, method, path);
    if (!rule) return undefined;
    if (rule.count <= 0) this.failRule = undefined;
    const headers = rule.retryAfter === undefined ? undefined : { 'retry-after': String(rule.retryAfter) };
    return jsonReply(rule.status, { error: 'Sandbox fault' }, headers);
  }

  /** How long to hold this call's answer after handling it, if a late answer is due; else 0. */
  takeLateAnswer(method: string, path: string): number {
    const rule = take(this.lateRule, method, path);
    if (!rule) return 0;
    if (rule.count <= 0) this.lateRule = undefined;
    return rule.ms;
  }
}
