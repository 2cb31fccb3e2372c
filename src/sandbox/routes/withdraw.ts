import { z } from 'zod';
import type { ApiRouter } from '../context';
import { fail, jsonReply } from '../http';
import { parseWith } from '../validate';

const withdrawSchema = z.object(
  {
    value: z
      .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be an integer (cents)') })
      .int('must be an integer (cents)')
      .positive('must be greater than 0'),
  },
  { error: 'Body must be a JSON object' },
);

export function registerWithdrawRoutes(router: ApiRouter): void {
  // Sends the amount to the account's withdraw key, with the AppID of that account's own application.
  router.add('POST', '/api/v1/account/:accountId/withdraw', {
    scope: 'ACCOUNT_WITHDRAW_POST',
    handle({ state, caller, params, body }) {
      const account = state.accountOf(caller.companyId, params.accountId ?? '');
      if (!account) throw fail(404, 'Account not found');
      if (caller.accountId !== account.id) throw fail(403, 'Application is not allowed to withdraw from another account');
      const key = account.pixKeyWithdraw;
      if (!key) throw fail(400, 'Account has no withdraw Pix key');
      if (account.withdrawBlocked) throw fail(400, 'Withdraw is blocked for this account: its withdraw Pix key was not found in DICT');
      const { value } = parseWith(withdrawSchema, body());
      if (value > account.balance.available) throw fail(400, 'Insufficient balance: the value is above the available balance');
      if (!state.dict.has(key.pixKey)) {
        account.withdrawBlocked = true;
        throw fail(400, 'Withdraw Pix key not found in DICT: withdraws of this account are blocked');
      }

      const tx = state.addTransaction(account, 'DEBIT', value, 'Withdraw to the withdraw Pix key', state.clock.date());
      return jsonReply(200, {
        withdraw: {
          account: { accountId: account.id, isDefault: account.isDefault, balance: { ...account.balance } },
          // A string, as the service's reference types it (pix-money-out.md §3 calls it unclear; clients read both).
          transaction: { endToEndId: tx.endToEndId, value: String(value) },
        },
      });
    },
  });
}
