import { presentMessage, type SlackMessage } from '../../views/message';
import type { Deps } from '../deps';
import { describeError } from '../errors';
import type { Locale } from '../i18n';
import { slackErrorCode } from '../slack/error-code';
import { postOnce, postToUser } from '../slack/post-once';
import { isUnreachable } from '../slack/thread-root';
import type { ApprovalRecord } from '../store/approvals';
import type { ActiveDelegation } from './delegation';
import { delegationsIn } from './delegations-repo';
import { hasApproved, quorumOf } from './quorum';
import { noticeOf } from './thread';

// Calling people on about a pending approval (its reminders, its escalation): mentioned where they
// see it. That is the root's thread, unless the root fell back to its maker's direct message (the bot
// could not post where it was asked): the approvers cannot see that one, so the call goes to the
// channel it was asked in, linking the root, and when the bot cannot post there either, to each one's
// direct message.

/** A delegate called on beside the away person they decide for. */
export interface DelegateCall {
  delegate: string;
  away: string;
}

/** Whether the root is in its maker's direct message, where nobody else sees it. */
const rootInMakersDm = (record: ApprovalRecord): boolean => record.channel.startsWith('D');

/** A link to the root (chat.getPermalink); undefined when Slack gives none. */
export async function rootLink(deps: Deps, record: ApprovalRecord): Promise<string | undefined> {
  try {
    const answer = await deps.slack.retried.chat.getPermalink({ channel: record.channel, message_ts: record.rootTs });
    return typeof answer.permalink === 'string' ? answer.permalink : undefined;
  } catch (err) {
    deps.logger.info({ approval: record.id, ...describeError(err) }, 'no link to the approval root');
    return undefined;
  }
}

/**
 * What one tick reads once for every approval it calls people on about, when first asked (a read
 * each would be a round trip each, to the store or to Slack): the delegations in force, and the
 * members of the groups called on, asked of Slack at the tick's time. A failed read is not kept: the
 * next approval asks again.
 */
export interface TickReads {
  delegations(): Promise<ActiveDelegation[]>;
  /** The users these IDs name, by name or as a group's members. */
  usersOf(ids: string[]): Promise<string[]>;
}

export function tickReads(deps: Pick<Deps, 'store' | 'access'>, now: Date): TickReads {
  const once = <T>(read: () => Promise<T>) => {
    let kept: Promise<T> | undefined;
    return () => {
      kept ??= read().catch((err: unknown) => {
        kept = undefined;
        throw err;
      });
      return kept;
    };
  };
  const groups = new Map<string, () => Promise<string[]>>();
  return {
    delegations: once(() => delegationsIn(deps.store).active(now)),
    usersOf(ids) {
      const key = ids.join(',');
      let read = groups.get(key);
      if (!read) {
        read = once(() => deps.access.usersOf(ids, { fresh: true }));
        groups.set(key, read);
      }
      return read();
    },
  };
}

/**
 * The delegates of those these IDs call on (by name or through a group) who are away, to be called
 * on beside them: never the maker's delegate, nor the maker as someone's delegate, nor anyone who
 * already approved. None when the delegations cannot be read (the call still goes to the others).
 */
export async function delegatesOf(deps: Deps, reads: TickReads, ids: string[], record: ApprovalRecord): Promise<DelegateCall[]> {
  const quorum = quorumOf(record);
  const active = await reads.delegations().catch((err: unknown) => {
    deps.logger.warn({ approval: record.id, ...describeError(err) }, 'could not read the delegations: no delegate is called on');
    return [];
  });
  const calls: DelegateCall[] = [];
  for (const d of active) {
    if (d.awayUserId === record.makerId || d.delegate === record.makerId) continue;
    if (hasApproved(quorum, d.awayUserId) || hasApproved(quorum, d.delegate)) continue;
    if (await deps.access.listed(ids, d.awayUserId)) calls.push({ delegate: d.delegate, away: d.awayUserId });
  }
  return calls;
}

/** The IDs to call on, without the maker and those who already approved (by name: a group is called on whole). */
export const stillToCall = (ids: string[], record: ApprovalRecord): string[] => {
  const quorum = quorumOf(record);
  return ids.filter((id) => id !== record.makerId && !hasApproved(quorum, id));
};

/** Where a call went: the root's thread, the channel asked in, each one's DM, or nowhere (the thread gone). */
export type CalledIn = 'thread' | 'channel' | 'dms' | 'nowhere';

/**
 * Posts a call once (`key` names it among the approval's posts; `lookFirst` for a run cut short)
 * where the people it calls on see it (see above). `build` makes it in a reader's language, saying
 * where the root is when it is not in the same place. `dmUsers`: who gets it in a DM when no channel
 * takes it (none: nobody; the escalation sends its own DMs).
 */
export async function callOn(
  deps: Deps,
  record: ApprovalRecord,
  input: {
    key: string;
    lookFirst: boolean;
    build: (locale: Locale, elsewhere?: { link?: string }) => SlackMessage;
    dmUsers?: () => Promise<string[]>;
  },
): Promise<CalledIn> {
  const metadata = noticeOf(record, input.key);
  const once = { lookFirst: input.lookFirst, since: Date.parse(record.createdAt) };
  const inLocale = (locale: Locale, elsewhere?: { link?: string }) =>
    presentMessage(input.build(locale, elsewhere), locale, deps.sandboxMode);
  const unreachable = (err: unknown, where: string) => {
    if (!isUnreachable(err)) throw err;
    deps.logger.warn({ approval: record.id, slackError: slackErrorCode(err) }, `${where} cannot be reached: the call goes elsewhere`);
  };
  if (!rootInMakersDm(record)) {
    const message = inLocale(record.makerLocale);
    try {
      await postOnce(deps.slack.exact, { channel: record.channel, thread_ts: record.rootTs, ...message }, metadata, once);
      return 'thread';
    } catch (err) {
      unreachable(err, 'the approval thread');
      return 'nowhere';
    }
  }
  const elsewhere = { link: await rootLink(deps, record) };
  if (record.askedIn && /^[CG]/.test(record.askedIn)) {
    try {
      await postOnce(deps.slack.exact, { channel: record.askedIn, ...inLocale(record.makerLocale, elsewhere) }, metadata, once);
      return 'channel';
    } catch (err) {
      unreachable(err, 'the channel the approval was asked in');
    }
  }
  if (!input.dmUsers) return 'nowhere';
  const users = (await input.dmUsers()).filter((u) => u !== record.makerId);
  for (const user of users) {
    try {
      const locale = await deps.slack.locales.localeOf(user);
      await postToUser(deps.slack.exact, user, inLocale(locale, elsewhere), metadata, once);
    } catch (err) {
      deps.logger.warn({ approval: record.id, user, ...describeError(err) }, 'could not call on an approver in a direct message');
    }
  }
  return 'dms';
}
