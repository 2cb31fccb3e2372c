import pLimit from 'p-limit';
import type { Deps } from '../deps';
import { describeError, PixOpsError } from '../errors';
import { refreshHomesAfterDecision } from '../home';
import { PixApiError } from '../pix/errors';
import type { LimitRequest } from '../pix/schemas';
import type { TrackedRequest } from '../store/tracked-requests';
import { ChannelQueues } from './channel-queues';
import { type Decision, decisionOf } from './decision';
import { type DeliveryContext, deliverDecision } from './deliver';
import { reconcileIntents } from './reconcile';
import { shouldGiveUp, unfollow } from './unfollow';

export interface SweepReport {
  /** Tracked requests looked at in this tick. */
  polled: number;
  /** Decisions delivered (reply in the thread, root updated, request closed) in this tick. */
  decided: number;
  /** Requests whose turn failed (Pix API, Slack or store): they stay open and a later tick resumes. */
  failed: number;
  /** Requests with no decision yet (still in review, or not a usable decision). */
  pending: number;
  /**
   * Decided requests another poller (instance) was delivering at that moment: left to it; and those
   * still waiting for their channel's turn when the poller was stopped: left to the next run.
   */
  skipped: number;
  /** Requests given up after their reads kept answering 404 or 403 (their requester told). */
  unfollowed: number;
}

type Outcome = 'decided' | 'pending' | 'skipped' | 'unfollowed';

/** A decision read in this tick, to be delivered from its channel's queue. */
interface ToDeliver {
  tracked: TrackedRequest;
  decision: Decision & { decidedAt?: string };
}

export interface SweepOptions {
  concurrency: number;
  /** How long a request is held while its decision is delivered (see Config.pollClaimTtlMs). */
  claimTtlMs: number;
  stopping: () => boolean;
}

/**
 * The sweep of the tracked limit requests, on each of the poller's ticks: one pass over the open
 * requests, `concurrency` read at a time, after settling the filings cut short (reconcile.ts). Each
 * request is handled on its own: its failure is logged and counted, and never stops the others. The
 * decisions found are delivered from their channel's queue (channel-queues.ts), paced to Slack's
 * rate limits (slack/pacing.ts), without holding up the reads or the other channels. Rejects only
 * when the open requests cannot even be listed. `deps` are the poller's (src/app.ts): its lane of
 * the Pix budget, the paced Slack clients.
 */
export async function sweepLimitRequests(deps: Deps, options: SweepOptions): Promise<SweepReport> {
  const { stopping } = options;
  const started = Date.now();
  await reconcileIntents(deps).catch((err: unknown) => {
    deps.logger.warn(describeError(err), 'could not list the filing intents; a later tick tries again');
  });
  const ids = [...new Set(await deps.store.trackedRequests.openIds())];
  const report: SweepReport = { polled: 0, decided: 0, failed: 0, pending: 0, skipped: 0, unfollowed: 0 };
  const ctx: DeliveryContext = {
    slack: deps.slack.exact,
    locales: deps.slack.locales,
    requests: deps.store.trackedRequests,
    sandboxMode: deps.sandboxMode,
    logger: deps.logger,
  };
  const limit = pLimit(options.concurrency);
  // As many channels delivering in full at once as requests are read at once.
  const queues = new ChannelQueues(options.concurrency);

  await Promise.all(
    ids.map(async (id) => {
      try {
        const read = await limit(async () => {
          // Once stop() is called, requests not yet started wait for the next run of the app.
          if (stopping()) return undefined;
          report.polled++;
          return pollOne(deps, ctx, id, options.claimTtlMs);
        });
        if (read === undefined) return;
        const outcome =
          typeof read === 'string'
            ? read
            : await queues.run(read.tracked.channel, (queued) =>
                // A delivery still waiting for its turn when stop() is called is left too.
                queued && stopping() ? Promise.resolve<Outcome>('skipped') : deliverOne(deps, ctx, read, options.claimTtlMs),
              );
        report[outcome]++;
      } catch (err) {
        report.failed++;
        // 'read': the record or the Pix API; the delivery steps name themselves (DeliveryError).
        deps.logger.warn({ limitRequestId: id, step: 'read', ...describeError(err) }, 'limit request poll failed; a later tick retries it');
      }
    }),
  );

  // Open after this tick: those it did not close (still in review, failed, left for later).
  deps.metrics.limitRequestsInReview(ids.length - report.decided - report.unfollowed);
  // Info when there was something to poll: one line a tick, which shows the poller alive and how long
  // a tick takes; debug when the poll set is empty.
  const level = ids.length > 0 ? 'info' : 'debug';
  deps.logger[level]({ poll: { open: ids.length, ...report, ms: Date.now() - started } }, 'limit request poll tick');
  return report;
}

/**
 * How long one Slack call of a delivery may wait for its turn (pace and Retry-After together): an
 * eighth of the delivery claim, between 1 and 10 s, so that the claim outlasts a delivery's three
 * calls with their waits. A longer Retry-After fails the request's turn; a later tick resumes it.
 */
export function paceBudgetMs(claimTtlMs: number): number {
  return Math.min(10_000, Math.max(1_000, Math.floor(claimTtlMs / 8)));
}

/** A request in the poll set has no record: it is taken out of the poll set, and the tick logs it. */
export class TrackedRecordMissingError extends PixOpsError {
  readonly code = 'pixops_tracked_record_missing';
}

/** The request's record and, when there is one to deliver, its decision (from the Pix API). */
async function pollOne(deps: Deps, ctx: DeliveryContext, id: string, claimTtlMs: number): Promise<Outcome | ToDeliver> {
  const tracked = await deps.store.trackedRequests.get(id);
  if (!tracked) {
    await deps.store.trackedRequests.untrack(id);
    throw new TrackedRecordMissingError('in the poll set without a record; removed from the poll set');
  }
  if (tracked.closed) {
    // Closed, but the poll set still had it (a crash inside close()): finish the close.
    await deps.store.trackedRequests.close(id);
    return 'decided';
  }
  let decision: Decision & { decidedAt?: string };
  if (tracked.reply) {
    // The reply is in the thread already; only the root update or the close is left. The decision
    // is final, so there is nothing to read again.
    decision = { status: tracked.reply.status, ...(tracked.reply.approved ? { approved: tracked.reply.approved } : {}) };
  } else {
    let request: LimitRequest;
    try {
      request = await deps.pix.getLimitRequest(deps.mainAppId, id);
    } catch (err) {
      if (err instanceof PixApiError && err.kind === 'http' && (err.status === 404 || err.status === 403)) {
        const unreadable = await deps.store.trackedRequests.noteUnreadable(id, err.status, err.error);
        if (shouldGiveUp(unreadable)) return giveUp(deps, ctx, id, claimTtlMs);
      }
      throw err;
    }
    if (tracked.unreadable) await deps.store.trackedRequests.clearUnreadable(id);
    const found = decisionOf(request);
    if (!found) return 'pending';
    decision = { ...found, ...(request.updatedAt ? { decidedAt: request.updatedAt } : {}) };
  }
  return { tracked, decision };
}

async function deliverOne(deps: Deps, ctx: DeliveryContext, { tracked, decision }: ToDeliver, claimTtlMs: number): Promise<Outcome> {
  const id = tracked.limitRequestId;
  // Only one poller delivers a decision at a time (another instance, or an on-demand tick beside a
  // scheduled one): claim the request, then read its record again, since whoever held it before may
  // have delivered it meanwhile. The claim lapses on its own if this process dies while holding it.
  const claimKey = `deliver:${id}`;
  if (!(await deps.store.claim(claimKey, claimTtlMs))) {
    deps.logger.debug({ limitRequestId: id }, 'decision being delivered by another poller');
    return 'skipped';
  }
  let closed: TrackedRequest;
  try {
    const fresh = await deps.store.trackedRequests.get(id);
    if (!fresh || fresh.closed) {
      if (fresh) await deps.store.trackedRequests.close(id);
      return 'skipped';
    }
    closed = await deliverDecision(
      ctx,
      fresh,
      fresh.reply ? { status: fresh.reply.status, ...(fresh.reply.approved ? { approved: fresh.reply.approved } : {}) } : decision,
    );
  } finally {
    await deps.store.release(claimKey).catch((err: unknown) => {
      deps.logger.warn({ limitRequestId: id, ...describeError(err) }, 'could not release a delivery claim; it lapses on its own');
    });
  }
  deps.logger.info({ limitRequestId: id, status: closed.reply?.status, replyTs: closed.reply?.ts }, 'limit request decision delivered');
  // Through the poller's clients (paced, no retries, a time limit), and awaited, so stop() waits for it.
  await refreshHomesAfterDecision(deps, closed);
  return 'decided';
}

/** A request whose reads keep failing with 404 or 403: closed, its requester told (unfollow.ts), under its claim. */
async function giveUp(deps: Deps, ctx: DeliveryContext, id: string, claimTtlMs: number): Promise<Outcome> {
  const claimKey = `deliver:${id}`;
  if (!(await deps.store.claim(claimKey, claimTtlMs))) return 'skipped';
  try {
    const fresh = await deps.store.trackedRequests.get(id);
    if (!fresh || fresh.closed || !fresh.unreadable) return 'skipped';
    await unfollow(ctx, fresh, fresh.unreadable);
    return 'unfollowed';
  } finally {
    await deps.store.release(claimKey).catch(() => undefined);
  }
}
