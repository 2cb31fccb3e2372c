import { randomUUID } from 'node:crypto';
import type { WebClient } from '@slack/web-api';
import { PixOpsError } from '../errors';
import { ownBotId } from './bot-identity';
import { slackErrorCode } from './error-code';
import { assertExact, type ExactWebClient } from './exact-client';
import { IncompleteSlackAnswerError } from './incomplete-answer';

/** Metadata that names what a message is (the app's event type, and a payload with its ids). */
export interface OnceMetadata {
  event_type: string;
  event_payload: Record<string, string | number | boolean>;
}

/** `event_type` of a message that is only news (an announcement, a notice to one person). */
export const NOTICE_EVENT_TYPE = 'pix_ops_notice';

/** Metadata for a notice: an id of its own, by which a resend after a lost answer is recognized. */
export const noticeMetadata = (): OnceMetadata => ({ event_type: NOTICE_EVENT_TYPE, event_payload: { notice_id: randomUUID() } });

export interface PostedMessage {
  channel: string;
  ts: string;
}

export interface FoundMessage extends PostedMessage {
  payload: Record<string, unknown>;
}

/** The post may or may not have happened, and the look-up that would tell could not be made. */
export class PostUnknownError extends PixOpsError {
  readonly code = 'pixops_slack_post_unknown';

  constructor(override readonly cause: unknown) {
    super('chat.postMessage failed without an answer, and the channel could not be read to tell whether it was posted');
  }
}

/** Attempts of one post (the first one included). */
const MAX_ATTEMPTS = 3;
/** A rate limit longer than this is not waited out: the caller's own retry path takes over. */
const MAX_RATE_LIMIT_WAIT_MS = 10_000;
/** How far before `since` a look-up reaches: the app's clock and Slack's may differ. */
const CLOCK_MARGIN_MS = 5 * 60_000;
/** At most this many pages (200 messages each) are read looking for a message. */
const MAX_PAGES = 10;

/**
 * Errors that leave a post in doubt: Slack says of `internal_error` and `fatal_error` that "it's
 * possible some aspect of the operation succeeded" (https://docs.slack.dev/reference/methods/chat.postMessage#errors).
 * Any other `ok: false` answer is a refusal: nothing was posted.
 */
const IN_DOUBT_CODES = new Set(['internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

type FailureKind = 'refused' | 'rate-limited' | 'in-doubt';

function failureKind(err: unknown): FailureKind {
  // A call held back before it was sent (the poller's pacer): nothing can have been posted.
  if ((err as { notSent?: unknown } | undefined)?.notSent === true) return 'refused';
  const code = (err as { code?: unknown } | undefined)?.code;
  if (code === 'slack_webapi_rate_limited_error') return 'rate-limited';
  if (code === 'slack_webapi_platform_error') {
    const error = slackErrorCode(err);
    if (error === 'ratelimited') return 'rate-limited';
    return error !== undefined && IN_DOUBT_CODES.has(error) ? 'in-doubt' : 'refused';
  }
  // No answer (network, time-out), or an HTTP error: Slack may have taken the message.
  return 'in-doubt';
}

/**
 * Slack refused the call with an answer of its own that is neither a rate limit nor one that leaves
 * the post in doubt (`not_in_channel`, `channel_not_found`…): made again, it would be refused again.
 */
export function refusedBySlack(err: unknown): boolean {
  return slackErrorCode(err) !== undefined && !(err instanceof PostUnknownError) && failureKind(err) === 'refused';
}

/**
 * `chat.postMessage` made once, through a client that makes each call once (exact-client.ts): a
 * refusal is thrown at once; a rate limit is waited out (a 429 posts nothing); a failure that leaves
 * the post in doubt (no answer, a 5xx, `internal_error`) is followed by a look-up of the channel or
 * thread for a message of this bot with the same metadata, and the post is sent again only when it is
 * not there. With `lookFirst` the look-up also comes before the first attempt: for a post that an
 * earlier run (a process since killed) may have made. When a look-up cannot be made, PostUnknownError:
 * nothing is sent blind.
 */
export async function postOnce(
  slack: ExactWebClient,
  message: { channel: string; thread_ts?: string; text: string; blocks?: unknown[] },
  metadata: OnceMetadata,
  options: { lookFirst?: boolean; since?: number } = {},
): Promise<PostedMessage> {
  assertExact(slack, 'A post made once');
  const since = options.since ?? Date.now();
  const where = { channel: message.channel, thread_ts: message.thread_ts };
  const look = async (cause: unknown) => {
    try {
      return await findOwnMessage(slack, where, metadata, since);
    } catch {
      throw new PostUnknownError(cause);
    }
  };
  if (options.lookFirst) {
    // Nothing was sent yet: a failure of this look-up is just that (a channel the bot cannot read…).
    const found = await findOwnMessage(slack, where, metadata, since);
    if (found) return { channel: found.channel, ts: found.ts };
  }
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await slack.chat.postMessage({ ...message, metadata } as Parameters<WebClient['chat']['postMessage']>[0]);
      if (!res.ts) throw new IncompleteSlackAnswerError('chat.postMessage answered without a ts');
      return { channel: res.channel ?? message.channel, ts: res.ts };
    } catch (err) {
      const kind = failureKind(err);
      if (kind === 'refused') throw err;
      if (kind === 'rate-limited') {
        const waitMs = retryAfterMs(err);
        if (attempt >= MAX_ATTEMPTS || waitMs > MAX_RATE_LIMIT_WAIT_MS) throw err;
        await sleep(waitMs);
        continue;
      }
      const found = await look(err);
      if (found) return { channel: found.channel, ts: found.ts };
      if (attempt >= MAX_ATTEMPTS) throw err;
      await sleep(250 * attempt);
    }
  }
}

/** Each client's direct-message channels by user, the most recently opened last. */
const dmChannels = new WeakMap<WebClient, Map<string, string>>();
/** Users whose DM channel a client keeps, at most. */
const MAX_DM_CHANNELS = 10_000;

/**
 * The bot's direct-message channel with one user (`conversations.open`): its `D…` id. A post, and the
 * look-up that makes it once, must name this channel: `conversations.history` takes no user ID. The
 * channel of a user and the bot keeps its ID (opening it again answers the same one), so each client
 * opens it once: an escalation's or a reminder's direct messages are then one call each, not two.
 */
export async function openDm(slack: WebClient, userId: string): Promise<string> {
  let known = dmChannels.get(slack);
  if (!known) {
    known = new Map();
    dmChannels.set(slack, known);
  }
  const kept = known.get(userId);
  if (kept) return kept;
  const dm = await slack.conversations.open({ users: userId });
  if (!dm.channel?.id) throw new IncompleteSlackAnswerError('conversations.open gave no channel');
  if (known.size >= MAX_DM_CHANNELS) known.delete(known.keys().next().value as string);
  known.set(userId, dm.channel.id);
  return dm.channel.id;
}

/**
 * `postOnce` in a user's direct message with the bot: the DM channel opened first, so that a look-up
 * after a lost answer (and `lookFirst`) reads that channel. Rejects like `postOnce`, or when the DM
 * cannot be opened.
 */
export async function postToUser(
  slack: ExactWebClient,
  userId: string,
  message: { text: string; blocks?: unknown[] },
  metadata: OnceMetadata,
  options: { lookFirst?: boolean; since?: number } = {},
): Promise<PostedMessage> {
  assertExact(slack, 'A post made once');
  const channel = await openDm(slack, userId);
  return postOnce(slack, { channel, text: message.text, ...(message.blocks ? { blocks: message.blocks } : {}) }, metadata, options);
}

/**
 * The message of this bot (its `bot_id`) whose metadata has this event type and every field of this
 * payload, posted since `since` (ms) in the channel (top level), or in the thread of `thread_ts`.
 * Slack returns metadata only with `include_all_metadata`.
 */
export async function findOwnMessage(
  slack: WebClient,
  where: { channel: string; thread_ts?: string },
  metadata: { event_type: string; event_payload: Record<string, unknown> },
  since: number,
  maxPages = MAX_PAGES,
): Promise<FoundMessage | undefined> {
  const botId = await ownBotId(slack);
  const oldest = slackTs(Math.max(0, since - CLOCK_MARGIN_MS));
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const common = { channel: where.channel, include_all_metadata: true, limit: 200, ...(cursor ? { cursor } : {}) };
    const res = where.thread_ts
      ? await slack.conversations.replies({ ...common, ts: where.thread_ts })
      : await slack.conversations.history({ ...common, oldest });
    for (const m of res.messages ?? []) {
      if (m.bot_id !== botId || !m.ts || m.metadata?.event_type !== metadata.event_type) continue;
      const payload = (m.metadata.event_payload ?? {}) as Record<string, unknown>;
      if (Object.entries(metadata.event_payload).every(([k, v]) => payload[k] === v)) return { channel: where.channel, ts: m.ts, payload };
    }
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor) return undefined;
  }
  return undefined;
}

/** A time (ms) as a Slack ts (`seconds.micro`). */
function slackTs(ms: number): string {
  return `${Math.floor(ms / 1000)}.000000`;
}

function retryAfterMs(err: unknown): number {
  const seconds = (err as { retryAfter?: unknown } | undefined)?.retryAfter;
  return typeof seconds === 'number' && Number.isFinite(seconds) ? seconds * 1000 : 1_000;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
