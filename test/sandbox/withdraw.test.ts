import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { waitFor } from '../support/wait';
import { type AccountAnswer, type ApplicationAnswer, api, control, type Failure, type StatementEntry } from './helpers';

type WithdrawAnswer = {
  withdraw: {
    account: { accountId: string; isDefault: boolean; balance: { total: number; blocked: number; available: number } };
    transaction: { endToEndId: string; value: string };
  };
};

describe('withdrawing a campaign account to its withdraw key', () => {
  let sb: SandboxHandle;

  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());
  afterEach(() => control(sb, 'DELETE', '/faults'));

  /** A campaign account with its own application, 100,000 cents in it, and (unless told) a withdraw key. */
  async function campaign(withKey = true): Promise<{ accountId: string; appId: string; key: string }> {
    const { masterAppId, taxId } = sb.companies.main;
    const accountId = (await api<AccountAnswer>(sb, 'POST', '/api/v1/account', { appId: masterAppId })).json.account.accountId;
    const appId = (
      await api<ApplicationAnswer>(sb, 'POST', '/api/v1/application', {
        appId: masterAppId,
        body: { accountId, application: { name: `Campaign ${accountId}`, type: 'API' } },
      })
    ).json.application.appID;
    await control(sb, 'POST', `/accounts/${accountId}/transactions`, { type: 'CREDIT', value: 100_000 });
    // The company's own CNPJ, seeded in the DICT as its key at another bank.
    const key = taxId;
    if (withKey) {
      await control(sb, 'POST', `/accounts/${accountId}/withdraw-key-api`, { enabled: true });
      const set = await api(sb, 'PUT', '/api/v1/pix-keys/withdraw', { appId, body: { pixKey: key } });
      if (set.status !== 200) {
        const registered = await api(sb, 'POST', '/api/v1/pix-keys/withdraw', { appId, body: { pixKey: key } });
        if (registered.status !== 200) throw new Error(`withdraw key not set: ${JSON.stringify(registered.json)}`);
      }
    }
    return { accountId, appId, key };
  }
  const withdraw = (accountId: string, appId: string, body: unknown = { value: 40_000 }) =>
    api<WithdrawAnswer & Failure>(sb, 'POST', `/api/v1/account/${accountId}/withdraw`, { appId, body });
  const account = async (accountId: string, appId: string) =>
    (await api<AccountAnswer>(sb, 'GET', `/api/v1/account/${accountId}`, { appId })).json.account;

  it('sends the value to the withdraw key with the account’s own AppID: balance debited, a statement entry', async () => {
    const c = await campaign();
    const before = sb.calls.length;
    const res = await withdraw(c.accountId, c.appId);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      withdraw: {
        account: { accountId: c.accountId, isDefault: false, balance: { total: 60_000, blocked: 0, available: 60_000 } },
        transaction: { endToEndId: expect.stringMatching(/^E[0-9A-F]{31}$/), value: '40000' },
      },
    });
    expect((await account(c.accountId, c.appId)).balance).toEqual({ total: 60_000, blocked: 0, available: 60_000 });
    const [latest] = (await api<StatementEntry[]>(sb, 'GET', '/api/v1/statement', { appId: c.appId })).json;
    expect(latest).toMatchObject({ type: 'DEBIT', value: 40_000, balance: 60_000 });
    const tx = await api<{ transaction: { endToEndId: string } }>(sb, 'GET', `/api/v1/transaction/${latest!.transactionId}`, {
      appId: c.appId,
    });
    expect(tx.json.transaction.endToEndId).toBe(res.json.withdraw.transaction.endToEndId);
    expect(sb.calls.slice(before)[0]).toMatchObject({
      method: 'POST',
      path: `/api/v1/account/${c.accountId}/withdraw`,
      authorization: c.appId,
      body: { value: 40_000 },
    });
  });

  it('refuses another AppID of the company (403), another company’s or an unknown account (404), an AppID without the scope', async () => {
    const c = await campaign();
    const { main, other } = sb.companies;
    const foreign = await withdraw(c.accountId, main.mainAppId);
    expect(foreign.status).toBe(403);
    expect(foreign.json).toEqual({ error: 'Application is not allowed to withdraw from another account' });
    for (const [accountId, appId] of [
      [c.accountId, other.mainAppId],
      ['ffffffffffffffffffffffff', c.appId],
    ] as const) {
      const res = await withdraw(accountId, appId);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 'Account not found' });
    }
    const limited = await withdraw(main.defaultAccountId, main.limitedAppId);
    expect(limited.status).toBe(403);
    expect(limited.json).toEqual({ error: 'Application does not have required scope: ACCOUNT_WITHDRAW_POST' });
    expect((await account(c.accountId, c.appId)).balance.available).toBe(100_000);
  });

  it('refuses an account without a withdraw key, a bad value, and a value above the available balance', async () => {
    const bare = await campaign(false);
    const noKey = await withdraw(bare.accountId, bare.appId);
    expect(noKey.status).toBe(400);
    expect(noKey.json).toEqual({ error: 'Account has no withdraw Pix key' });

    const c = await campaign();
    for (const [body, error] of [
      [{}, 'value is required'],
      [{ value: 0 }, 'value must be greater than 0'],
      [{ value: 10.5 }, 'value must be an integer (cents)'],
      [{ value: '100' }, 'value must be an integer (cents)'],
      [null, 'Body must be a JSON object'],
    ] as const) {
      const res = await withdraw(c.accountId, c.appId, body);
      expect([body, res.status, res.json]).toEqual([body, 400, { error }]);
    }
    const empty = await api(sb, 'POST', `/api/v1/account/${c.accountId}/withdraw`, { appId: c.appId });
    expect(empty.json).toEqual({ error: 'Body must be a JSON object' });
    const above = await withdraw(c.accountId, c.appId, { value: 100_001 });
    expect(above.status).toBe(400);
    expect(above.json).toEqual({ error: 'Insufficient balance: the value is above the available balance' });
    expect((await account(c.accountId, c.appId)).balance.available).toBe(100_000);
    // The whole available balance may go.
    expect((await withdraw(c.accountId, c.appId, { value: 100_000 })).json.withdraw.account.balance.available).toBe(0);
  });

  it('a withdraw key the DICT no longer finds blocks the account’s withdraws, the first time and every time after', async () => {
    const other = await startSandbox();
    try {
      const { masterAppId, taxId } = other.companies.main;
      const accountId = (await api<AccountAnswer>(other, 'POST', '/api/v1/account', { appId: masterAppId })).json.account.accountId;
      const appId = (
        await api<ApplicationAnswer>(other, 'POST', '/api/v1/application', {
          appId: masterAppId,
          body: { accountId, application: { name: 'C', type: 'API' } },
        })
      ).json.application.appID;
      await control(other, 'POST', `/accounts/${accountId}/transactions`, { type: 'CREDIT', value: 100_000 });
      await control(other, 'POST', `/accounts/${accountId}/withdraw-key-api`, { enabled: true });
      expect((await api(other, 'POST', '/api/v1/pix-keys/withdraw', { appId, body: { pixKey: taxId } })).status).toBe(200);

      expect((await control(other, 'DELETE', `/dict/${taxId}`)).status).toBe(204);
      expect((await control(other, 'DELETE', `/dict/${taxId}`)).status).toBe(404);
      const first = await api<Failure>(other, 'POST', `/api/v1/account/${accountId}/withdraw`, { appId, body: { value: 1_000 } });
      expect(first.status).toBe(400);
      expect(first.json).toEqual({ error: 'Withdraw Pix key not found in DICT: withdraws of this account are blocked' });
      const read = (await api<AccountAnswer>(other, 'GET', `/api/v1/account/${accountId}`, { appId })).json.account;
      expect(read.withdrawBlocked).toBe(true);
      expect(read.balance.available).toBe(100_000);

      // The key back in the DICT changes nothing: the block stays until the account takes another key.
      await control(other, 'POST', '/dict', { pixKey: taxId, type: 'CNPJ', holderTaxId: taxId });
      const again = await api<Failure>(other, 'POST', `/api/v1/account/${accountId}/withdraw`, { appId, body: { value: 1_000 } });
      expect(again.status).toBe(400);
      expect(again.json).toEqual({ error: 'Withdraw is blocked for this account: its withdraw Pix key was not found in DICT' });
    } finally {
      await other.close();
    }
  });

  it('refuses at once an account whose withdraw is blocked by the control', async () => {
    const c = await campaign();
    await control(sb, 'POST', `/accounts/${c.accountId}/withdraw-blocked`, { blocked: true });
    const res = await withdraw(c.accountId, c.appId, { value: 1 });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: 'Withdraw is blocked for this account: its withdraw Pix key was not found in DICT' });
  });

  it('faults apply: an answer lost after the withdraw was made, a 5xx before it (nothing made) or after it (made)', async () => {
    const c = await campaign();
    const path = `/api/v1/account/${c.accountId}/withdraw`;
    await control(sb, 'POST', '/faults', { lateAnswer: { ms: 3_000, count: 1, method: 'POST', pathPrefix: path } });
    // The caller gives up once the money has left, while the answer is held back.
    const caller = new AbortController();
    const answer = fetch(`${sb.url}${path}`, {
      method: 'POST',
      headers: { authorization: c.appId, 'content-type': 'application/json' },
      body: JSON.stringify({ value: 10_000 }),
      signal: caller.signal,
    });
    await waitFor('the withdraw made', async () => (await account(c.accountId, c.appId)).balance.available === 90_000);
    caller.abort();
    await expect(answer).rejects.toThrow();

    await control(sb, 'POST', '/faults', { fail: { status: 503, count: 1, method: 'POST', pathPrefix: path } });
    expect((await withdraw(c.accountId, c.appId, { value: 10_000 })).status).toBe(503);
    expect((await account(c.accountId, c.appId)).balance.available).toBe(90_000);

    await control(sb, 'POST', '/faults', { fail: { status: 500, count: 1, method: 'POST', pathPrefix: path, afterWrite: true } });
    const lost = await withdraw(c.accountId, c.appId, { value: 10_000 });
    expect(lost.status).toBe(500);
    expect(lost.json).toEqual({ error: 'Sandbox fault' });
    expect((await account(c.accountId, c.appId)).balance.available).toBe(80_000);
  });
});
