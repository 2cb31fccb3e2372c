import { setMaxListeners } from 'node:events';
import type { WebClient } from '@slack/web-api';
import type { Deps } from '../entry/deps';
import type { PixClient } from '../pix/client';
import { errorText } from '../runtime/error-text';
import { StoreRunCoordinator } from './coordinator';
import { describeError } from './errors';
import { SlackPacer } from './pacing';
import { reconcileIntents } from './reconcile';
import { SerialRunner, scheduleTicks } from './schedule';
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
 * each decision in its thread exactly once (see deliver.ts), after settling any filing cut short
 * (reconcile.ts).
 */
export interface PollerOptions {
  schedule: string;
  concurrency: number;
  /** How long a request is held while its decision is delivered (default 60 s). */
  claimTtlMs?: number;
  /**
   * Several instances share the store (Redis): each tick runs on one of them only (see
   * coordinator.ts). Off for the single-process sqlite store.
   */
  distributed?: boolean;
  /**
   * More work for each tick, beside the limit requests, on the same instance and schedule, with the
   * poller's Slack client (the composition root gives the four-eyes approvals' expiry and resumption,
   * approvals/engine.ts). Its failure is logged and never fails the tick.
   */
  alsoOnTick?: (slack: WebClient, stopping: () => boolean, pix: PixClient) => Promise<unknown>;
}

export function startPoller(appDeps: Deps, options: PollerOptions): Poller {
  // The poller's Pix calls queue behind people's in the budget (pix/budget.ts); the reads of a sweep
  // take the places left, which spreads them over the budget instead of firing them at once.
  // Once stopped, a read still waiting for its place is not sent: the tick starts no new request.
  const stopped = new AbortController();
  // Every read waiting for its place listens to it (POLL_CONCURRENCY of them, and more): not a leak.
  setMaxListeners(0, stopped.signal);
  const deps: Deps = { ...appDeps, pix: appDeps.pix.inLane('poller', stopped.signal) };
  let stopping = false;
  const claimTtlMs = options.claimTtlMs ?? 60_000;
  // Survives ticks: a Retry-After still running holds the next tick's calls back too.
  const pacer = new SlackPacer({ maxWaitMs: paceBudgetMs(claimTtlMs), logger: deps.logger });
  const slack = pollerSlackClient(deps, pacer);
  // Filings a previous run left cut short are settled at once, not at the first tick (reconcile.ts).
  const startup = adoptThenReconcile(deps, slack).catch((err: unknown) => {
    deps.logger.warn(describeError(err), 'could not list the filing intents at start; the next tick tries again');
  });
  const alsoOnTick = options.alsoOnTick;
  const runner = new SerialRunner(async () => {
    const more = alsoOnTick?.(slack, () => stopping, deps.pix).catch((err: unknown) => {
      deps.logger.warn({ err: errorText(err) }, 'a tick task failed');
    });
    try {
      const report = await runTick(deps, slack, { concurrency: options.concurrency, claimTtlMs, stopping: () => stopping });
      deps.metrics.pollRun('ok');
      return report;
    } catch (err) {
      deps.metrics.pollRun('failed');
      throw err;
    } finally {
      await more;
    }
  });
  const task = scheduleTicks(
    options.schedule,
    () =>
      runner.join().catch((err: unknown) => {
        deps.logger.warn(describeError(err), 'limit request poll tick failed');
      }),
    deps.logger,
    options.distributed ? new StoreRunCoordinator(deps.store, deps.logger) : undefined,
  );

  return {
    tick() {
      if (stopping) return Promise.reject(new Error('The poller is stopped'));
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

/** Intents an older version recorded without indexing them are indexed first, once (filing-intents.ts). */
async function adoptThenReconcile(deps: Deps, slack: WebClient): Promise<void> {
  const adopted = await deps.store.filingIntents.adoptUnindexed();
  if (adopted > 0) deps.logger.info({ adopted }, 'filing intents recorded before their index: indexed');
  await reconcileIntents(deps, slack);
}

/**
 * How long one Slack call of a delivery may wait for its turn (pace and Retry-After together): an
 * eighth of the delivery claim, between 1 and 10 s, so that the claim outlasts a delivery's three
 * calls with their waits. A longer Retry-After fails the request's turn; a later tick resumes it.
 */
export function paceBudgetMs(claimTtlMs: number): number {
  return Math.min(10_000, Math.max(1_000, Math.floor(claimTtlMs / 8)));
}
