import type { WebClient } from '@slack/web-api';
import { decisionReplyMessage, limitRequestRootMessage } from '../../views/limit-request';
import { context, presentMessage, type SlackMessage } from '../../views/message';
import { describeError, PixOpsError } from '../errors';
import { type Locale, messages } from '../i18n';
import type { DecisionStatus } from '../pix/schemas';
import type { Logger } from '../runtime/logger';
import { slackErrorCode } from '../slack/error-code';
import { assertExact, type ExactWebClient } from '../slack/exact-client';
import { IncompleteSlackAnswerError } from '../slack/incomplete-answer';
import { findOwnMessage, postToUser } from '../slack/post-once';
import { findThreadRoot, isUnreachable, ROOT_GONE } from '../slack/thread-root';
import type { LocaleResolver } from '../slack/user-locale';
import type { TrackedRequest, TrackedRequestsRepo } from '../store/tracked-requests';
import { type Decision, isDecisionStatus } from './decision';

/** `event_type` of the metadata of a decision reply: how a reply is recognized in its thread. */
export const DECISION_EVENT_TYPE = 'pix_limit_decision';

/**
 * A decision that reaches neither its thread (gone) nor the requester's DM (Slack refuses it: the
 * user deactivated, the DM not allowed…) is given up after this many consecutive ticks…
 */
export const UNDELIVERABLE_TICKS = 5;
/** …spanning at least this long (a fast schedule does not give up within seconds). */
export const UNDELIVERABLE_MS = 15 * 60_000;

/** At most this many pages of a thread are read looking for an earlier reply (200 messages each). */
const MAX_THREAD_PAGES = 25;

export interface DeliveryContext {
  /** A client that makes each call once (on the tick, the paced one: slack/clients.ts). */
  slack: ExactWebClient;
  locales: LocaleResolver;
  requests: TrackedRequestsRepo;
  sandboxMode: boolean;
  logger: Logger;
}

/** Which step of a delivery failed: the one a later tick resumes at (for the logs). */
export type DeliveryStep = 'find-root' | 'find-reply' | 'post-reply' | 'post-dm' | 'record-reply' | 'update-root' | 'close';

export class DeliveryError extends PixOpsError {
  readonly code = 'pixops_limit_request_delivery';

  constructor(
    readonly step: DeliveryStep,
    override readonly cause: unknown,
  ) {
    super(`${step} failed`);
  }

  /** The step, and what failed in it. */
  override describe(): Record<string, unknown> {
    return { step: this.step, ...describeError(this.cause) };
  }
}

/**
 * Delivers a decision exactly once: the reply in the thread (unless it is already there, recorded or
 * not), then the root with the final status, then the request is closed. Every step is recorded
 * before the next one starts, so a failure anywhere leaves a state that the next tick resumes from,
 * and a crash between a posted reply and its record is caught by reading the thread first.
 *
 * When the thread cannot be reached (the root deleted, the bot removed from the channel, the channel
 * archived), or the request has no root at all (none could be posted when it was filed), the decision
 * goes to the requester's DM instead, made once the same way (that DM is read first).
 */
export async function deliverDecision(
  ctx: DeliveryContext,
  tracked: TrackedRequest,
  decision: Decision & { decidedAt?: string },
): Promise<TrackedRequest> {
  assertExact(ctx.slack, 'A decision reply');
  const id = tracked.limitRequestId;
  let record = tracked;
  // The reply and the root are read by the whole channel, in the language of the person who filed the
  // request (as its root was posted): their Slack locale, through the bot's cached resolver. It never
  // fails (pt-BR when Slack cannot tell), so the delivery never waits on it.
  const locale: Locale = await ctx.locales.localeOf(record.requesterId);
  if (!record.reply) {
    if (!record.rootTs) record = await step('find-root', () => attachFoundRoot(ctx, record));
    const posted =
      (record.rootTs && (await inThread(ctx, record, locale, decision))) || (await inDmOrGiveUp(ctx, record, locale, decision));
    if ('closed' in posted) return posted.closed;
    const approved = posted.status === 'APPROVED' ? decision.approved : undefined;
    record = await step('record-reply', () =>
      ctx.requests.recordReply(id, {
        ts: posted.ts,
        ...(posted.channel ? { channel: posted.channel } : {}),
        status: posted.status,
        ...(approved ? { approved } : {}),
        decidedAt: decision.decidedAt ?? new Date().toISOString(),
      }),
    );
  }
  const reply = record.reply!;
  if (record.rootTs) {
    const root = badged(ctx, locale, limitRequestRootMessage(locale, record, reply.status, reply.approved));
    await updateRoot(ctx, record, root);
  }
  return step('close', () => ctx.requests.close(id));
}

/**
 * A request tracked without its root: the root may have been posted with its answer lost, or by a run
 * that died before recording it. Found (in the channel or the requester's DM), it is recorded.
 */
async function attachFoundRoot(ctx: DeliveryContext, record: TrackedRequest): Promise<TrackedRequest> {
  const found = await findThreadRoot(ctx.slack, {
    channel: record.channel,
    userId: record.requesterId,
    limitRequestId: record.limitRequestId,
    since: Date.parse(record.createdAt) || 0,
  });
  if (!found) return record;
  ctx.logger.info({ limitRequestId: record.limitRequestId, channel: found.channel, rootTs: found.ts }, 'thread root found and recorded');
  return ctx.requests.attachRoot(record.limitRequestId, found);
}

type Posted = { ts: string; channel?: string; status: DecisionStatus };

/** The reply in the thread (or the one already there); undefined when the thread cannot be reached. */
async function inThread(ctx: DeliveryContext, record: TrackedRequest, locale: Locale, decision: Decision): Promise<Posted | undefined> {
  const id = record.limitRequestId;
  const unreachable = (err: unknown): undefined => {
    ctx.logger.warn(
      { limitRequestId: id, channel: record.channel, slackError: slackErrorCode(err) },
      'the thread cannot be reached; the decision goes to the requester’s DM',
    );
    return undefined;
  };
  let earlier: Awaited<ReturnType<typeof findDecisionReply>>;
  try {
    earlier = await findDecisionReply(ctx.slack, record);
  } catch (err) {
    if (isUnreachable(err)) return unreachable(err);
    throw new DeliveryError('find-reply', err);
  }
  if (earlier) {
    ctx.logger.info({ limitRequestId: id, replyTs: earlier.ts }, 'decision reply already in the thread: recorded, not posted again');
    return { ts: earlier.ts, status: earlier.status ?? decision.status };
  }
  const message = badged(ctx, locale, decisionReplyMessage(locale, record, decision.status, decision.approved));
  try {
    const posted = await ctx.slack.chat.postMessage({
      channel: record.channel,
      thread_ts: record.rootTs,
      text: message.text,
      blocks: message.blocks,
      metadata: decisionMetadata(id, decision.status),
    });
    if (!posted.ts) throw new IncompleteSlackAnswerError('chat.postMessage answered without a ts');
    return { ts: posted.ts, status: decision.status };
  } catch (err) {
    if (isUnreachable(err)) return unreachable(err);
    throw new DeliveryError('post-reply', err);
  }
}

/**
 * The decision in the requester's DM; when Slack refuses it (an answer, not a failure to reach
 * Slack), the refusal is counted on the request, and past UNDELIVERABLE_TICKS over UNDELIVERABLE_MS
 * the request is closed undelivered (recorded on it, logged) rather than retried on every tick.
 */
async function inDmOrGiveUp(
  ctx: DeliveryContext,
  record: TrackedRequest,
  locale: Locale,
  decision: Decision,
): Promise<Posted | { closed: TrackedRequest }> {
  try {
    return await inDm(ctx, record, locale, decision);
  } catch (err) {
    const code = slackErrorCode(err instanceof DeliveryError ? err.cause : err);
    if (code === undefined) throw err;
    const id = record.limitRequestId;
    const failures = await step('post-dm', () => ctx.requests.noteUndeliverable(id, code));
    if (failures.count < UNDELIVERABLE_TICKS || Date.now() - Date.parse(failures.since) < UNDELIVERABLE_MS) throw err;
    ctx.logger.warn(
      { limitRequestId: id, status: decision.status, slackError: code, ticks: failures.count, since: failures.since },
      'the decision can reach neither its thread nor its requester’s DM: recorded on the request, which is closed',
    );
    return { closed: await step('close', () => ctx.requests.closeUndelivered(id, { status: decision.status, error: code })) };
  }
}

/** The decision in the requester's DM, once: an earlier one there (a run cut short) is taken as it. */
async function inDm(ctx: DeliveryContext, record: TrackedRequest, locale: Locale, decision: Decision): Promise<Posted> {
  return step('post-dm', async () => {
    const reply = decisionReplyMessage(locale, record, decision.status, decision.approved);
    const why = messages(locale).tracking.decisionByDm(Boolean(record.rootTs));
    const message = badged(ctx, locale, { text: reply.text, blocks: [...(reply.blocks ?? []), context(why)] });
    const since = Date.parse(record.createdAt) || 0;
    const posted = await postToUser(ctx.slack, record.requesterId, message, decisionMetadata(record.limitRequestId, decision.status), {
      lookFirst: true,
      since,
    });
    ctx.logger.info(
      { limitRequestId: record.limitRequestId, channel: posted.channel, replyTs: posted.ts },
      'decision sent to the requester’s DM',
    );
    return { ts: posted.ts, channel: posted.channel, status: decision.status };
  });
}

/** The root shows the final status; a root that cannot be updated any more (ROOT_GONE) is left as it is. */
export async function updateRoot(ctx: DeliveryContext, record: TrackedRequest, root: SlackMessage): Promise<void> {
  await step('update-root', async () => {
    try {
      await ctx.slack.chat.update({ channel: record.channel, ts: record.rootTs!, text: root.text, blocks: root.blocks });
    } catch (err) {
      const code = slackErrorCode(err);
      if (code === undefined || !ROOT_GONE.has(code)) throw err;
      ctx.logger.warn(
        { limitRequestId: record.limitRequestId, slackError: code },
        'the thread root cannot be updated any more; closing the request anyway',
      );
    }
  });
}

const decisionMetadata = (limitRequestId: string, status: DecisionStatus) => ({
  event_type: DECISION_EVENT_TYPE,
  event_payload: { limit_request_id: limitRequestId, status },
});

/**
 * The decision reply of this request already in its thread, if any: the one of this bot whose
 * metadata names it (another app could post the same metadata; its message is not ours).
 */
async function findDecisionReply(slack: WebClient, tracked: TrackedRequest): Promise<{ ts: string; status?: DecisionStatus } | undefined> {
  if (!tracked.rootTs) return undefined;
  const found = await findOwnMessage(
    slack,
    { channel: tracked.channel, thread_ts: tracked.rootTs },
    { event_type: DECISION_EVENT_TYPE, event_payload: { limit_request_id: tracked.limitRequestId } },
    0,
    MAX_THREAD_PAGES,
  );
  if (!found) return undefined;
  return { ts: found.ts, ...(isDecisionStatus(found.payload.status) ? { status: found.payload.status } : {}) };
}

function badged(ctx: DeliveryContext, locale: Locale, message: SlackMessage): SlackMessage {
  return presentMessage(message, locale, ctx.sandboxMode);
}

async function step<T>(name: DeliveryStep, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw err instanceof DeliveryError ? err : new DeliveryError(name, err);
  }
}
