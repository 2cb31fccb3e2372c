import { approvalRootMessage, notRegisteredRootMessage } from '../../views/approvals';
import { presentMessage, type SlackMessage } from '../../views/message';
import type { Deps } from '../deps';
import { describeError } from '../errors';
import { slackErrorCode } from '../slack/error-code';
import { type OnceMetadata, postOnce, postToUser } from '../slack/post-once';
import { ROOT_GONE } from '../slack/thread-root';
import type { ApprovalRecord } from '../store/approvals';

// An approval's thread: its root in the channel, the posts in it (each made once), and the direct
// messages to its maker, all in the maker's language.

/** A message of the approval as the bot posts it (the SANDBOX badge in sandbox mode), in the maker's language. */
export const present = (deps: Deps, record: ApprovalRecord, message: SlackMessage) =>
  presentMessage(message, record.makerLocale, deps.sandboxMode);

/** The root as the record stands. */
export function rootOf(deps: Deps, record: ApprovalRecord): SlackMessage {
  return present(deps, record, approvalRootMessage(record.makerLocale, record, { approversListed: deps.access.approversListed }));
}

/** `event_type` of the posts an approval makes in its thread or a DM (reminders, replies, records, secrets). */
const APPROVAL_NOTICE_EVENT_TYPE = 'pix_approval_notice';

/** The metadata of one such post: derived from the approval's id and what the post is, so a resend is recognized. */
export const noticeOf = (record: ApprovalRecord, key: string): OnceMetadata => ({
  event_type: APPROVAL_NOTICE_EVENT_TYPE,
  event_payload: { approval_id: record.id, notice: key },
});

/** The root shows the record (or `message`); a root that cannot be updated any more (deleted, the channel gone) is left as it is. */
export async function updateRootTolerant(deps: Deps, record: ApprovalRecord, message = rootOf(deps, record)): Promise<void> {
  if (!record.rootTs) return;
  try {
    await deps.slack.retried.chat.update({ channel: record.channel, ts: record.rootTs, text: message.text, blocks: message.blocks });
  } catch (err) {
    const code = slackErrorCode(err);
    if (code === undefined || !ROOT_GONE.has(code)) throw err;
    deps.logger.warn({ approval: record.id, slackError: code }, 'the approval root cannot be updated any more');
  }
}

export async function postInThread(
  deps: Deps,
  record: ApprovalRecord,
  message: SlackMessage,
  key: string,
  lookFirst: boolean,
): Promise<boolean> {
  if (!record.rootTs) return false;
  try {
    await postOnce(
      deps.slack.exact,
      { channel: record.channel, thread_ts: record.rootTs, text: message.text, blocks: message.blocks },
      noticeOf(record, key),
      {
        lookFirst,
        since: Date.parse(record.createdAt),
      },
    );
    return true;
  } catch (err) {
    deps.logger.warn({ approval: record.id, ...describeError(err) }, 'could not post in the approval thread');
    return false;
  }
}

/** A direct message from the bot to the maker: private, and still there when they come back (unlike an ephemeral one). */
export async function directMessage(deps: Deps, record: ApprovalRecord, message: SlackMessage): Promise<boolean> {
  try {
    await postToUser(deps.slack.exact, record.makerId, message, noticeOf(record, 'to-maker'));
    return true;
  } catch (err) {
    deps.logger.warn({ approval: record.id, user: record.makerId, ...describeError(err) }, 'could not send a direct message');
    return false;
  }
}

/**
 * A root whose record could not be kept (the store failed once it was posted, or the maker's flow
 * died before recording it): updated to say so, without buttons; then the record is cancelled if the
 * store allows (else the tick does). Never rejects.
 */
export async function disown(deps: Deps, record: ApprovalRecord): Promise<void> {
  await updateRootTolerant(deps, record, present(deps, record, notRegisteredRootMessage(record.makerLocale, record))).catch(
    (err: unknown) =>
      deps.logger.warn({ approval: record.id, ...describeError(err) }, 'could not show an unregistered approval root as such'),
  );
  await deps.store.approvals
    .update(record.id, (r) => ({ ...r, state: 'cancelled', decidedAt: new Date().toISOString(), settled: true }))
    .catch((err: unknown) =>
      deps.logger.warn({ approval: record.id, ...describeError(err) }, 'could not cancel an unregistered approval; a later tick does'),
    );
}
