import type { Button, KnownBlock } from '@slack/types';
import { formatCents } from '../src/domain/money';
import { type Locale, messages } from '../src/i18n';
import type { LimitRequest } from '../src/pix/schemas';
import { statusText } from './limit-request';
import { limitCents } from './limit-status';
import { context, escapeMrkdwn, formatDateTime, type SlackMessage, section } from './message';

/** The paging buttons of `/pix limit list` (their value is the page they lead to). */
export const LIST_PREV_ACTION_ID = 'limit_list_prev';
export const LIST_NEXT_ACTION_ID = 'limit_list_next';

export interface LimitListInput {
  /** 1-based. */
  page: number;
  pageSize: number;
  /** The page's requests, newest first as the API returns them. */
  items: LimitRequest[];
  /** How many requests there are in all, when the API says. */
  total?: number;
}

function requestBlock(locale: Locale, request: LimitRequest): KnownBlock {
  const requested = limitCents(request.requestedLimits);
  const amount = (cents: number | undefined) => (cents === undefined ? '—' : formatCents(cents, locale));
  return section(
    [
      `\`${escapeMrkdwn(request.id)}\`  ${statusText(locale, request.status)}`,
      messages(locale).limitList.line({
        account: `\`${escapeMrkdwn(request.companyBankAccountId)}\``,
        day: amount(requested.pixDayLimit),
        night: amount(requested.pixNightLimit),
        created: formatDateTime(request.createdAt, locale),
      }),
    ].join('\n'),
  );
}

function navButton(actionId: string, label: string, page: number): Button {
  return { type: 'button', action_id: actionId, text: { type: 'plain_text', text: label }, value: String(page) };
}

/** One page of the company's limit requests, with Previous / Next when there is somewhere to go. */
export function limitListMessage(locale: Locale, { page, pageSize, items, total }: LimitListInput): SlackMessage {
  const m = messages(locale);
  const skip = (page - 1) * pageSize;
  const hasPrevious = page > 1;
  const hasNext = total !== undefined ? total > skip + items.length && items.length > 0 : items.length >= pageSize;

  const buttons: Button[] = [];
  if (hasPrevious) buttons.push(navButton(LIST_PREV_ACTION_ID, m.common.previous, page - 1));
  if (hasNext) buttons.push(navButton(LIST_NEXT_ACTION_ID, m.common.next, page + 1));
  const nav: KnownBlock[] = buttons.length > 0 ? [{ type: 'actions', block_id: 'limit_list_nav', elements: buttons }] : [];

  if (items.length === 0) {
    const text = page === 1 ? m.limitList.empty : m.limitList.emptyPage(page);
    return { text, blocks: [section(text), ...nav] };
  }

  const range = m.limitList.range({ from: skip + 1, to: skip + items.length, ...(total !== undefined ? { total } : {}) });
  return {
    text: m.limitList.text({ page, range }),
    blocks: [
      section(m.limitList.title({ page, range })),
      ...items.map((r) => requestBlock(locale, r)),
      context(m.limitList.footer),
      ...nav,
    ],
  };
}
