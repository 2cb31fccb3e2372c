import { type Logger as CronLogger, createTask, type ScheduledTask } from 'node-cron';
import { describeError } from '../errors';
import type { Logger } from '../runtime/logger';
import { isStoreUnavailable } from '../store/errors';
import { leaseMsFor, type StoreRunCoordinator } from './coordinator';

export const POLL_TASK_NAME = 'pix-ops:limit-request-poll';
/** How long the claim on one tick's slot lives: longer than any clock skew between instances. */
const SLOT_CLAIM_MS = 60_000;

/**
 * The cron task: `noOverlap`, so a slow tick makes the schedule skip rather than pile up; node-cron's
 * own messages go to our logger. With a coordinator (several instances on a shared store) each tick runs
 * on one instance only (`distributed`): see coordinator.ts.
 */
export function scheduleTicks(
  expression: string,
  run: () => Promise<unknown>,
  logger: Logger,
  coordinator?: StoreRunCoordinator,
): ScheduledTask {
  const task = createTask(expression, () => run(), {
    name: POLL_TASK_NAME,
    noOverlap: true,
    logger: cronLogger(logger),
    ...(coordinator ? { distributed: true, runCoordinator: coordinator, distributedLease: SLOT_CLAIM_MS } : {}),
  });
  if (coordinator) coordinator.leaseMs = leaseMsFor(intervalOf(task));
  void Promise.resolve(task.start()).catch((err: unknown) => logger.error({ ...describeError(err) }, 'the poll schedule did not start'));
  return task;
}

function cronLogger(logger: Logger): CronLogger {
  const text = (m: string | Error) => (m instanceof Error ? m.message : m);
  return {
    info: (m) => logger.debug({ cron: m }, 'node-cron'),
    debug: (m) => logger.debug({ cron: text(m) }, 'node-cron'),
    // A tick still running when the next one is due is expected with a short schedule: not a warning.
    warn: (m) =>
      /overlap/i.test(m) ? logger.debug({ cron: m }, 'node-cron: a poll tick is still running') : logger.warn({ cron: m }, 'node-cron'),
    error: (m, err) =>
      // The coordinator fails closed while the store is down: the tick is skipped, a later one catches up.
      isStoreUnavailable(err)
        ? logger.warn({ cron: text(m), ...describeError(err) }, 'poll tick skipped: the store is unavailable')
        : logger.error({ cron: text(m), ...(err ? describeError(err) : {}) }, 'node-cron'),
  };
}

/** The shortest gap between the next few runs of a task (its interval, for a regular schedule). */
function intervalOf(task: ScheduledTask): number {
  const runs = task.getNextRuns(4).map((d) => d.getTime());
  let gap = Infinity;
  for (let i = 1; i < runs.length; i++) gap = Math.min(gap, runs[i]! - runs[i - 1]!);
  return Number.isFinite(gap) ? gap : 60_000;
}
