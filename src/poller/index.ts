import type { Deps } from '../deps';
import { describeError } from './errors';
import { scheduleTicks, SerialRunner } from './schedule';
import { pollerSlackClient } from './slack-client';
import { runTick, type TickReport } from './tick';

export type { TickReport } from './tick';

export interface Poller {
  /**
   * Runs one tick now and resolves with its report when every request of it is done. Never overlaps
   * the schedule's ticks: when one is running, this tick starts right after it (so it sees whatever
   * changed before the call). Rejects when the open requests cannot be listed, or after stop().
   */
  tick(): Promise<TickReport>;
  /** Stops the schedule and waits for a tick in progress (requests it has not started are left). */
  stop(): Promise<void>;
}

/**
 * Follows the tracked limit requests on `options.schedule` (node-cron, 5 or 6 fields) and delivers
 * each decision in its thread exactly once (see deliver.ts).
 */
export function startPoller(deps: Deps, options: { schedule: string; concurrency: number }): Poller {
  let stopping = false;
  const slack = pollerSlackClient(deps);
  const runner = new SerialRunner(() => runTick(deps, slack, options.concurrency, () => stopping));
  const task = scheduleTicks(
    options.schedule,
    () =>
      runner.join().catch((err: unknown) => {
        deps.logger.warn(describeError(err), 'limit request poll tick failed');
      }),
    deps.logger,
  );

  return {
    tick() {
      if (stopping) return Promise.reject(new Error('The poller is stopped'));
      return runner.fresh();
    },
    async stop() {
      stopping = true;
      await task.destroy();
      await runner.idle();
    },
  };
}
