import { createTask, type Logger as CronLogger, type ScheduledTask } from 'node-cron';
import type { Logger } from '../logger';

/**
 * Runs one job at a time. `join()` returns the run in progress, or starts one (what a scheduled tick
 * wants: when one is running, there is nothing more to do). `fresh()` returns a run that starts now or,
 * when one is in progress, right after it, shared by every caller that asks meanwhile: what an
 * on-demand tick wants, since a run that started earlier may have read the state before the caller's
 * change. Runs never overlap either way.
 */
export class SerialRunner<T> {
  private current: Promise<T> | undefined;
  private queued: Promise<T> | undefined;

  constructor(private readonly job: () => Promise<T>) {}

  join(): Promise<T> {
    return this.current ?? this.queued ?? this.start();
  }

  fresh(): Promise<T> {
    if (!this.current) return this.start();
    this.queued ??= this.current
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    return this.queued;
  }

  /** Resolves when nothing is running or queued (whatever the runs' outcomes). */
  async idle(): Promise<void> {
    while (this.current || this.queued) await (this.queued ?? this.current)!.catch(() => undefined);
  }

  private start(): Promise<T> {
    const run: Promise<T> = this.job().finally(() => {
      if (this.current === run) this.current = undefined;
    });
    this.current = run;
    return run;
  }
}

/**
 * The cron task: `noOverlap`, so a slow tick makes the schedule skip rather than pile up; node-cron's
 * own messages go to our logger.
 */
export function scheduleTicks(expression: string, run: () => Promise<unknown>, logger: Logger): ScheduledTask {
  const task = createTask(expression, () => run(), { name: 'pix-ops:limit-request-poll', noOverlap: true, logger: cronLogger(logger) });
  void Promise.resolve(task.start()).catch((err: unknown) => logger.error({ err: err instanceof Error ? err.message : String(err) }, 'the poll schedule did not start'));
  return task;
}

function cronLogger(logger: Logger): CronLogger {
  const text = (m: string | Error) => (m instanceof Error ? m.message : m);
  return {
    info: (m) => logger.debug({ cron: m }, 'node-cron'),
    debug: (m) => logger.debug({ cron: text(m) }, 'node-cron'),
    // A tick still running when the next one is due is expected with a short schedule: not a warning.
    warn: (m) => (/overlap/i.test(m) ? logger.debug({ cron: m }, 'node-cron: a poll tick is still running') : logger.warn({ cron: m }, 'node-cron')),
    error: (m, err) => logger.error({ cron: text(m), ...(err ? { err: err.message } : {}) }, 'node-cron'),
  };
}
