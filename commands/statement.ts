import type { Deps } from '../src/deps';
import type { ActionArgs, EntryContext, EntryRow } from '../src/entry/table';
import { type CommandRow, UsageError } from '../src/entry/table';
import { describeError } from '../src/errors';
import { type ActionKey, type Locale, messages } from '../src/i18n';
import { PixApiError } from '../src/pix/errors';
import { readCarried, StatementPageSchema } from '../views/carried';
import { pixErrorText } from '../views/errors';
import { plain, type SlackMessage } from '../views/message';
import { STATEMENT_NEXT_ACTION_ID, STATEMENT_PREV_ACTION_ID, statementMessage, transactionMessage } from '../views/statement';
import { buttonValue } from './confirm';
import { optionalAccountIdArg, PixIdSchema } from './parse';

/**
 * Which AppID reads, and with which `companyBankAccount`: the main application's own account when no
 * account is given; otherwise the account is named with `companyBankAccount`, which the service lets
 * a MASTER application (of a company with MASTER_APP_READ_ANY_ACCOUNT) do, so the MASTER AppID is used
 * when it is configured.
 */
function reader(deps: Deps, accountId: string | undefined): { appId: string; options: { companyBankAccount?: string } } {
  if (!accountId) return { appId: deps.mainAppId, options: {} };
  return { appId: deps.masterAppId ?? deps.mainAppId, options: { companyBankAccount: accountId } };
}

/** A 403 on another account's read, explained: what the service needs for it. */
function anotherAccountHint(deps: Deps, locale: Locale, err: unknown, accountId: string | undefined): string | undefined {
  if (!accountId || !(err instanceof PixApiError) || err.status !== 403 || err.missingScope) return undefined;
  const m = messages(locale).statement;
  return m.otherAccountHint(deps.masterAppId ? m.otherAccountWithMaster : m.otherAccountWithoutMaster);
}

async function answerOrExplain(
  deps: Deps,
  locale: Locale,
  accountId: string | undefined,
  action: ActionKey,
  read: () => Promise<SlackMessage>,
): Promise<SlackMessage> {
  try {
    return await read();
  } catch (err) {
    const hint = anotherAccountHint(deps, locale, err, accountId);
    if (!hint || !(err instanceof PixApiError)) throw err; // the router answers with the API's own text
    deps.logger.warn({ operation: err.operation, status: err.status, kind: err.kind }, 'Pix API call failed');
    return plain(`${pixErrorText(locale, err, action)}\n${hint}`);
  }
}

async function statementPage(deps: Deps, locale: Locale, page: number, accountId: string | undefined): Promise<SlackMessage> {
  const { appId, options } = reader(deps, accountId);
  const body = await deps.pix.getStatement(appId, options);
  return statementMessage(locale, { body, page, accountId });
}

export const statementCommand: CommandRow = {
  kind: 'command',
  id: 'statement',
  argsUsage: '[accountId]',
  summary: 'statement',
  what: 'readStatement',
  role: 'viewer',
  minArgs: 0,
  maxArgs: 1,
  async handler({ deps, args, locale }) {
    const accountId = optionalAccountIdArg(locale, args[0]);
    return answerOrExplain(deps, locale, accountId, 'readStatement', () => statementPage(deps, locale, 1, accountId));
  },
};

export const transactionCommand: CommandRow = {
  kind: 'command',
  id: 'transaction',
  argsUsage: '<transactionId> [accountId]',
  summary: 'transaction',
  what: 'readTransaction',
  role: 'viewer',
  minArgs: 1,
  maxArgs: 2,
  async handler({ deps, args, locale }) {
    const transactionId = args[0] ?? '';
    if (!PixIdSchema.safeParse(transactionId).success) throw new UsageError(messages(locale).usage.notTransactionId);
    const accountId = optionalAccountIdArg(locale, args[1]);
    return answerOrExplain(deps, locale, accountId, 'readTransaction', async () => {
      const { appId, options } = reader(deps, accountId);
      const body = await deps.pix.getTransaction(appId, transactionId, options);
      return transactionMessage(locale, { transactionId, accountId, body });
    });
  },
};

/** Previous / Next: the statement is read again and the ephemeral message replaced. */
async function turnPage(args: ActionArgs, ctx: EntryContext): Promise<void> {
  const { deps, locale } = ctx;
  const m = messages(locale);
  const say = (message: SlackMessage) => args.respond({ response_type: 'ephemeral', replace_original: false, ...ctx.present(message) });
  const value = readCarried(StatementPageSchema, buttonValue(args.action));
  if (!value) {
    await say(plain(m.common.buttonNoStatementPage));
    return;
  }
  let message: SlackMessage;
  try {
    message = await answerOrExplain(deps, locale, value.accountId, 'readStatement', () =>
      statementPage(deps, locale, value.page, value.accountId),
    );
  } catch (err) {
    if (err instanceof PixApiError) {
      deps.logger.warn({ operation: err.operation, status: err.status, kind: err.kind }, 'Pix API call failed');
      await say(plain(pixErrorText(locale, err, 'readStatement')));
    } else {
      deps.logger.error({ ...describeError(err) }, 'could not read the statement');
      await say(plain(m.common.wentWrongNothingMore(m.actions.readStatement)));
    }
    return;
  }
  await args.respond({ replace_original: true, ...ctx.present(message) });
}

export const statementRows: EntryRow[] = [
  statementCommand,
  transactionCommand,
  { kind: 'action', id: STATEMENT_PREV_ACTION_ID, role: 'viewer', what: 'readStatement', handler: turnPage },
  { kind: 'action', id: STATEMENT_NEXT_ACTION_ID, role: 'viewer', what: 'readStatement', handler: turnPage },
];
