import { z } from 'zod';
import type { ApiContext, ApiRouter } from '../context';
import { fail, jsonReply } from '../http';
import type { Account } from '../state';
import { parseWith } from '../validate';
import { accountView } from '../views';
import { boundAccount } from './pix-keys';

const bodySchema = z.object({ pixKey: z.string({ error: 'is required' }).trim().min(1, 'is required') });

/** The withdraw-key endpoints exist only for accounts where the API was enabled. */
function enabledAccount(ctx: ApiContext): Account {
  const account = boundAccount(ctx);
  if (!account.withdrawKeyApiEnabled) throw fail(403, 'Withdraw Pix key API not enabled');
  return account;
}

export function registerWithdrawKeyRoutes(router: ApiRouter): void {
  // Registers the key for the company and selects it on the account in one step.
  router.add('POST', '/api/v1/pix-keys/withdraw', {
    scope: 'PIX_KEY_WITHDRAW_POST',
    handle(ctx) {
      const account = enabledAccount(ctx);
      const { pixKey } = parseWith(bodySchema, ctx.body());
      const company = ctx.state.companies.get(account.companyId);
      if (!company) throw fail(404, 'Account not found');
      if (company.withdrawKeys.has(pixKey)) throw fail(400, 'Pix key already exists');
      const entry = ctx.state.dict.get(pixKey);
      if (!entry) throw fail(400, 'Pix key not found in DICT');
      if (entry.holderTaxId !== account.taxId) throw fail(400, 'Pix key holder does not match the account holder');
      if (entry.serviceAccount) throw fail(400, 'Pix key belongs to an account of this service');

      company.withdrawKeys.set(pixKey, entry.type);
      account.pixKeyWithdraw = { pixKey, type: entry.type };
      return jsonReply(200, { account: accountView(account) });
    },
  });

  // Selects a key the company registered before; unchanged when it already is the withdraw key.
  router.add('PUT', '/api/v1/pix-keys/withdraw', {
    scope: 'PIX_KEY_WITHDRAW_PUT',
    handle(ctx) {
      const account = enabledAccount(ctx);
      const { pixKey } = parseWith(bodySchema, ctx.body());
      const type = ctx.state.companies.get(account.companyId)?.withdrawKeys.get(pixKey);
      if (!type) throw fail(404, 'Pix key not found');
      if (account.pixKeyWithdraw?.pixKey !== pixKey) account.pixKeyWithdraw = { pixKey, type };
      return jsonReply(200, { account: accountView(account) });
    },
  });
}
