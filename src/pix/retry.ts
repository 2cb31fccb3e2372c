export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 200, maxDelayMs: 5_000 };

/** Full jitter (AWS's "exponential backoff and jitter"): spreads the retries of many callers. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(random() * ceiling);
}

/**
 * The wait after a 429 that says nothing of when to come back: 1 s, doubling to 8 s, the upper half
 * jittered (never near 0: the service is telling us to slow down, and a 0 would hit it again at once).
 */
export function rateLimitBackoff(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(8_000, 1_000 * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** `Retry-After` as seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function retryAfterMs(header: unknown, now: number = Date.now()): number | undefined {
  if (typeof header !== 'string' || header.trim() === '') return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}
