import type { KnownBlock } from '@slack/types';
import { isRequestableLimitField, limitFieldLabel } from '../src/limits';
import { formatCents } from '../src/money';
import type { LimitRequest } from '../src/pix/schemas';
import { statusText } from './limit-request';
import { context, escapeMrkdwn, fields, plain, section, type SlackMessage } from './message';

/** The "Notify this channel" button of `/pix limit status` (its value is the request id). */
export const WATCH_ACTION_ID = 'limit_watch';

const DATE_TIME = new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', dateStyle: 'short', timeStyle: 'short' });

/** An ISO timestamp of the API as people in Brazil read it (`05/03/2026, 14:30`, Brasília time). */
export function formatDateTime(iso: string | undefined): string {
  if (!iso) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? escapeMrkdwn(iso) : DATE_TIME.format(at);
}

/**
 * The money fields of a `requestedLimits`/`approvedLimits` object, in cents: only requestable limit
 * fields with a safe-integer value, day and night first, the rest in the API's order.
 */
export function limitCents(limits: Record<string, unknown> | undefined): Record<string, number> {
  const entries = Object.entries(limits ?? {}).filter((e): e is [string, number] => isRequestableLimitField(e[0], e[1]));
  const rank = (f: string) => (f === 'pixDayLimit' ? 0 : f === 'pixNightLimit' ? 1 : 2);
  entries.sort((a, b) => rank(a[0]) - rank(b[0]));
  return Object.fromEntries(entries);
}

/** Whatever else a limits object of a request carries, shown as it is (never as money). */
function otherFields(limits: Record<string, unknown> | undefined): string[] {
  return Object.entries(limits ?? {})
    .filter(([field, value]) => !isRequestableLimitField(field, value))
    .map(([field, value]) => `${escapeMrkdwn(field)}: ${escapeMrkdwn(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))}`);
}

function limitLines(request: LimitRequest): string[] {
  const requested = limitCents(request.requestedLimits);
  const decided = request.status === 'APPROVED' && request.approvedLimits !== undefined;
  const approved = decided ? limitCents(request.approvedLimits) : undefined;
  const lines = Object.entries(requested).map(([field, asked]) => {
    let line = `• ${limitFieldLabel(field)}: requested *${formatCents(asked)}*`;
    if (approved) {
      const granted = approved[field];
      if (granted === undefined) line += '  _(no approved value)_';
      else if (granted < asked) line += `  → approved *${formatCents(granted)}* :warning: below the ask`;
      else line += `  → approved *${formatCents(granted)}*`;
    }
    return line;
  });
  for (const [field, granted] of Object.entries(approved ?? {})) {
    if (!(field in requested)) lines.push(`• ${limitFieldLabel(field)}: not requested  → approved *${formatCents(granted)}*`);
  }
  return lines;
}

function documentsText(request: LimitRequest): string {
  const docs = request.documents ?? [];
  if (docs.length === 0) return 'none';
  return docs.map((d) => escapeMrkdwn(d.fileName ?? d.contentType ?? 'file')).join(', ');
}

function channelRef(channel: string): string {
  return /^[CGD][A-Z0-9]+$/.test(channel) ? `<#${channel}>` : `channel ${escapeMrkdwn(channel)}`;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export interface LimitStatusInput {
  request: LimitRequest;
  /** Where the request's thread is, when the app follows it. */
  thread?: { channel: string; closed: boolean };
}

/**
 * `/pix limit status`: where a request stands, what was asked and (once decided) what was granted.
 * A request still in review that the app does not follow gets a "Notify this channel" button.
 */
export function limitStatusMessage({ request, thread }: LimitStatusInput): SlackMessage {
  const id = escapeMrkdwn(request.id);
  const blocks: KnownBlock[] = [
    section(`*Limit request* \`${id}\``),
    ...fields([
      ['Status', statusText(request.status)],
      ['Account', `\`${escapeMrkdwn(request.companyBankAccountId)}\``],
      ['Created', formatDateTime(request.createdAt)],
      ['Updated', formatDateTime(request.updatedAt)],
    ]),
  ];

  const lines = limitLines(request);
  blocks.push(section(lines.length > 0 ? `*Limits*\n${lines.join('\n')}` : '*Limits*\n_No limit amounts in this request._'));
  const other = otherFields(request.requestedLimits);
  if (other.length > 0) blocks.push(context(`Also in the request: ${other.join('  ·  ')}`));
  if (request.status === 'APPROVED' && request.approvedLimits === undefined) {
    blocks.push(context(':warning: Marked approved, but the service sent no approved limits: not an approval yet.'));
  }
  if (request.status === 'REJECTED') blocks.push(context('Rejected: nothing was granted and the account\'s limits did not change.'));

  blocks.push(section(`*Documents:* ${documentsText(request)}`));
  if (request.description) blocks.push(context(`*Description:* ${escapeMrkdwn(clip(request.description, 500))}`));

  if (thread) {
    blocks.push(
      context(
        thread.closed
          ? `Followed by Pix Ops: its thread is in ${channelRef(thread.channel)}.`
          : `Followed by Pix Ops: its thread is in ${channelRef(thread.channel)}, where the decision will be posted.`,
      ),
    );
  } else if (request.status === 'IN_REVIEW') {
    blocks.push(
      context('Pix Ops does not follow this request yet. *Notify this channel* posts it here, and its decision in its thread.'),
      {
        type: 'actions',
        block_id: 'limit_status_actions',
        elements: [
          {
            type: 'button',
            action_id: WATCH_ACTION_ID,
            text: { type: 'plain_text', text: 'Notify this channel' },
            value: request.id,
          },
        ],
      },
    );
  }

  return {
    text: `Limit request ${request.id} for account ${request.companyBankAccountId}: ${request.status.replace(/_/g, ' ').toLowerCase()}`,
    blocks,
  };
}

/** The answers of the "Notify this channel" button. */
export const watchMessages = {
  alreadyFollowed: (limitRequestId: string, channel: string): SlackMessage =>
    plain(`The limit request \`${escapeMrkdwn(limitRequestId)}\` is already followed: its thread is in ${channelRef(channel)}. Nothing more was done.`),
  decided: (limitRequestId: string, status: string): SlackMessage =>
    plain(`The limit request \`${escapeMrkdwn(limitRequestId)}\` is already decided (${statusText(status)}), so there is nothing to wait for. Nothing was posted.`),
  followed: (limitRequestId: string, channel: string): SlackMessage =>
    plain(`Done: the limit request \`${escapeMrkdwn(limitRequestId)}\` is posted in ${channelRef(channel)}, and its decision will be posted in that thread.`),
  notInChannel: (): SlackMessage =>
    plain('I cannot post in this channel. Invite me with `/invite @Pix Ops` and click again. Nothing was posted or followed.'),
  noChannel: (): SlackMessage => plain('I cannot tell which channel this button is in. Nothing was posted or followed.'),
  badValue: (): SlackMessage => plain('This button does not name a limit request. Nothing was done.'),
  busy: (limitRequestId: string): SlackMessage =>
    plain(`The limit request \`${escapeMrkdwn(limitRequestId)}\` is being set up in a channel right now. Nothing more was done.`),
  postFailed: (slackError: string): SlackMessage =>
    plain(`Slack refused the message (\`${escapeMrkdwn(slackError)}\`), so nothing was posted or followed.`),
  notSaved: (): SlackMessage =>
    plain('The request could not be saved as followed, so the message was taken back. Nothing is followed; try again in a moment.'),
};
