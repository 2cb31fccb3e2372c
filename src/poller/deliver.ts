import type { WebClient } from '@slack/web-api';
import { decisionReplyMessage, limitRequestRootMessage } from '../../views/limit-request';
import { presentMessage, type SlackMessage } from '../../views/message';
import type { Locale } from '../i18n';
import { localeResolverFor } from '../slack/user-locale';
import type { Logger } from '../runtime/logger';
import type { TrackedRequest, TrackedRequestsRepo } from '../store/tracked-requests';
import type { DecisionStatus } from '../pix/schemas';
import { isDecisionStatus, type Decision } from './decision';
import { slackErrorCode } from '../slack/error-code';

/** `event_type` of the metadata of a decision reply: how a reply is recognized in its thread. */
export const DECISION_EVENT_TYPE = 'pix_limit_decision';

/**
 * Answers of `chat.update` that no later attempt can change (the root was deleted, the channel
 * archived…). The decision reply is in the thread by then, so the request is closed anyway rather
 * than retried on every tick forever.
 */
export const ROOT_GONE = new Set(['message_not_found', 'cant_update_message', 'channel_not_found', 'is_archived', 'edit_window_closed']);

/** At most this many pages of a thread are read looking for an earlier reply (200 messages each). */
const MAX_THREAD_PAGES = 25;

export interface DeliveryContext {
  slack: WebClient;
  requests: TrackedRequestsRepo;
  sandboxMode: boolean;
  logger: Logger;
}

/** Which step of a delivery failed: the one a later tick resumes at (for the logs). */
export type DeliveryStep = 'find-reply' | 'post-reply' | 'record-reply' | 'update-root' | 'close';

export class DeliveryError extends Error {
  constructor(
    readonly step: DeliveryStep,
    override readonly cause: unknown,
  ) {
    super(`${step} failed`);
  }
}

/**
 * Delivers a decision exactly once: the reply in the thread (unless it is already there, recorded or
 * not), then the root with the final status, then the request is closed. Every step is recorded
 * before the next one starts, so a failure anywhere leaves a state that the next tick resumes from,
 * and a crash between a posted reply and its record is caught by reading the thread first.
 */
export async function deliverDecision(ctx: DeliveryContext, tracked: TrackedRequest, decision: Decision & { decidedAt?: string }): Promise<TrackedRequest> {
  const id = tracked.limitRequestId;
  let record = tracked;
  // The reply and the root are read by the whole channel, in the language of the person who filed the
  // request (as its root was posted): their Slack locale, through the bot's cached resolver. It never
  // fails (pt-BR when Slack cannot tell), so the delivery never waits on it.
  const locale: Locale = await localeResolverFor(ctx.slack).localeOf(record.requesterId);
  if (!record.reply) {
    const earlier = await step('find-reply', () => findDecisionReply(ctx.slack, record));
    let ts: string;
    let status: DecisionStatus = decision.status;
    if (earlier) {
      ts = earlier.ts;
      status = earlier.status ?? decision.status;
      ctx.logger.info({ limitRequestId: id, replyTs: ts }, 'decision reply already in the thread: recorded, not posted again');
    } else {
      const message = badged(ctx, locale, decisionReplyMessage(locale, record, decision.status, decision.approved));
      const posted = await step('post-reply', () =>
        ctx.slack.chat.postMessage({
          channel: record.channel,
          thread_ts: record.rootTs,
          text: message.text,
          blocks: message.blocks,
          metadata: { event_type: DECISION_EVENT_TYPE, event_payload: { limit_request_id: id, status: decision.status } },
        }),
      );
      if (!posted.ts) throw new DeliveryError('post-reply', new Error('chat.postMessage answered without a ts'));
      ts = posted.ts;
    }
    const approved = status === 'APPROVED' ? decision.approved : undefined;
    record = await step('record-reply', () =>
      ctx.requests.recordReply(id, {
        ts,
        status,
        ...(approved ? { approved } : {}),
        decidedAt: decision.decidedAt ?? new Date().toISOString(),
      }),
    );
  }
  const reply = record.reply!;

  const root = badged(ctx, locale, limitRequestRootMessage(locale, record, reply.status, reply.approved));
  await step('update-root', async () => {
    try {
      await ctx.slack.chat.update({ channel: record.channel, ts: record.rootTs, text: root.text, blocks: root.blocks });
    } catch (err) {
      const code = slackErrorCode(err);
      if (code === undefined || !ROOT_GONE.has(code)) throw err;
      ctx.logger.warn({ limitRequestId: id, slackError: code }, 'the thread root cannot be updated any more; closing the request anyway');
    }
  });
  return step('close', () => ctx.requests.close(id));
}

/**
 * The decision reply of this request already in its thread, if any: the one whose metadata names it.
 * Slack only returns metadata with `include_all_metadata`.
 */
export async function findDecisionReply(slack: WebClient, tracked: TrackedRequest): Promise<{ ts: string; status?: DecisionStatus } | undefined> {
  let cursor: string | undefined;
  for (let page = 0; page < MAX_THREAD_PAGES; page++) {
    const res = await slack.conversations.replies({
      channel: tracked.channel,
      ts: tracked.rootTs,
      include_all_metadata: true,
      limit: 200,
      ...(cursor ? { cursor } : {}),
    });
    for (const message of res.messages ?? []) {
      const metadata = message.metadata;
      if (metadata?.event_type !== DECISION_EVENT_TYPE || !message.ts) continue;
      const payload = (metadata.event_payload ?? {}) as Record<string, unknown>;
      if (payload.limit_request_id !== tracked.limitRequestId) continue;
      return { ts: message.ts, ...(isDecisionStatus(payload.status) ? { status: payload.status } : {}) };
    }
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor) return undefined;
  }
  return undefined;
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
