import { setMaxListeners } from 'node:events';
import { describeError, PixOpsError } from '../errors';
import type { Logger } from '../runtime/logger';
import type { Metrics } from '../runtime/metrics';
import { SerialRunner } from '../runtime/serial-runner';
import type { Claims } from '../store/claims';
import { StoreRunCoordinator } from './coordinator';
import { scheduleTicks } from './schedule';

export interface Poller<T> {
  /**
   * Runs one tick now and resolves with its main job's outcome when the tick is done. Never overlaps
   * the schedule's ticks: when one is running, this tick starts right after it (so it sees whatever
   * changed before the call). Rejects when the main job does, or after stop().
   */
  tick(): Promise<T>;
  /** Stops the schedule and waits for a tick in progress (and the start-up job). */
  stop(): Promise<void>;
}

/** What a job is told on each run. */
export interface TickScope {
  /** True once stop() is called: the job starts nothing new (what it has not started waits for the next run of the app). */
  stopping(): boolean;
  /** Aborted when the poller stops: work still waiting for its turn (a Pix call for its place in the budget) is given up. */
  signal: AbortSignal;
}

/** A tick asked of a poller that is stopped (or stopping): it is not run. */
export class PollerStoppedError extends PixOpsError {
  readonly code = 'pixops_poller_stopped';

  constructor() {
    super('The poller is stopped');
  }
}

export type TickJob<T> = (scope: TickScope) => Promise<T>;

/** The work the composition root hands the poller. */
export interface PollerJobs<T> {
  /** Once at start, without waiting for the first tick. Its failure is logged. */
  atStart?: TickJob<unknown>;
  /** Each tick's own job: the tick's outcome (`tick()` resolves with it), counted in the poll runs' metric. */
  main: TickJob<T>;
  /** More work on each tick, beside the main job, on the same instance. Its failure is logged and never fails the tick. */
  also?: Array<TickJob<unknown>>;
}

export interface PollerOptions {
  /** node-cron, 5 or 6 fields. */
  schedule: string;
  /**
   * Several instances share the store (Redis, Postgres): each tick runs on one of them only (see
   * coordinator.ts). Off for the single-process sqlite store.
   */
  distributed?: boolean;
  claims: Claims;
  logger: Logger;
  metrics: Metrics;
}

/**
 * Runs the jobs it is given on `options.schedule`, one tick at a time (an on-demand `tick()` never
 * overlaps a scheduled one), on one instance per tick when `distributed`. It knows nothing of what
 * the jobs do.
 */
export function startPoller<T>(options: PollerOptions, jobs: PollerJobs<T>): Poller<T> {
  const { logger } = options;
  let stopping = false;
  const stopped = new AbortController();
  // Every Pix read of a sweep waiting for its place listens to it (POLL_CONCURRENCY of them, and more): not a leak.
  setMaxListeners(0, stopped.signal);
  const scope: TickScope = { stopping: () => stopping, signal: stopped.signal };
  const startup = jobs.atStart?.(scope).catch((err: unknown) => {
    logger.warn(describeError(err), 'the poller’s start-up job failed; the next tick tries again');
  });
  const runner = new SerialRunner(async () => {
    const also = (jobs.also ?? []).map((job) =>
      job(scope).catch((err: unknown) => {
        logger.warn(describeError(err), 'a tick task failed');
      }),
    );
    try {
      const outcome = await jobs.main(scope);
      options.metrics.pollRun('ok');
      return outcome;
    } catch (err) {
      options.metrics.pollRun('failed');
      throw err;
    } finally {
      await Promise.all(also);
    }
  });
  const task = scheduleTicks(
    options.schedule,
    () =>
      runner.join().catch((err: unknown) => {
        logger.warn(describeError(err), 'poll tick failed');
      }),
    logger,
    options.distributed ? new StoreRunCoordinator(options.claims, logger) : undefined,
  );

  return {
    tick() {
      if (stopping) return Promise.reject(new PollerStoppedError());
      return runner.fresh();
    },
    async stop() {
      stopping = true;
      stopped.abort();
      await task.destroy();
      await Promise.all([runner.idle(), startup]);
    },
  };
}
