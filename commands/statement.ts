import { z } from 'zod';
import type { Deps } from '../src/deps';
import type { ActionArgs, Entry, EntryContext } from '../src/entries';
import { PixApiError } from '../src/pix/errors';
import { pixErrorText } from '../views/errors';
import { plain, type SlackMessage } from '../views/message';
import { STATEMENT_NEXT_ACTION_ID, STATEMENT_PREV_ACTION_ID, statementMessage, transactionMessage } from '../views/statement';
import { buttonValue } from './limit-status';
import { PixIdSchema } from './parse';
import { UsageError, type CommandDef } from './types';

const STATEMENT_ACTION = 'read the statement';
const TRANSACTION_ACTION = 'read the transaction';

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
function anotherAccountHint(deps: Deps, err: unknown, accountId: string | undefined): string | undefined {
  if (!accountId || !(err instanceof PixApiError) || err.status !== 403 || err.missingScope) return undefined;
  const how = deps.masterAppId
    ? 'the company needs the feature `MASTER_APP_READ_ANY_ACCOUNT` enabled by the Pix service.'
    : 'set `PIX_MASTER_APP_ID` (only a MASTER application may do it) and have the feature `MASTER_APP_READ_ANY_ACCOUNT` enabled for the company.';
  return `Reading another account with \`companyBankAccount\` needs a MASTER application: ${how}`;
}

async function answerOrExplain(deps: Deps, accountId: string | undefined, action: string, read: () => Promise<SlackMessage>): Promise<SlackMessage> {
  try {
    return await read();
  } catch (err) {
    const hint = anotherAccountHint(deps, err, accountId);
    if (!hint || !(err instanceof PixApiError)) throw err; // the router answers with the API's own text
    deps.logger.warn({ operation: err.operation, status: err.status, kind: err.kind }, 'Pix API call failed');
    return plain(`${pixErrorText(err, action)}\n${hint}`);
  }
}

function accountArg(given: string | undefined): string | undefined {
  if (given !== undefined && !PixIdSchema.safeParse(given).success) throw new UsageError('That is not an account id.');
  return given;
}

async function statementPage(deps: Deps, page: number, accountId: string | undefined): Promise<SlackMessage> {
  const { appId, options } = reader(deps, accountId);
  const body = await deps.pix.getStatement(appId, options);
  return statementMessage({ body, page, accountId });
}

export const statementCommand: CommandDef = {
  path: ['statement'],
  argsUsage: '[accountId]',
  summary: 'the account’s statement, 15 entries a page (the main account when none is given)',
  action: STATEMENT_ACTION,
  role: 'viewer',
  minArgs: 0,
  maxArgs: 1,
  async run({ deps, args }) {
    const accountId = accountArg(args[0]);
    return answerOrExplain(deps, accountId, STATEMENT_ACTION, () => statementPage(deps, 1, accountId));
  },
};

export const transactionCommand: CommandDef = {
  path: ['transaction'],
  argsUsage: '<transactionId> [accountId]',
  summary: 'one transaction of the account (the main account when none is given)',
  action: TRANSACTION_ACTION,
  role: 'viewer',
  minArgs: 1,
  maxArgs: 2,
  async run({ deps, args }) {
    const transactionId = args[0] ?? '';
    if (!PixIdSchema.safeParse(transactionId).success) throw new UsageError('That is not a transaction id.');
    const accountId = accountArg(args[1]);
    return answerOrExplain(deps, accountId, TRANSACTION_ACTION, async () => {
      const { appId, options } = reader(deps, accountId);
      const body = await deps.pix.getTransaction(appId, transactionId, options);
      return transactionMessage({ transactionId, accountId, body });
    });
  },
};

const PageValueSchema = z.object({ p: z.number().int().min(1).max(1_000_000), a: PixIdSchema.optional() });

/** Previous / Next: the statement is read again and the ephemeral message replaced. */
async function turnPage(args: ActionArgs, ctx: EntryContext): Promise<void> {
  const { deps } = ctx;
  const say = (message: SlackMessage) => args.respond({ response_type: 'ephemeral', replace_original: false, ...ctx.present(message) });
  let value: z.infer<typeof PageValueSchema> | undefined;
  try {
    value = PageValueSchema.parse(JSON.parse(buttonValue(args.action) ?? ''));
  } catch {
    value = undefined;
  }
  if (!value) {
    await say(plain('This button does not name a statement page. Nothing was done.'));
    return;
  }
  let message: SlackMessage;
  try {
    message = await answerOrExplain(deps, value.a, STATEMENT_ACTION, () => statementPage(deps, value.p, value.a));
  } catch (err) {
    if (err instanceof PixApiError) {
      deps.logger.warn({ operation: err.operation, status: err.status, kind: err.kind }, 'Pix API call failed');
      await say(plain(pixErrorText(err, STATEMENT_ACTION)));
    } else {
      deps.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'could not read the statement');
      await say(plain(`Something went wrong while trying to ${STATEMENT_ACTION}. Nothing more was done.`));
    }
    return;
  }
  await args.respond({ replace_original: true, ...ctx.present(message) });
}

export const statementCommands: CommandDef[] = [statementCommand, transactionCommand];
export const statementEntries: Entry[] = [
  { kind: 'action', actionId: STATEMENT_PREV_ACTION_ID, role: 'viewer', what: STATEMENT_ACTION, handle: turnPage },
  { kind: 'action', actionId: STATEMENT_NEXT_ACTION_ID, role: 'viewer', what: STATEMENT_ACTION, handle: turnPage },
];
