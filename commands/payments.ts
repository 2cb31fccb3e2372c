import type { Deps } from '../src/deps';
import type { EntryRow } from '../src/entry/table';
import type { Locale } from '../src/i18n';
import type { SlackMessage } from '../views/message';
import { PAYMENTS_NEXT_ACTION_ID, PAYMENTS_PREV_ACTION_ID, paymentsListMessage } from '../views/payments-list';
import { pagedListRows } from './paging';

/** Payments a page. */
export const PAYMENTS_PAGE_SIZE = 10;

async function pageMessage(deps: Deps, locale: Locale, page: number): Promise<SlackMessage> {
  const listed = await deps.pix.listPayments(deps.mainAppId, { limit: PAYMENTS_PAGE_SIZE, skip: (page - 1) * PAYMENTS_PAGE_SIZE });
  // A service that ignored `limit` must not make the message overflow.
  const items = listed.payments.slice(0, PAYMENTS_PAGE_SIZE);
  const hasNext = listed.pageInfo?.hasNextPage ?? listed.payments.length >= PAYMENTS_PAGE_SIZE;
  return paymentsListMessage(locale, { page, pageSize: PAYMENTS_PAGE_SIZE, items, hasNext });
}

/** `/pix payments [page]`: the company's payments as the service lists them, made in Slack or elsewhere. */
export const paymentsRows: EntryRow[] = pagedListRows({
  id: 'payments',
  summary: 'payments',
  what: 'listPayments',
  buttons: { previous: PAYMENTS_PREV_ACTION_ID, next: PAYMENTS_NEXT_ACTION_ID },
  read: pageMessage,
});
