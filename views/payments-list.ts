import type { Button, KnownBlock } from '@slack/types';
import { formatApiCents } from '../src/domain/money';
import { maskPixKey } from '../src/domain/pix-key-mask';
import { type Locale, messages } from '../src/i18n';
import type { PaymentDetail } from '../src/pix/schemas';
import { code, context, escapeClipped, formatDateTime, type SlackMessage, section } from './message';

/** The paging buttons of `/pix payments` (their value is the page they lead to). */
export const PAYMENTS_PREV_ACTION_ID = 'payments_prev';
export const PAYMENTS_NEXT_ACTION_ID = 'payments_next';

/** An error code as the service sent it, shown whole up to this length. */
const CODE_MAX = 80;

/**
 * A payment's status in words. The service's documents differ on the status list (pix-money-out.md §1):
 * `CREATED`, `CONFIRMED` and `FAILED` are read as they are, `DENIED` and `REJECTED` are final failures,
 * and anything else is a payment in progress.
 */
export function paymentStatusText(locale: Locale, payment: PaymentDetail['payment']): string {
  const m = messages(locale).payments;
  switch (payment.status) {
    case 'CREATED':
      return m.statusCreated;
    case 'CONFIRMED':
      return m.statusConfirmed;
    case 'DENIED':
      return m.statusDenied;
    case 'REJECTED':
      return m.statusRejected;
    case 'FAILED': {
      const failure = payment.error?.code;
      return failure ? m.failedWith(escapeClipped(failure, CODE_MAX)) : m.statusFailed;
    }
    default:
      return m.statusInProgress;
  }
}

export interface PaymentsPageInput {
  /** 1-based. */
  page: number;
  pageSize: number;
  /** The page's payments, in the order the service lists them (newest first). */
  items: PaymentDetail[];
  /** Whether there is a next page: the service's `pageInfo.hasNextPage` when it says, else a full page. */
  hasNext: boolean;
}

function paymentBlock(locale: Locale, { payment }: PaymentDetail): KnownBlock {
  const m = messages(locale).payments;
  const key = payment.destinationAlias ? code(maskPixKey(payment.destinationAlias, payment.destinationAliasType)) : '—';
  const amount = payment.value === undefined ? '—' : formatApiCents(payment.value, locale);
  const lines = [
    m.line({
      amount,
      key,
      status: paymentStatusText(locale, payment),
      ...(payment.createdAt ? { created: formatDateTime(payment.createdAt, locale) } : {}),
    }),
  ];
  if (payment.correlationID) lines.push(m.correlation(code(payment.correlationID)));
  return section(lines.join('\n'));
}

function navButton(actionId: string, label: string, page: number): Button {
  return { type: 'button', action_id: actionId, text: { type: 'plain_text', text: label }, value: String(page) };
}

/** One page of the company's payments, with Previous / Next when there is somewhere to go. */
export function paymentsListMessage(locale: Locale, { page, pageSize, items, hasNext }: PaymentsPageInput): SlackMessage {
  const m = messages(locale);
  const skip = (page - 1) * pageSize;
  const buttons: Button[] = [];
  if (page > 1) buttons.push(navButton(PAYMENTS_PREV_ACTION_ID, m.common.previous, page - 1));
  if (hasNext && items.length > 0) buttons.push(navButton(PAYMENTS_NEXT_ACTION_ID, m.common.next, page + 1));
  const nav: KnownBlock[] = buttons.length > 0 ? [{ type: 'actions', block_id: 'payments_nav', elements: buttons }] : [];

  if (items.length === 0) {
    const text = page === 1 ? m.payments.empty : m.payments.emptyPage(page);
    return { text, blocks: [section(text), ...nav] };
  }
  const range = m.limitList.range({ from: skip + 1, to: skip + items.length });
  return {
    text: m.payments.text({ page, range }),
    blocks: [section(m.payments.title({ page, range })), ...items.map((p) => paymentBlock(locale, p)), context(m.payments.footer), ...nav],
  };
}
