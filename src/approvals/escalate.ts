import pLimit from 'p-limit';
import { escalationDmMessage, escalationMessage } from '../../views/approvals';
import { presentMessage, type SlackMessage } from '../../views/message';
import { mentionsOf } from '../access';
import type { Deps } from '../deps';
import { describeError } from '../errors';
import type { Locale } from '../i18n';
import { postToUser } from '../slack/post-once';
import type { ApprovalRecord } from '../store/approvals';
import { auditTarget } from './audit';
import { callOn, delegatesOf, rootLink, stillToCall, type TickReads } from './calling';
import { type Held, write } from './claim';
import { noticeOf, updateRootTolerant } from './thread';

// What the tick does for a pending approval whose escalation is due (escalation.ts says when).

/** The key of the escalation's posts among the approval's (its call, and each direct message). */
const ESCALATION = 'escalation';
/** Direct messages an escalation sends at once. */
const DMS_AT_ONCE = 4;

/**
 * Escalates a pending approval, once. `escalating` is recorded before anything is posted, so a run
 * cut short looks for its posts before posting them again. Then: the call where the approvers are
 * (its thread, as a rule), mentioning the escalation list and the delegates of those of it away; a
 * direct message with a link to the root to each listed user, each member of a listed group (asked of
 * Slack once in the tick) and each such delegate; then `escalatedAt` (from then on the list's members
 * who hold the action's role may decide it), the root showing it, and the audit trail. A failure
 * leaves it for the next tick. What does not depend on another step runs beside it (the call and the
 * root's link; the direct messages; the root and the audit trail), so that one escalation waits for
 * three turns of Slack's, not six.
 */
export async function escalate(deps: Deps, held: Held, record: ApprovalRecord, reads: TickReads): Promise<void> {
  const lookFirst = record.escalating === true;
  const marked = lookFirst ? record : await write(deps, held, record.id, (r) => ({ ...r, escalating: true }), record);
  const now = new Date();
  const ids = stillToCall(deps.access.escalationIds, record);
  const [members, delegates] = await Promise.all([reads.usersOf(ids), delegatesOf(deps, reads, ids, record)]);
  const recipients = new Map<string, string | undefined>();
  for (const user of stillToCall(members, record)) recipients.set(user, undefined);
  for (const d of delegates) if (!recipients.has(d.delegate)) recipients.set(d.delegate, d.away);
  await held.check();
  // The root's link for the direct messages, read while the call is posted (it never rejects).
  const linking = recipients.size > 0 ? rootLink(deps, record) : undefined;
  let link: string | undefined;
  try {
    // A list of the maker alone (or of those who already approved) calls on nobody: only the mark is left.
    if (ids.length > 0 || delegates.length > 0)
      await callOn(deps, record, {
        key: ESCALATION,
        lookFirst,
        build: (locale, elsewhere) =>
          escalationMessage(locale, record, { mentions: mentionsOf(ids), delegates, now, ...(elsewhere ? { elsewhere } : {}) }),
      });
  } finally {
    // Over before anything goes on, or before a failed call is handed back.
    link = await linking;
  }
  // One message per language (and per away person a delegate stands for), whoever it goes to.
  const built = new Map<string, SlackMessage>();
  const dmIn = (locale: Locale, forUserId: string | undefined) => {
    const key = `${locale}:${forUserId ?? ''}`;
    let message = built.get(key);
    if (!message) {
      const dm = escalationDmMessage(locale, record, { now, ...(link ? { link } : {}), ...(forUserId ? { forUserId } : {}) });
      message = presentMessage(dm, locale, deps.sandboxMode);
      built.set(key, message);
    }
    return message;
  };
  // Each in its own DM channel: none waits for another, and one failing stops none of the others. A
  // few at a time, the claim checked before each, as a group may have many members.
  const limit = pLimit(DMS_AT_ONCE);
  const sent = await Promise.all(
    [...recipients].map(([user, forUserId]) =>
      limit(async () => {
        await held.check();
        try {
          const locale = await deps.slack.locales.localeOf(user);
          await postToUser(deps.slack.exact, user, dmIn(locale, forUserId), noticeOf(record, ESCALATION), {
            lookFirst,
            since: Date.parse(record.createdAt),
          });
          return 1;
        } catch (err) {
          deps.logger.warn({ approval: record.id, user, ...describeError(err) }, 'could not send an escalation’s direct message');
          return 0;
        }
      }),
    ),
  ).then((each) => each.reduce<number>((n, one) => n + one, 0));
  const escalated = await write(
    deps,
    held,
    record.id,
    ({ escalating: _posting, escalateAt: _due, ...rest }) => ({ ...rest, escalatedAt: now.toISOString() }),
    marked,
  );
  deps.logger.info({ approval: record.id, action: record.action, directMessages: sent }, 'approval escalated');
  // The root and the audit trail together; the root's update over before this returns (and the claim goes).
  const showing = updateRootTolerant(deps, escalated).catch((err: unknown) =>
    deps.logger.info({ approval: record.id, ...describeError(err) }, 'could not show the escalation on the root'),
  );
  try {
    // Nobody acted: the entry names the maker, whose action waited this long.
    await deps.audit.record({
      user: record.makerId,
      role: 'none',
      action: 'approval:escalate',
      target: auditTarget(record),
      maker: record.makerId,
      outcome: 'escalated',
      detail: `to ${deps.access.escalationIds.join(',')}; ${sent} direct messages`,
    });
  } finally {
    await showing;
  }
}
