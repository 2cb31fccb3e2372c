import type { Deps } from '../src/deps';
import type { EntryRow } from '../src/entry/table';
import type { Locale } from '../src/i18n';
import { LIST_NEXT_ACTION_ID, LIST_PREV_ACTION_ID, limitListMessage } from '../views/limit-list';
import type { SlackMessage } from '../views/message';
import { pagedListRows } from './paging';

/** Requests a page; the API allows at most 100. */
export const PAGE_SIZE = 10;

async function pageMessage(deps: Deps, locale: Locale, page: number): Promise<SlackMessage> {
  const { items, total } = await deps.pix.listLimitRequests(deps.mainAppId, { limit: PAGE_SIZE, skip: (page - 1) * PAGE_SIZE });
  // A service that ignored `limit` must not make the message overflow.
  return limitListMessage(locale, { page, pageSize: PAGE_SIZE, items: items.slice(0, PAGE_SIZE), total });
}

/** `/pix limit list [page]`: the company's limit requests. */
export const limitListRows: EntryRow[] = pagedListRows({
  id: 'limit list',
  summary: 'limitList',
  what: 'listLimitRequests',
  buttons: { previous: LIST_PREV_ACTION_ID, next: LIST_NEXT_ACTION_ID },
  read: pageMessage,
});
