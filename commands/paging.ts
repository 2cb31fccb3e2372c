import type { Deps } from '../src/deps';
import { type ActionArgs, type CommandRow, type EntryContext, type EntryRow, UsageError } from '../src/entry/table';
import { describeError } from '../src/errors';
import { type ActionKey, type Locale, messages, type SummaryKey } from '../src/i18n';
import { PixApiError } from '../src/pix/errors';
import { isStoreUnavailable } from '../src/store/errors';
import { pixErrorText } from '../views/errors';
import { plain, type SlackMessage } from '../views/message';
import { buttonValue } from './confirm';

/** Far beyond any real list, and keeps a page's first index an exact integer. */
const MAX_PAGE = 1_000_000;

/** A page number as people type it (`1`, `2`, …); undefined for anything else. */
export function parsePage(text: string): number | undefined {
  if (!/^\d{1,7}$/.test(text)) return undefined;
  const page = Number(text);
  return page >= 1 && page <= MAX_PAGE ? page : undefined;
}

/**
 * The handler of a list's Previous / Next buttons. The list lives in an ephemeral message, which only
 * `respond` can replace: `read` builds the page the button's value leads to (undefined for a value it
 * cannot read), and the message is replaced with it. A bad value (recorded as `usage`), or a failure,
 * is told apart, in a message of its own; the list stays as it was.
 */
export function pageTurner(
  what: ActionKey,
  read: (ctx: EntryContext, value: string) => Promise<SlackMessage | undefined>,
  options: { noPage?: (locale: Locale) => string } = {},
) {
  return async (args: ActionArgs, ctx: EntryContext): Promise<void> => {
    const { deps, locale } = ctx;
    const m = messages(locale);
    const say = (message: SlackMessage) => args.respond({ response_type: 'ephemeral', replace_original: false, ...ctx.present(message) });
    let page: SlackMessage | undefined;
    try {
      page = await read(ctx, buttonValue(args.action) ?? '');
    } catch (err) {
      if (err instanceof PixApiError) {
        deps.logger.warn({ operation: err.operation, status: err.status, kind: err.kind }, 'Pix API call failed');
        await say(plain(pixErrorText(locale, err, what)));
      } else if (isStoreUnavailable(err)) {
        deps.logger.warn({ ...describeError(err), action: what }, 'could not turn a page: the store is unavailable');
        await say(plain(m.common.storeUnavailable));
      } else {
        deps.logger.error({ ...describeError(err), action: what }, 'could not turn a page');
        await say(plain(m.common.wentWrongNothingMore(m.actions[what])));
      }
      return;
    }
    if (!page) {
      deps.audit.outcome('usage');
      await say(plain(options.noPage?.(locale) ?? m.common.buttonNoPage));
      return;
    }
    await args.respond({ replace_original: true, ...ctx.present(page) });
  };
}

/**
 * The rows of a list read a page at a time (`/pix <id> [page]`, a viewer's): the command, and its
 * Previous / Next buttons, each reading the page it names with `read`.
 */
export function pagedListRows(list: {
  id: string;
  summary: SummaryKey;
  what: ActionKey;
  buttons: { previous: string; next: string };
  read: (deps: Deps, locale: Locale, page: number) => Promise<SlackMessage>;
}): EntryRow[] {
  const command: CommandRow = {
    kind: 'command',
    id: list.id,
    argsUsage: '[page]',
    summary: list.summary,
    what: list.what,
    role: 'viewer',
    minArgs: 0,
    maxArgs: 1,
    async handler({ deps, args, locale }) {
      const [given] = args;
      const page = given === undefined ? 1 : parsePage(given);
      if (page === undefined) throw new UsageError(messages(locale).usage.badPage);
      return list.read(deps, locale, page);
    },
  };
  const turnPage = pageTurner(list.what, async ({ deps, locale }, value) => {
    const page = parsePage(value);
    return page === undefined ? undefined : list.read(deps, locale, page);
  });
  return [
    command,
    { kind: 'action', id: list.buttons.previous, role: 'viewer', what: list.what, handler: turnPage },
    { kind: 'action', id: list.buttons.next, role: 'viewer', what: list.what, handler: turnPage },
  ];
}
