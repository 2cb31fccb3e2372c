import { apiText } from '../../views/errors';
import { limitRequestRootMessage } from '../../views/limit-request';
import { escapeMrkdwn, presentMessage, section } from '../../views/message';
import { messages } from '../i18n';
import { type PostedMessage, postOnce, postToUser } from '../slack/post-once';
import { isUnreachable } from '../slack/thread-root';
import type { TrackedRequest } from '../store/tracked-requests';
import { type DeliveryContext, DeliveryError, updateRoot } from './deliver';

/**
 * A request whose reads keep answering 404 or 403 is given up after this many consecutive ticks…
 * (a one-off 404 or 403, such as a scope being changed on the application, must not end it)
 */
const UNREADABLE_READS = 5;
/** …spanning at least this long (so a fast schedule does not give up within seconds). */
const UNREADABLE_MS = 15 * 60_000;

/** `event_type` of the message that tells the requester a request is no longer followed. */
const UNFOLLOWED_EVENT_TYPE = 'pix_limit_unfollowed';

export function shouldGiveUp(unreadable: NonNullable<TrackedRequest['unreadable']>, now = Date.now()): boolean {
  return unreadable.count >= UNREADABLE_READS && now - Date.parse(unreadable.since) >= UNREADABLE_MS;
}

/**
 * Closes a request that cannot be read any more, telling its requester (in its thread, mentioning
 * them; else in their DM) why and how to check it. The notice is made once (looked for first, so a
 * run cut short before the close does not post it twice); the root says the request is no longer
 * followed.
 */
export async function unfollow(
  ctx: DeliveryContext,
  record: TrackedRequest,
  unreadable: NonNullable<TrackedRequest['unreadable']>,
): Promise<TrackedRequest> {
  const id = record.limitRequestId;
  const locale = await ctx.locales.localeOf(record.requesterId);
  const m = messages(locale).tracking;
  const minutes = Math.floor((Date.now() - Date.parse(unreadable.since)) / 60_000);
  const notice = m.unfollowedNotice({
    mention: `<@${record.requesterId}>`,
    id: `\`${escapeMrkdwn(id)}\``,
    status: unreadable.status,
    reads: unreadable.count,
    minutes,
    command: `\`/pix limit status ${escapeMrkdwn(id)}\``,
    // The API's own words (a missing scope named there), as every Pix error is shown.
    ...(unreadable.error ? { said: apiText(unreadable.error) } : {}),
  });
  const message = presentMessage({ text: m.unfollowedText(id), blocks: [section(notice)] }, locale, ctx.sandboxMode);
  const metadata = { event_type: UNFOLLOWED_EVENT_TYPE, event_payload: { limit_request_id: id } };
  const since = Date.parse(record.createdAt) || 0;
  const post = (channel: string, thread_ts?: string) =>
    postOnce(ctx.slack, { channel, ...(thread_ts ? { thread_ts } : {}), text: message.text, blocks: message.blocks }, metadata, {
      lookFirst: true,
      since,
    });

  let posted: PostedMessage | undefined;
  try {
    if (record.rootTs) posted = await post(record.channel, record.rootTs);
  } catch (err) {
    if (!isUnreachable(err)) throw new DeliveryError('post-reply', err);
  }
  if (!posted) {
    try {
      posted = await postToUser(ctx.slack, record.requesterId, message, metadata, { lookFirst: true, since });
    } catch (err) {
      throw new DeliveryError('post-dm', err);
    }
  }
  ctx.logger.warn(
    { limitRequestId: id, status: unreadable.status, reads: unreadable.count, noticeTs: posted.ts },
    'limit request no longer readable: closed, its requester told',
  );
  if (record.rootTs) {
    await updateRoot(ctx, record, presentMessage(limitRequestRootMessage(locale, record, m.unfollowedStatus), locale, ctx.sandboxMode));
  }
  try {
    return await ctx.requests.close(id);
  } catch (err) {
    throw new DeliveryError('close', err);
  }
}
