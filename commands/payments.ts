import type { Deps } from '../src/deps';
import type { EntryRow } from '../src/entry/table';
import { type CommandRow, UsageError } from '../src/entry/table';
import { type Locale, messages } from '../src/i18n';
import type { SlackMessage } from '../views/message';
import { PAYMENTS_NEXT_ACTION_ID, PAYMENTS_PREV_ACTION_ID, paymentsListMessage } from '../views/payments-list';
import { pageTurner, parsePage } from './paging';

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
export const paymentsCommand: CommandRow = {
  kind: 'command',
  id: 'payments',
  argsUsage: '[page]',
  summary: 'payments',
  what: 'listPayments',
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
const turnPage = pageTurner('listPayments', async ({ deps, locale }, value) => {
  const page = parsePage(value);
  return page === undefined ? undefined : pageMessage(deps, locale, page);
});

export const paymentsRows: EntryRow[] = [
  paymentsCommand,
  { kind: 'action', id: PAYMENTS_PREV_ACTION_ID, role: 'viewer', what: 'listPayments', handler: turnPage },
  { kind: 'action', id: PAYMENTS_NEXT_ACTION_ID, role: 'viewer', what: 'listPayments', handler: turnPage },
];
