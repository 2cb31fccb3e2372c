import type { WebClient } from '@slack/web-api';
import pLimit from 'p-limit';
import type { Deps } from '../deps';
import type { TrackedRequest } from '../store/tracked-requests';
import { refreshHomesAfterDecision } from '../home';
import { decisionOf } from './decision';
import { DeliveryError, deliverDecision, type DeliveryContext } from './deliver';
import { describeError } from './errors';

export interface TickReport {
  /** Tracked requests looked at in this tick. */
  polled: number;
  /** Decisions delivered (reply in the thread, root updated, request closed) in this tick. */
  decided: number;
  /** Requests whose turn failed (Pix API, Slack or store): they stay open and a later tick resumes. */
  failed: number;
  /** Requests with no decision yet (still in review, or not a usable decision). */
  pending: number;
}

type Outcome = 'decided' | 'pending';

/**
 * One pass over the open requests, `concurrency` at a time. Each request is handled on its own: its
 * failure is logged and counted, and never stops the others. Rejects only when the open requests
 * cannot even be listed.
 */
export async function runTick(deps: Deps, slack: WebClient, concurrency: number, stopping: () => boolean): Promise<TickReport> {
  const started = Date.now();
  const ids = [...new Set(await deps.store.trackedRequests.openIds())];
  const report: TickReport = { polled: 0, decided: 0, failed: 0, pending: 0 };
  const ctx: DeliveryContext = { slack, requests: deps.store.trackedRequests, sandboxMode: deps.sandboxMode, logger: deps.logger };
  const limit = pLimit(concurrency);

  await Promise.all(
    ids.map((id) =>
      limit(async () => {
        // Once stop() is called, requests not yet started wait for the next run of the app.
        if (stopping()) return;
        report.polled++;
        try {
          report[await pollOne(deps, ctx, id)]++;
        } catch (err) {
          report.failed++;
          // 'read': the record or the Pix API; the delivery steps name themselves.
          const step = err instanceof DeliveryError ? err.step : 'read';
          deps.logger.warn(
            { limitRequestId: id, step, ...describeError(err instanceof DeliveryError ? err.cause : err) },
            'limit request poll failed; a later tick retries it',
          );
        }
      }),
    ),
  );

  deps.logger.debug({ poll: { open: ids.length, ...report, ms: Date.now() - started } }, 'limit request poll tick');
  return report;
}

async function pollOne(deps: Deps, ctx: DeliveryContext, id: string): Promise<Outcome> {
  const tracked = await deps.store.trackedRequests.get(id);
  if (!tracked) {
    await deps.store.trackedRequests.untrack(id);
    throw new Error('in the poll set without a record; removed from the poll set');
  }
  if (tracked.closed) {
    // Closed, but the poll set still had it (a crash inside close()): finish the close.
    await deps.store.trackedRequests.close(id);
    return 'decided';
  }
  let closed: TrackedRequest;
  if (tracked.reply) {
    // The reply is in the thread already; only the root update or the close is left. The decision
    // is final, so there is nothing to read again.
    closed = await deliverDecision(ctx, tracked, { status: tracked.reply.status, ...(tracked.reply.approved ? { approved: tracked.reply.approved } : {}) });
  } else {
    const request = await deps.pix.getLimitRequest(deps.mainAppId, id);
    const decision = decisionOf(request);
    if (!decision) return 'pending';
    closed = await deliverDecision(ctx, tracked, { ...decision, ...(request.updatedAt ? { decidedAt: request.updatedAt } : {}) });
  }
  deps.logger.info({ limitRequestId: id, status: closed.reply?.status, replyTs: closed.reply?.ts }, 'limit request decision delivered');
  // Through the poller's client (no retries, a time limit), and awaited, so stop() waits for it.
  await refreshHomesAfterDecision({ ...deps, slack: ctx.slack }, closed);
  return 'decided';
}
