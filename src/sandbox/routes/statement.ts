import type { ApiContext, ApiRouter } from '../context';
import { fail, jsonReply } from '../http';
import type { Account } from '../state';
import { boundAccount } from './pix-keys';

/**
 * The account read: the AppID's own, or with `companyBankAccount` another account of the company,
 * which only a MASTER application of a company with MASTER_APP_READ_ANY_ACCOUNT may read.
 */
function readableAccount(ctx: ApiContext): Account {
  const own = boundAccount(ctx);
  const requested = ctx.query.companyBankAccount;
  if (requested === undefined || requested === own.id) return own;
  const account = ctx.state.accountOf(ctx.caller.companyId, requested);
  if (!account) throw fail(404, 'Account not found');
  const company = ctx.state.companies.get(ctx.caller.companyId);
  if (ctx.caller.type !== 'MASTER' || !company?.features.has('MASTER_APP_READ_ANY_ACCOUNT')) {
    throw fail(403, 'Application is not allowed to read another account');
  }
  return account;
}

export function registerStatementRoutes(router: ApiRouter): void {
  // A bare array, newest first, as the real service answers.
  router.add('GET', '/api/v1/statement', {
    handle(ctx) {
      const account = readableAccount(ctx);
      const entries = ctx.state
        .transactionsOf(account.id)
        .reverse()
        .map((t) => ({
          id: t.entryId,
          time: t.time,
          description: t.description,
          balance: t.balance,
          value: t.value,
          type: t.type,
          transactionId: t.id,
        }));
      return jsonReply(200, entries);
    },
  });

  router.add('GET', '/api/v1/transaction/:id', {
    handle(ctx) {
      const account = readableAccount(ctx);
      const tx = ctx.state.transactions.get(ctx.params.id ?? '');
      if (tx?.accountId !== account.id) throw fail(404, 'Transaction not found');
      return jsonReply(200, {
        transaction: {
          id: tx.id,
          time: tx.time,
          description: tx.description,
          value: tx.value,
          type: tx.type,
          endToEndId: tx.endToEndId,
          companyBankAccount: tx.accountId,
        },
      });
    },
  });
}
