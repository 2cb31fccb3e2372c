import type { WebClient } from '@slack/web-api';
import type { SlackMessage } from '../../views/message';
import { describeError } from '../errors';
import type { Logger } from '../runtime/logger';
import { slackErrorCode } from './error-code';
import { assertExact, type ExactWebClient } from './exact-client';
import { findOwnMessage, type OnceMetadata, openDm, type PostedMessage, PostUnknownError, postOnce, postToUser } from './post-once';

export const ROOT_EVENT_TYPE = 'pix_limit_request';

export const rootMetadata = (limitRequestId: string) => ({
  event_type: ROOT_EVENT_TYPE,
  event_payload: { limit_request_id: limitRequestId },
});

export interface ThreadRootInput {
  channel: string;
  userId: string;
  limitRequestId: string;
  message: SlackMessage;
  /**
   * Look for a root posted earlier before posting (a run cut short may have posted it without
   * recording it); `since` (ms) is when that run started.
   */
  lookFirst?: { since: number };
}

/**
 * Posts a message that starts a thread (a limit request's root, an approval's) in the channel, or,
 * when the bot cannot post there (not a member, archived, a DM it is not in…), in a direct message to
 * `userId`. Each post is made once (post-once.ts, through `slack`, an exact client). The
 * metadata names what the thread is about, so it can be recognized later. Undefined when neither post
 * worked, or when whether one did cannot be told; `dm` says where it went.
 */
export async function postRootMessage(
  slack: ExactWebClient,
  logger: Logger,
  input: { channel: string; userId: string; message: SlackMessage; metadata: OnceMetadata; lookFirst?: { since: number } },
): Promise<(PostedMessage & { dm: boolean }) | undefined> {
  // Before the post's own failures are caught below: a client that may repeat the post is a defect, not a refusal.
  assertExact(slack, 'A thread root');
  const once = input.lookFirst ? { lookFirst: true, since: input.lookFirst.since } : {};
  try {
    return { ...(await postOnce(slack, { channel: input.channel, ...input.message }, input.metadata, once)), dm: false };
  } catch (err) {
    if (err instanceof PostUnknownError) {
      logger.warn(
        { channel: input.channel, ...describeError(err.cause) },
        'the thread root may have been posted; it will be looked for again',
      );
      return undefined;
    }
    logger.info({ channel: input.channel, ...describeError(err) }, 'cannot post in the channel; trying a DM');
  }
  try {
    return { ...(await postToUser(slack, input.userId, input.message, input.metadata, once)), dm: true };
  } catch (err) {
    logger.warn({ user: input.userId, ...describeError(err) }, 'cannot post the thread root');
    return undefined;
  }
}

/**
 * Posts a limit request's thread root (postRootMessage), its metadata naming the request: never two
 * roots for one request. Undefined when neither post worked, or when whether one did cannot be told
 * (then a later look-up finds it: findThreadRoot).
 */
export async function postThreadRoot(slack: ExactWebClient, logger: Logger, input: ThreadRootInput): Promise<PostedMessage | undefined> {
  const root = await postRootMessage(slack, logger, { ...input, metadata: rootMetadata(input.limitRequestId) });
  return root && { channel: root.channel, ts: root.ts };
}

/**
 * The root of this request posted by this bot since `since` (ms) but never recorded (its answer was
 * lost, or the process died first): in the channel, else in the requester's DM. Undefined when it is
 * in neither; a channel the bot cannot read counts as one without it. Other failures are thrown.
 */
export async function findThreadRoot(
  slack: WebClient,
  input: { channel: string; userId: string; limitRequestId: string; since: number },
): Promise<PostedMessage | undefined> {
  const metadata = rootMetadata(input.limitRequestId);
  const inChannel = await findOwnMessage(slack, { channel: input.channel }, metadata, input.since).catch((err: unknown) => {
    if (isUnreachable(err)) return undefined;
    throw err;
  });
  if (inChannel) return { channel: inChannel.channel, ts: inChannel.ts };
  const dm = await openDm(slack, input.userId);
  if (dm === input.channel) return undefined;
  const inDm = await findOwnMessage(slack, { channel: dm }, metadata, input.since);
  return inDm && { channel: inDm.channel, ts: inDm.ts };
}

/**
 * Slack's answers for a conversation or thread the bot can no longer reach: the root deleted
 * (`thread_not_found`, https://github.com/slackapi/bolt-js/issues/2307), the bot removed
 * (`not_in_channel`, or `channel_not_found` for a private channel), the channel archived (`is_archived`).
 * No later attempt changes them.
 */
export const UNREACHABLE_CODES = new Set(['thread_not_found', 'channel_not_found', 'not_in_channel', 'is_archived']);

export function isUnreachable(err: unknown): boolean {
  const code = slackErrorCode(err);
  return code !== undefined && UNREACHABLE_CODES.has(code);
}

/**
 * Answers of `chat.update` that no later attempt can change (the root was deleted, the channel
 * archived, the bot removed…): a root that answers so is left as it is, and what it belongs to is
 * closed anyway rather than retried on every tick forever.
 */
export const ROOT_GONE = new Set(['message_not_found', 'cant_update_message', 'edit_window_closed', ...UNREACHABLE_CODES]);
