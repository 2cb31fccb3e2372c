import { limitFieldLabel } from '../src/limits';
import { formatCents } from '../src/money';
import type { TrackedRequest } from '../src/store/tracked-requests';
import { context, escapeMrkdwn, section, type SlackMessage } from './message';

export type RequestStatus = 'IN_REVIEW' | 'APPROVED' | 'REJECTED';

const STATUS_TEXT: Record<RequestStatus, string> = {
  IN_REVIEW: ':hourglass_flowing_sand: In review',
  APPROVED: ':white_check_mark: Approved',
  REJECTED: ':x: Rejected',
};

export function statusText(status: string): string {
  return STATUS_TEXT[status as RequestStatus] ?? escapeMrkdwn(status);
}

/** `A → B` per requested field, in the order they were asked for. */
function fieldLines(tracked: TrackedRequest, approved?: Record<string, number>): string[] {
  return Object.entries(tracked.requested).map(([field, asked]) => {
    const now = tracked.current?.[field];
    const from = now === undefined ? '' : `${formatCents(now)} → `;
    let line = `• ${limitFieldLabel(field)}: ${from}*${formatCents(asked)}*`;
    if (approved) {
      const granted = approved[field];
      if (granted === undefined) line += '  _(no approved value)_';
      else if (granted < asked) line += `  → granted *${formatCents(granted)}* :warning: below the ask`;
      else line += `  → granted *${formatCents(granted)}*`;
    }
    return line;
  });
}

function documentsLine(tracked: TrackedRequest): string {
  if (tracked.documents.length === 0) return '';
  return `*Documents:* ${tracked.documents.map((d) => escapeMrkdwn(d.fileName ?? 'file')).join(', ')}`;
}

/** The thread root: what was asked, by whom, and where it stands. Rebuilt with the final status. */
export function limitRequestRootMessage(tracked: TrackedRequest, status: string, approved?: Record<string, number>): SlackMessage {
  const head = `*Limit increase request* \`${escapeMrkdwn(tracked.limitRequestId)}\` for account \`${escapeMrkdwn(tracked.accountId)}\``;
  const blocks = [
    section(head),
    section(fieldLines(tracked, approved).join('\n')),
    section([`*Status:* ${statusText(status)}`, `*Requested by:* <@${tracked.requesterId}>`, documentsLine(tracked)].filter(Boolean).join('\n')),
  ];
  if (status === 'IN_REVIEW') blocks.push(context('The decision will be posted in this thread.'));
  return {
    text: `Limit increase request ${tracked.limitRequestId} for account ${tracked.accountId}: ${status.replace('_', ' ').toLowerCase()}`,
    blocks,
  };
}

/** The one reply in the thread once the request is decided. */
export function decisionReplyMessage(tracked: TrackedRequest, status: 'APPROVED' | 'REJECTED', approved?: Record<string, number>): SlackMessage {
  const mention = `<@${tracked.requesterId}>`;
  if (status === 'REJECTED') {
    const text = `${mention} the limit increase request \`${escapeMrkdwn(tracked.limitRequestId)}\` was *rejected*. The account's limits did not change.`;
    return { text: `Limit request ${tracked.limitRequestId} was rejected`, blocks: [section(text)] };
  }
  const lines = fieldLines(tracked, approved);
  const below = Object.entries(tracked.requested).filter(([f, asked]) => (approved?.[f] ?? asked) < asked).length;
  const head = `${mention} the limit increase request \`${escapeMrkdwn(tracked.limitRequestId)}\` was *approved*${below ? `, ${below === 1 ? 'one limit' : `${below} limits`} below what was asked` : ''}. The new limits are in effect.`;
  return {
    text: `Limit request ${tracked.limitRequestId} was approved${below ? ' (partly below the ask)' : ''}`,
    blocks: [section(head), section(lines.join('\n'))],
  };
}
