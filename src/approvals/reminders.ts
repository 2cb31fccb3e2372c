import { APPROVAL_EVENT_TYPE, reminderMessage } from '../../views/approvals';
import { mentionsOf } from '../access';
import type { Deps } from '../deps';
import { APPROVAL_ROLE } from '../domain/approvals';
import { findOwnMessage } from '../slack/post-once';
import type { ApprovalRecord } from '../store/approvals';
import { callOn, delegatesOf, stillToCall, type TickReads } from './calling';
import { type Held, write } from './claim';
import { disown } from './thread';

// What the tick does for a pending approval that is waiting: its reminders in the thread, and the
// cancelling of one whose root was never recorded.

/** Reminders of one pending approval, at most. */
export const MAX_REMINDERS = 3;

/**
 * The next reminder of a pending approval, where its approvers see it (calling.ts: its thread, as a
 * rule), mentioning who may approve and the delegates of those away: posted once (the reminder's
 * number is recorded before the post, so a run cut short looks for it before posting it again), then
 * the one after it scheduled. A thread gone stops the reminders.
 */
export async function remind(deps: Deps, held: Held, record: ApprovalRecord, reads: TickReads): Promise<void> {
  const n = (record.reminders ?? 0) + 1;
  const lookFirst = record.reminding === n;
  // Read under this claim just now: written from what is known, not read again.
  const marked = lookFirst ? record : await write(deps, held, record.id, (r) => ({ ...r, reminding: n }), record);
  const now = new Date();
  const ids = stillToCall(deps.access.approverIds(APPROVAL_ROLE[record.action]), record);
  const delegates = await delegatesOf(deps, reads, ids, record);
  // A post is a write too: the claim checked first (a round trip only past half its life).
  await held.check();
  const called = await callOn(deps, record, {
    key: `reminder-${n}`,
    lookFirst,
    build: (locale, elsewhere) =>
      reminderMessage(locale, record, {
        mentions: mentionsOf(ids),
        delegates,
        approversListed: deps.access.approversListed,
        now,
        n,
        max: MAX_REMINDERS,
        ...(elsewhere ? { elsewhere } : {}),
      }),
    // A group's members, less its maker and whoever already approved, as in the mentions.
    dmUsers: async () => [...stillToCall(await deps.access.usersOf(ids), record), ...delegates.map((d) => d.delegate)],
  });
  const threadGone = called === 'nowhere';
  if (threadGone) deps.logger.warn({ approval: record.id }, 'the approval thread is gone: no more reminders');
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
