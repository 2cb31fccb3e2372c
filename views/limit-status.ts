import type { KnownBlock } from '@slack/types';
import { isRequestableLimitField, limitFieldLabel } from '../src/domain/limit-fields';
import { formatCents } from '../src/domain/money';
import { type Locale, messages } from '../src/i18n';
import type { LimitRequest } from '../src/pix/schemas';
import { FILE_NAME_MAX, statusText } from './limit-request';
import { code, context, escapeClipped, escapeMrkdwn, fields, formatDateTime, plain, type SlackMessage, section } from './message';

/** The "Notify this channel" button of `/pix limit status` (its value is the request id). */
export const WATCH_ACTION_ID = 'limit_watch';

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

function limitLines(locale: Locale, request: LimitRequest): string[] {
  const m = messages(locale).limitStatus;
  const money = (cents: number) => formatCents(cents, locale);
  const requested = limitCents(request.requestedLimits);
  const decided = request.status === 'APPROVED' && request.approvedLimits !== undefined;
  const approved = decided ? limitCents(request.approvedLimits) : undefined;
  const lines = Object.entries(requested).map(([field, asked]) => {
    let line = m.requested({ label: limitFieldLabel(field, locale), amount: money(asked) });
    if (approved) {
      const granted = approved[field];
      if (granted === undefined) line += `  ${messages(locale).request.noApprovedValue}`;
      else if (granted < asked) line += `  ${m.approvedBelow(money(granted))}`;
      else line += `  ${m.approved(money(granted))}`;
    }
    return line;
  });
  for (const [field, granted] of Object.entries(approved ?? {})) {
    if (!(field in requested)) lines.push(m.notRequestedApproved({ label: limitFieldLabel(field, locale), amount: money(granted) }));
  }
  return lines;
}

function documentsText(locale: Locale, request: LimitRequest): string {
  const m = messages(locale);
  const docs = request.documents ?? [];
  if (docs.length === 0) return m.common.none;
  return docs.map((d) => escapeClipped(d.fileName ?? d.contentType ?? m.request.file, FILE_NAME_MAX)).join(', ');
}

function channelRef(locale: Locale, channel: string): string {
  return /^[CGD][A-Z0-9]+$/.test(channel) ? `<#${channel}>` : messages(locale).common.channelNamed(escapeMrkdwn(channel));
}

export interface LimitStatusInput {
  request: LimitRequest;
  /** Where the request's thread is, when the app follows it. */
  thread?: { channel: string; closed: boolean };
}

/**
 * `/pix limit status`: where a request stands, what was asked and (once decided) what was granted.
 * A request still in review that the app does not follow gets a "Notify this channel" button.
 */
export function limitStatusMessage(locale: Locale, { request, thread }: LimitStatusInput): SlackMessage {
  const m = messages(locale).limitStatus;
  const blocks: KnownBlock[] = [
    section(m.title(code(request.id))),
    ...fields([
      [m.status, statusText(locale, request.status)],
      [m.account, code(request.companyBankAccountId)],
      [m.created, formatDateTime(request.createdAt, locale)],
      [m.updated, formatDateTime(request.updatedAt, locale)],
    ]),
  ];

  const lines = limitLines(locale, request);
  blocks.push(section(`${m.limits}\n${lines.length > 0 ? lines.join('\n') : m.noAmounts}`));
  const other = otherFields(request.requestedLimits);
  if (other.length > 0) blocks.push(context(m.alsoInRequest(other.join('  ·  '))));
  if (request.status === 'APPROVED' && request.approvedLimits === undefined) blocks.push(context(m.approvedWithoutLimits));
  if (request.status === 'REJECTED') blocks.push(context(m.rejectedNote));

  blocks.push(section(m.documents(documentsText(locale, request))));
  if (request.description) blocks.push(context(m.description(escapeClipped(request.description, 500))));

  if (thread) {
    const where = channelRef(locale, thread.channel);
    blocks.push(context(thread.closed ? m.followedClosed(where) : m.followedOpen(where)));
  } else if (request.status === 'IN_REVIEW') {
    blocks.push(context(m.notFollowed), {
      type: 'actions',
      block_id: 'limit_status_actions',
      elements: [
        {
          type: 'button',
          action_id: WATCH_ACTION_ID,
          text: { type: 'plain_text', text: m.notifyButton },
          value: request.id,
        },
      ],
    });
  }

  return {
    text: m.text({ id: request.id, account: request.companyBankAccountId, status: messages(locale).request.statusWord(request.status) }),
    blocks,
  };
}

/** The answers of the "Notify this channel" button. */
export function watchMessages(locale: Locale) {
  const m = messages(locale).limitStatus;
  return {
    alreadyFollowed: (limitRequestId: string, channel: string): SlackMessage =>
      plain(m.alreadyFollowed({ id: code(limitRequestId), channel: channelRef(locale, channel) })),
    decided: (limitRequestId: string, status: string): SlackMessage =>
      plain(m.alreadyDecided({ id: code(limitRequestId), status: statusText(locale, status) })),
    followed: (limitRequestId: string, channel: string): SlackMessage =>
      plain(m.followed({ id: code(limitRequestId), channel: channelRef(locale, channel) })),
    notInChannel: (): SlackMessage => plain(m.notInChannel),
    noChannel: (): SlackMessage => plain(m.noChannel),
    badValue: (): SlackMessage => plain(messages(locale).common.buttonNoLimitRequest),
    busy: (limitRequestId: string): SlackMessage => plain(m.busy(code(limitRequestId))),
    postFailed: (slackError: string): SlackMessage => plain(m.postFailed(code(slackError))),
    notSaved: (): SlackMessage => plain(m.notSaved),
  };
}
