import { PixOpsError } from '../errors';
import type { PixClient } from './client';
import type { Account } from './schemas';

/**
 * The Pix API marks no account as the default. Its message is for the logs; people are told with
 * `messages(locale).common.noDefaultAccount`.
 */
export class NoDefaultAccountError extends PixOpsError {
  readonly code = 'pixops_no_default_account';

  constructor() {
    super('The Pix API lists no default account for this company; name the account id.');
  }
}

/** The company's default account among `accounts`, as the API marks it (`isDefault`). */
export function defaultAccountId(accounts: Account[]): string {
  const found = accounts.find((a) => a.isDefault === true);
  if (!found) throw new NoDefaultAccountError();
  return found.accountId;
}

export async function findDefaultAccountId(pix: PixClient, appId: string): Promise<string> {
  return defaultAccountId(await pix.listAccounts(appId));
}
