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
    })
    .optional(),
  /** The call is handled (a write happens), and only then held this long before it is answered. */
  lateAnswer: z.object({ ...ruleShape, ms: z.number().int().min(1).max(60_000) }).optional(),
});
export type FaultsInput = z.infer<typeof faultsSchema>;
type FailRule = NonNullable<FaultsInput['fail']>;
type LateRule = NonNullable<FaultsInput['lateAnswer']>;

/** Whether a rule applies to this call; if it does, one of its count is used up. */
function take<R extends { count: number; method?: string; pathPrefix?: string }>(rule: R | undefined, method: string, path: string): R | undefined {
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

  /** Merges: each given part replaces its current setting. */
  configure(input: FaultsInput): void {
    if (input.latencyMs !== undefined) this.latencyMs = input.latencyMs;
    if (input.fail !== undefined) this.failRule = { ...input.fail };
    if (input.lateAnswer !== undefined) this.lateRule = { ...input.lateAnswer };
  }

  reset(): void {
    this.latencyMs = 0;
    this.failRule = undefined;
    this.lateRule = undefined;
  }

  describe(): { latencyMs: number; fail: FailRule | null; lateAnswer: LateRule | null } {
    return { latencyMs: this.latencyMs, fail: this.failRule ? { ...this.failRule } : null, lateAnswer: this.lateRule ? { ...this.lateRule } : null };
  }

  /** The failure reply for this call, if one is due; consumes one of the configured count. */
  takeFailure(method: string, path: string): Reply | undefined {
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
