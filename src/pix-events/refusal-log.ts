import type { Logger } from '../runtime/logger';

/** Refused deliveries are logged at most this often: anyone can send one, and a flood must not fill the log. */
export const REFUSAL_LOG_INTERVAL_MS = 60_000;

/**
 * The log of webhooks refused for their signature: the first refusal is a line at once; the ones that
 * follow within the minute are only counted, and the next line (at the first refusal a minute on)
 * says how many came since the last. The metrics count each one as it comes (receiver.ts).
 */
export class RefusalLog {
  private lastLine = Number.NEGATIVE_INFINITY;
  private unsigned = 0;
  private invalid = 0;

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** One refused delivery: `signed` when it carried a signature that no key verifies. */
  refused(signed: boolean): void {
    if (signed) this.invalid++;
    else this.unsigned++;
    const now = this.now();
    if (now - this.lastLine < REFUSAL_LOG_INTERVAL_MS) return;
    this.logger.warn(
      { refused: this.unsigned + this.invalid, unsigned: this.unsigned, invalid: this.invalid },
      'webhooks refused: missing or invalid signature (at most one line a minute; the count is since the last line)',
    );
    this.lastLine = now;
    this.unsigned = 0;
    this.invalid = 0;
  }
}
