import { requireMaster } from '../auth';
import type { ApiRouter } from '../context';
import { fail, jsonReply } from '../http';
import { accountView } from '../views';

export function registerAccountRoutes(router: ApiRouter): void {
  router.add('GET', '/api/v1/account', {
    handle({ state, caller }) {
      return jsonReply(200, { accounts: state.accountsOf(caller.companyId).map(accountView) });
    },
  });

  router.add('GET', '/api/v1/account/:accountId', {
    handle({ state, caller, params }) {
      const account = state.accountOf(caller.companyId, params.accountId ?? '');
      if (!account) throw fail(404, 'Account not found');
      return jsonReply(200, { account: accountView(account) });
    },
  });

  // Takes no body: the new account copies the holder data of the MASTER application's account.
  router.add('POST', '/api/v1/account', {
    handle({ state, caller }) {
      requireMaster(caller);
      const company = state.companies.get(caller.companyId);
      if (!company) throw fail(404, 'Account not found');
      return jsonReply(200, { account: accountView(state.createAccount(company, false)) });
    },
  });
}
