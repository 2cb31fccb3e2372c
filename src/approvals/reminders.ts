import { APPROVAL_EVENT_TYPE, reminderMessage } from '../../views/approvals';
import { APPROVAL_ROLE } from '../domain/approvals';
import type { Deps } from '../entry/deps';
import { slackErrorCode } from '../slack/error-code';
import { findOwnMessage, postOnce } from '../slack/post-once';
import { isUnreachable } from '../slack/thread-root';
import type { ApprovalRecord } from '../store/approvals';
import { type Held, write } from './claim';
import { disown, noticeOf, present } from './thread';

// What the tick does for a pending approval that is waiting: its reminders in the thread, and the
// cancelling of one whose root was never recorded.

/** Reminders of one pending approval, at most. */
export const MAX_REMINDERS = 3;

/**
 * The next reminder of a pending approval, in its thread, mentioning who may approve: posted once
 * (the reminder's number is recorded before the post, so a run cut short reads the thread before
 * posting it again), then the one after it scheduled. A thread gone stops the reminders.
 */
export async function remind(deps: Deps, held: Held, record: ApprovalRecord): Promise<void> {
  const n = (record.reminders ?? 0) + 1;
  const lookFirst = record.reminding === n;
  // Read under this claim just now: written from what is known, not read again.
  const marked = lookFirst ? record : await write(deps, held, record.id, (r) => ({ ...r, reminding: n }), record);
  const now = new Date();
  const mentions = deps.access.approverMentions(APPROVAL_ROLE[record.action], record.makerId);
  const message = present(
    deps,
    record,
    reminderMessage(record.makerLocale, record, { mentions, approversListed: deps.access.approversListed, now, n, max: MAX_REMINDERS }),
  );
  let threadGone = false;
  // A post is a write too: the claim checked first (a round trip only past half its life).
  await held.check();
  try {
    await postOnce(
      deps.slack.exact,
      { channel: record.channel, thread_ts: record.rootTs, text: message.text, blocks: message.blocks },
      noticeOf(record, `reminder-${n}`),
      {
        lookFirst,
        since: Date.parse(record.createdAt),
      },
    );
  } catch (err) {
    if (!isUnreachable(err)) throw err;
    threadGone = true;
    deps.logger.warn({ approval: record.id, slackError: slackErrorCode(err) }, 'the approval thread is gone: no more reminders');
  }
  const interval = deps.approvals.remindAfterMs;
  const nextAt = Math.max(Date.parse(record.createdAt) + (n + 1) * interval, now.getTime() + interval);
  const more = !threadGone && n < MAX_REMINDERS && nextAt < Date.parse(record.expiresAt);
  await write(
    deps,
    held,
    record.id,
    (r) => {
      const { reminding: _posted, remindAt: _due, ...rest } = r;
      return { ...rest, reminders: n, ...(more ? { remindAt: new Date(nextAt).toISOString() } : {}) };
    },
    marked,
  );
}

/** A pending record without a root (its maker's flow failed or died before recording it): its root, if one was posted, says so; the record is cancelled. */
export async function cancelOrphan(deps: Deps, held: Held, record: ApprovalRecord): Promise<void> {
  const found = await findOwnMessage(
    deps.slack.exact,
    { channel: record.channel },
    { event_type: APPROVAL_EVENT_TYPE, event_payload: { approval_id: record.id } },
    Date.parse(record.createdAt),
  ).catch(() => undefined);
  if (found) await disown(deps, { ...record, rootTs: found.ts });
  await write(deps, held, record.id, (r) => ({ ...r, state: 'cancelled', decidedAt: new Date().toISOString(), settled: true }));
}
