import { z } from 'zod';
import { jsonReply, type Reply } from './http';

export const faultsSchema = z.object({
  latencyMs: z.number().int().min(0).max(60_000).optional(),
  fail: z
    .object({
      status: z.number().int().min(400).max(599),
      count: z.number().int().min(1),
      method: z.string().min(1).optional(),
      pathPrefix: z.string().min(1).optional(),
      retryAfter: z.number().int().min(0).optional(),
    })
    .optional(),
});
export type FaultsInput = z.infer<typeof faultsSchema>;
type FailRule = NonNullable<FaultsInput['fail']>;

/** Injected latency and failures of `/api/v1` calls, to exercise clients' retries and timeouts. */
export class Faults {
  latencyMs = 0;
  private failRule: FailRule | undefined;

  /** Merges: each given part replaces its current setting. */
  configure(input: FaultsInput): void {
    if (input.latencyMs !== undefined) this.latencyMs = input.latencyMs;
    if (input.fail !== undefined) this.failRule = { ...input.fail };
  }

  reset(): void {
    this.latencyMs = 0;
    this.failRule = undefined;
  }

  describe(): { latencyMs: number; fail: FailRule | null } {
    return { latencyMs: this.latencyMs, fail: this.failRule ? { ...this.failRule } : null };
  }

  /** The failure reply for this call, if one is due; consumes one of the configured count. */
  takeFailure(method: string, path: string): Reply | undefined {
    const rule = this.failRule;
    if (!rule) return undefined;
    if (rule.method !== undefined && rule.method.toUpperCase() !== method) return undefined;
    if (rule.pathPrefix !== undefined && !path.startsWith(rule.pathPrefix)) return undefined;
    rule.count -= 1;
    if (rule.count <= 0) this.failRule = undefined;
    const headers = rule.retryAfter === undefined ? undefined : { 'retry-after': String(rule.retryAfter) };
    return jsonReply(rule.status, { error: 'Sandbox fault' }, headers);
  }
}
