import type { Deps } from '../src/deps';
import type { EntryRow } from '../src/entry/table';
import { type CommandRow, UsageError } from '../src/entry/table';
import { type Locale, messages } from '../src/i18n';
import { LIST_NEXT_ACTION_ID, LIST_PREV_ACTION_ID, limitListMessage } from '../views/limit-list';
import type { SlackMessage } from '../views/message';
import { pageTurner, parsePage } from './paging';

/** Requests a page; the API allows at most 100. */
export const PAGE_SIZE = 10;

async function pageMessage(deps: Deps, locale: Locale, page: number): Promise<SlackMessage> {
  const { items, total } = await deps.pix.listLimitRequests(deps.mainAppId, { limit: PAGE_SIZE, skip: (page - 1) * PAGE_SIZE });
  // A service that ignored `limit` must not make the message overflow.
  return limitListMessage(locale, { page, pageSize: PAGE_SIZE, items: items.slice(0, PAGE_SIZE), total });
}

export const limitListCommand: CommandRow = {
  kind: 'command',
  id: 'limit list',
  argsUsage: '[page]',
  summary: 'limitList',
  what: 'listLimitRequests',
  role: 'viewer',
  minArgs: 0,
  maxArgs: 1,
  async handler({ deps, args, locale }) {
    const [given] = args;
    const page = given === undefined ? 1 : parsePage(given);
    if (page === undefined) throw new UsageError(messages(locale).usage.badPage);
    return pageMessage(deps, locale, page);
  },
};

/** Previous / Next: the page the button names, read again. */
const turnPage = pageTurner('listLimitRequests', async ({ deps, locale }, value) => {
  const page = parsePage(value);
  return page === undefined ? undefined : pageMessage(deps, locale, page);
});

export const limitListRows: EntryRow[] = [
  limitListCommand,
  { kind: 'action', id: LIST_PREV_ACTION_ID, role: 'viewer', what: 'listLimitRequests', handler: turnPage },
  { kind: 'action', id: LIST_NEXT_ACTION_ID, role: 'viewer', what: 'listLimitRequests', handler: turnPage },
];
