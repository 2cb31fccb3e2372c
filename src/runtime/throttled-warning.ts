import type { Logger } from './logger';

/** A warning anyone can cause is logged at most this often: a flood of them must not fill the log. */
export const THROTTLED_WARNING_INTERVAL_MS = 60_000;

export interface ThrottledWarningOptions<Kind extends string> {
  logger: Logger;
  message: string;
  /** The field of the line that counts them all (`refused`). */
  total: string;
  /** The kinds counted apart, each a field of the line (none: only the total). */
  kinds?: readonly Kind[];
  now?: () => number;
}

/**
 * A warning that anyone can cause (a forged webhook, a body over a limit): the first is a line at
 * once; the ones that follow within the minute are only counted, and the next line (at the first one
 * a minute on) says how many came since the last, in all and of each kind.
 */
export class ThrottledWarning<Kind extends string> {
  private lastLine = Number.NEGATIVE_INFINITY;
  private total = 0;
  private readonly counts = new Map<Kind, number>();
  private readonly now: () => number;

  constructor(private readonly options: ThrottledWarningOptions<Kind>) {
    this.now = options.now ?? Date.now;
  }

  /** One more (of `kind`). */
  note(kind?: Kind): void {
    this.total++;
    if (kind !== undefined) this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    const now = this.now();
    if (now - this.lastLine < THROTTLED_WARNING_INTERVAL_MS) return;
    const byKind = Object.fromEntries((this.options.kinds ?? []).map((k) => [k, this.counts.get(k) ?? 0]));
    this.options.logger.warn({ [this.options.total]: this.total, ...byKind }, this.options.message);
    this.lastLine = now;
    this.total = 0;
    this.counts.clear();
  }
}
