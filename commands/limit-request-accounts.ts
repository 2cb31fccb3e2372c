import type { OptionsRow } from '../src/entry/table';
import { ACCOUNT_ACTION, accountOptions } from '../views/limit-request-modal';

/**
 * The accounts of the limit-request form's select, searched as the user types: with more accounts
 * than a static select holds, the form's select loads them from here (the manifest's options load URL).
 */
export const accountOptionsRow: OptionsRow = {
  kind: 'options',
  id: ACCOUNT_ACTION,
  role: 'operator',
  what: 'fileLimitRequest',
  async handler({ payload }, { deps, locale }) {
    const accounts = await deps.pix.listAccounts(deps.mainAppId);
    return accountOptions(locale, accounts, payload.value ?? '');
  },
};
