import { limitFieldLabel } from '../src/domain/limit-fields';
import { formatCents } from '../src/domain/money';
import { formatSaoPauloDateTime } from '../src/domain/sao-paulo-date';
import { type Locale, messages } from '../src/i18n';
import type { DecisionStatus, LimitRequestStatus } from '../src/pix/schemas';
import type { TrackedRequest } from '../src/store/tracked-requests';
import { approvalsGivenText } from './approvals';
import { context, escapeClipped, escapeMrkdwn, type SlackMessage, section } from './message';

/** A document's name, whole up to this many characters: ten of them fit a message's text. */
export const FILE_NAME_MAX = 150;

const STATUS_EMOJI: Record<LimitRequestStatus, string> = {
  IN_REVIEW: ':hourglass_flowing_sand:',
  APPROVED: ':white_check_mark:',
  REJECTED: ':x:',
};

/** `:white_check_mark: Approved`; a status this version does not know, as the API sent it. */
export function statusText(locale: Locale, status: string): string {
  const m = messages(locale).request;
  switch (status) {
    case 'IN_REVIEW':
      return `${STATUS_EMOJI.IN_REVIEW} ${m.inReview}`;
    case 'APPROVED':
      return `${STATUS_EMOJI.APPROVED} ${m.approved}`;
    case 'REJECTED':
      return `${STATUS_EMOJI.REJECTED} ${m.rejected}`;
    default:
      return escapeMrkdwn(status);
  }
}

/** `A → B` per requested field, in the order they were asked for. */
function fieldLines(locale: Locale, tracked: TrackedRequest, approved?: Record<string, number>): string[] {
  const m = messages(locale).request;
  const money = (cents: number) => formatCents(cents, locale);
  return Object.entries(tracked.requested).map(([field, asked]) => {
    const now = tracked.current?.[field];
    const from = now === undefined ? '' : `${money(now)} → `;
    let line = `• ${limitFieldLabel(field, locale)}: ${from}*${money(asked)}*`;
    if (approved) {
      const granted = approved[field];
      if (granted === undefined) line += `  ${m.noApprovedValue}`;
      else if (granted < asked) line += `  ${m.grantedBelow(money(granted))}`;
      else line += `  ${m.granted(money(granted))}`;
    }
    return line;
  });
}

function documentsLine(locale: Locale, tracked: TrackedRequest): string {
  if (tracked.documents.length === 0) return '';
  const m = messages(locale).request;
  return m.documents(tracked.documents.map((d) => escapeClipped(d.fileName ?? m.file, FILE_NAME_MAX)).join(', '));
}

/**
 * The thread root: what was asked, by whom, and where it stands. Rebuilt with the final status.
 * Everyone in the channel reads it, in the language of the person who filed the request.
 */
export function limitRequestRootMessage(
  locale: Locale,
  tracked: TrackedRequest,
  status: string,
  approved?: Record<string, number>,
): SlackMessage {
  const m = messages(locale).request;
  const id = `\`${escapeMrkdwn(tracked.limitRequestId)}\``;
  const account = `\`${escapeMrkdwn(tracked.accountId)}\``;
  const blocks = [
    section(m.rootHead({ id, account })),
    section(fieldLines(locale, tracked, approved).join('\n')),
    section(
      [m.status(statusText(locale, status)), m.requestedBy(`<@${tracked.requesterId}>`), documentsLine(locale, tracked)]
        .filter(Boolean)
        .join('\n'),
    ),
  ];
  if (tracked.approval) {
    blocks.push(
      context(
        messages(locale).approvals.filedAfterApproval({
          checker: tracked.approval.checkers?.length
            ? approvalsGivenText(locale, tracked.approval.checkers)
            : `<@${tracked.approval.checkerId}>`,
          at: formatSaoPauloDateTime(tracked.approval.approvedAt, locale) ?? tracked.approval.approvedAt,
        }),
      ),
    );
  }
  if (status === 'IN_REVIEW') blocks.push(context(m.decisionInThread));
  return {
    text: m.rootText({ id: tracked.limitRequestId, account: tracked.accountId, status: m.statusWord(status) }),
    blocks,
  };
}

/** The one reply in the thread once the request is decided (in the requester's language, like its root). */
export function decisionReplyMessage(
  locale: Locale,
  tracked: TrackedRequest,
  status: DecisionStatus,
  approved?: Record<string, number>,
): SlackMessage {
  const m = messages(locale).request;
  const mention = `<@${tracked.requesterId}>`;
  const id = `\`${escapeMrkdwn(tracked.limitRequestId)}\``;
  if (status === 'REJECTED') {
    return { text: m.rejectedText(tracked.limitRequestId), blocks: [section(m.rejectedReply({ mention, id }))] };
  }
  const lines = fieldLines(locale, tracked, approved);
  const below = Object.entries(tracked.requested).filter(([f, asked]) => (approved?.[f] ?? asked) < asked).length;
  return {
    text: m.approvedText({ id: tracked.limitRequestId, partly: below > 0 }),
    blocks: [section(m.approvedReply({ mention, id, below })), section(lines.join('\n'))],
  };
}
