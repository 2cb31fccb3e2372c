import type { Deps } from '../src/deps';
import type { CommandRow, EntryRow } from '../src/entry/table';
import { describeError } from '../src/errors';
import type { Locale } from '../src/i18n';
import type { Account } from '../src/pix/schemas';
import { ACCOUNTS_NEXT_ACTION_ID, ACCOUNTS_PREV_ACTION_ID, type AppStatus, accountMessage, accountsMessage } from '../views/accounts';
import type { SlackMessage } from '../views/message';
import { isPending } from './account-shared';
import { pageTurner, parsePage } from './paging';
import { accountIdArg } from './parse';

// Listing the accounts: `/pix accounts` a page at a time, `/pix account`, each with how the bot reaches its keys.

async function appStatusOf(deps: Deps, account: Account): Promise<AppStatus> {
  try {
    const stored = await deps.store.accountApps.get(account.accountId);
    if (stored && isPending(stored))
      return stored.uncertainSince ? { kind: 'uncertain', name: stored.name } : { kind: 'pending', name: stored.name };
    if (stored) return { kind: stored.staleSince ? 'stale' : 'stored', name: stored.name, clientId: stored.clientId };
  } catch (err) {
    deps.logger.warn({ accountId: account.accountId, ...describeError(err) }, 'could not read a stored AppID');
  }
  return account.isDefault === true ? { kind: 'main' } : { kind: 'none' };
}

const accountsCommand: CommandRow = {
  kind: 'command',
  id: 'accounts',
  argsUsage: '',
  summary: 'accounts',
  what: 'readAccounts',
  role: 'viewer',
  minArgs: 0,
  maxArgs: 0,
  async handler({ deps, locale }) {
    return accountsPage(deps, locale, 1);
  },
};

/** A page of `/pix accounts`: the list is read again each time (the stored AppIDs too). */
async function accountsPage(deps: Deps, locale: Locale, page: number): Promise<SlackMessage> {
  const accounts = await deps.pix.listAccounts(deps.mainAppId);
  const rows = await Promise.all(accounts.map(async (account) => ({ account, app: await appStatusOf(deps, account) })));
  return accountsMessage(locale, rows, page);
}

const turnAccountsPage = pageTurner('readAccounts', async ({ deps, locale }, value) => {
  const page = parsePage(value);
  return page === undefined ? undefined : accountsPage(deps, locale, page);
});

const accountCommand: CommandRow = {
  kind: 'command',
  id: 'account',
  argsUsage: '<accountId>',
  summary: 'account',
  what: 'readAccount',
  role: 'viewer',
  minArgs: 1,
  maxArgs: 1,
  async handler({ deps, args, locale }) {
    const id = accountIdArg(locale, args[0]);
    const account = await deps.pix.getAccount(deps.mainAppId, id);
    return accountMessage(locale, { account, app: await appStatusOf(deps, account) });
  },
};

export const accountListRows: EntryRow[] = [
  accountsCommand,
  accountCommand,
  { kind: 'action', id: ACCOUNTS_PREV_ACTION_ID, role: 'viewer', what: 'readAccounts', handler: turnAccountsPage },
  { kind: 'action', id: ACCOUNTS_NEXT_ACTION_ID, role: 'viewer', what: 'readAccounts', handler: turnAccountsPage },
];
