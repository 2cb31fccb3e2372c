import type { PixClient } from './pix/client';

export class NoDefaultAccountError extends Error {
  constructor() {
    super('The Pix API lists no default account for this company; name the account id.');
  }
}

/** The company's default account, as the API marks it (`isDefault`). */
export async function findDefaultAccountId(pix: PixClient, appId: string): Promise<string> {
  const accounts = await pix.listAccounts(appId);
  const found = accounts.find((a) => a.isDefault === true);
  if (!found) throw new NoDefaultAccountError();
  return found.accountId;
}
