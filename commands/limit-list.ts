import type { Deps } from '../src/entry/deps';
import { messages, type Locale } from '../src/i18n';
import type { ActionArgs, EntryRow, EntryContext } from '../src/entry/table';
import { PixApiError } from '../src/pix/errors';
import { pixErrorText } from '../views/errors';
import { LIST_NEXT_ACTION_ID, LIST_PREV_ACTION_ID, limitListMessage } from '../views/limit-list';
import { plain, type SlackMessage } from '../views/message';
import { buttonValue } from './limit-status';
import { UsageError, type CommandRow } from '../src/entry/table';
import { errorText } from '../src/runtime/error-text';

/** Requests a page; the API allows at most 100. */
export const PAGE_SIZE = 10;
/** Far beyond any real list, and keeps `skip` an exact integer. */
const MAX_PAGE = 1_000_000;

/** A page number as people type it (`1`, `2`, …); undefined for anything else. */
export function parsePage(text: string): number | undefined {
  if (!/^\d{1,7}$/.test(text)) return undefined;
  const page = Number(text);
  return page >= 1 && page <= MAX_PAGE ? page : undefined;
}

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

/** Previous / Next: the list lives in an ephemeral message, which only `respond` can replace. */
async function turnPage(args: ActionArgs, ctx: EntryContext): Promise<void> {
  const { deps, locale } = ctx;
  const m = messages(locale);
  const say = (message: SlackMessage) => args.respond({ response_type: 'ephemeral', replace_original: false, ...ctx.present(message) });
  const value = buttonValue(args.action);
  const page = value === undefined ? undefined : parsePage(value);
  if (page === undefined) {
    await say(plain(m.common.buttonNoPage));
    return;
  }
  let message: SlackMessage;
  try {
    message = await pageMessage(deps, locale, page);
  } catch (err) {
    if (err instanceof PixApiError) {
      deps.logger.warn({ operation: err.operation, status: err.status, kind: err.kind }, 'Pix API call failed');
      await say(plain(pixErrorText(locale, err, 'listLimitRequests')));
    } else {
      deps.logger.error({ err: errorText(err) }, 'could not list limit requests');
      await say(plain(m.common.wentWrongNothingMore(m.actions.listLimitRequests)));
    }
    return;
  }
  await args.respond({ replace_original: true, ...ctx.present(message) });
}

export const limitListRows: EntryRow[] = [
  limitListCommand,
  { kind: 'action', id: LIST_PREV_ACTION_ID, role: 'viewer', what: 'listLimitRequests', handler: turnPage },
  { kind: 'action', id: LIST_NEXT_ACTION_ID, role: 'viewer', what: 'listLimitRequests', handler: turnPage },
];
