import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { type AccountAnswer, type ApplicationAnswer, api, control, type LimitsAnswer } from './helpers';

describe('accounts, applications and Pix keys', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('lists and reads the accounts of the caller’s company only', async () => {
    const { main, other } = sb.companies;
    const list = await api<{ accounts: unknown[] }>(sb, 'GET', '/api/v1/account', { appId: main.mainAppId });
    expect(list.status).toBe(200);
    expect(list.json.accounts).toEqual([
      {
        accountId: main.defaultAccountId,
        taxId: main.taxId,
        isDefault: true,
        balance: { total: 1500000, blocked: 0, available: 1500000 },
        withdrawBlocked: false,
      },
    ]);
    const foreign = await api(sb, 'GET', `/api/v1/account/${other.defaultAccountId}`, { appId: main.mainAppId });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual({ error: 'Account not found' });
    const own = await api<AccountAnswer>(sb, 'GET', `/api/v1/account/${main.defaultAccountId}`, { appId: main.limitedAppId });
    expect(own.json.account.accountId).toBe(main.defaultAccountId);
  });

  it('creates an account with the MASTER AppID only, ignoring any body', async () => {
    const { main } = sb.companies;
    const refused = await api(sb, 'POST', '/api/v1/account', { appId: main.mainAppId });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: 'Wrong API type' });

    const created = await api<AccountAnswer>(sb, 'POST', '/api/v1/account', { appId: main.masterAppId, body: { name: 'ignored' } });
    expect(created.status).toBe(200);
    expect(created.json.account).toEqual({
      accountId: expect.stringMatching(/^[0-9a-f]{24}$/),
      taxId: main.taxId,
      isDefault: false,
      balance: { total: 0, blocked: 0, available: 0 },
      withdrawBlocked: false,
    });
    const limits = await api<LimitsAnswer>(sb, 'GET', `/api/v1/limits/${created.json.account.accountId}`, { appId: main.mainAppId });
    expect(limits.json.limits.pixDayLimit).toBe(500000);
    const list = await api<{ accounts: unknown[] }>(sb, 'GET', '/api/v1/account', { appId: main.mainAppId });
    expect(list.json.accounts).toHaveLength(2);
  });

  it('creates an API application for an account of the company, with a working AppID', async () => {
    const { main, other } = sb.companies;
    const account = (await api<AccountAnswer>(sb, 'POST', '/api/v1/account', { appId: main.masterAppId })).json.account.accountId;
    const body = { accountId: account, application: { name: 'Campaign X', type: 'API' } };

    const res = await api<ApplicationAnswer>(sb, 'POST', '/api/v1/application', { appId: main.masterAppId, body });
    expect(res.status).toBe(201);
    const app = res.json.application;
    expect(app).toEqual({
      name: 'Campaign X',
      isActive: true,
      type: 'API',
      clientId: expect.stringMatching(/^Client_Id_/),
      clientSecret: expect.stringMatching(/^Client_Secret_/),
      appID: expect.any(String),
      companyBankAccount: account,
    });
    expect(Buffer.from(app.appID, 'base64').toString()).toBe(`${app.clientId}:${app.clientSecret}`);
    const keys = await api<{ account: unknown }>(sb, 'GET', '/api/v1/pix-keys', { appId: app.appID });
    expect(keys.json.account).toEqual({ accountId: account, isDefault: false, balance: { total: 0, blocked: 0, available: 0 } });

    expect((await api(sb, 'POST', '/api/v1/application', { appId: main.mainAppId, body })).json).toEqual({ error: 'Wrong API type' });
    const foreign = await api(sb, 'POST', '/api/v1/application', { appId: other.masterAppId, body });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual({ error: 'Account not found' });
    const wrongType = await api(sb, 'POST', '/api/v1/application', {
      appId: main.masterAppId,
      body: { ...body, application: { name: 'x', type: 'MASTER' } },
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.json).toEqual({ error: 'application.type must be API' });
  });

  it('lists the scope groups for any valid AppID', async () => {
    const res = await api<{ scopes: Array<{ group: string; scopes: string[] }> }>(sb, 'GET', '/api/v1/application/scopes', {
      appId: sb.companies.main.limitedAppId,
    });
    expect(res.status).toBe(200);
    const scopes = res.json.scopes.flatMap((g: { group: string; scopes: string[] }) => g.scopes);
    expect(scopes.sort()).toEqual(
      [
        'ACCOUNT_LIMITS_GET',
        'ACCOUNT_LIMITS_REQUEST_POST',
        'APPLICATION_ROTATE_POST',
        'FILE_POST',
        'PIX_KEY_WITHDRAW_POST',
        'PIX_KEY_WITHDRAW_PUT',
        'SUBSCRIPTION_PAYMENT_BOOK_GET',
        'PAYMENT_POST',
        'PAYMENT_APPROVE_POST',
        'PAYMENT_GET_LIST',
        'ACCOUNT_WITHDRAW_POST',
      ].sort(),
    );
  });

  it('rotates the secret of an application of the company (MASTER, with the scope)', async () => {
    const { main, other } = sb.companies;
    const account = (await api<AccountAnswer>(sb, 'POST', '/api/v1/account', { appId: main.masterAppId })).json.account.accountId;
    const app = (
      await api<ApplicationAnswer>(sb, 'POST', '/api/v1/application', {
        appId: main.masterAppId,
        body: { accountId: account, application: { name: 'Rot', type: 'API' } },
      })
    ).json.application;

    const rotated = await api<ApplicationAnswer>(sb, 'POST', '/api/v1/application/rotate-secret', {
      appId: main.masterAppId,
      body: { clientId: app.clientId },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.json).toEqual({ application: { clientId: app.clientId, clientSecret: expect.stringMatching(/^Client_Secret_/) } });
    expect(rotated.json.application.clientSecret).not.toBe(app.clientSecret);
    // Decision of the sandbox: the AppID keeps working after a rotation.
    expect((await api(sb, 'GET', '/api/v1/pix-keys', { appId: app.appID })).status).toBe(200);

    const notMaster = await api(sb, 'POST', '/api/v1/application/rotate-secret', {
      appId: main.mainAppId,
      body: { clientId: app.clientId },
    });
    expect(notMaster.json).toEqual({ error: 'Wrong API type' });
    const foreign = await api(sb, 'POST', '/api/v1/application/rotate-secret', {
      appId: other.masterAppId,
      body: { clientId: app.clientId },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.json).toEqual({ error: 'Application not found' });

    await control(sb, 'PUT', `/applications/${encodeURIComponent(main.masterAppId)}/scopes`, { scopes: ['FILE_POST'] });
    const noScope = await api(sb, 'POST', '/api/v1/application/rotate-secret', {
      appId: main.masterAppId,
      body: { clientId: app.clientId },
    });
    expect(noScope.status).toBe(403);
    expect(noScope.json).toEqual({ error: 'Application does not have required scope: APPLICATION_ROTATE_POST' });
    await control(sb, 'PUT', `/applications/${encodeURIComponent(main.masterAppId)}/scopes`, {
      scopes: [
        'APPLICATION_ROTATE_POST',
        'FILE_POST',
        'ACCOUNT_LIMITS_GET',
        'ACCOUNT_LIMITS_REQUEST_POST',
        'PIX_KEY_WITHDRAW_POST',
        'PIX_KEY_WITHDRAW_PUT',
        'SUBSCRIPTION_PAYMENT_BOOK_GET',
      ],
    });
  });

  describe('Pix keys of the AppID’s account', () => {
    let appId: string;
    beforeAll(async () => {
      const { main } = sb.companies;
      const account = (await api<AccountAnswer>(sb, 'POST', '/api/v1/account', { appId: main.masterAppId })).json.account.accountId;
      appId = (
        await api<ApplicationAnswer>(sb, 'POST', '/api/v1/application', {
          appId: main.masterAppId,
          body: { accountId: account, application: { name: 'Keys', type: 'API' } },
        })
      ).json.application.appID;
    });

    it('creates, lists and deletes keys', async () => {
      const email = await api(sb, 'POST', '/api/v1/pix-keys', { appId, body: { pixKey: 'campaign@example.com', type: 'EMAIL' } });
      expect(email.status).toBe(201);
      expect(email.json).toEqual({ pixKey: { key: 'campaign@example.com', type: 'EMAIL' } });

      const evp = await api<{ pixKey: { key: string } }>(sb, 'POST', '/api/v1/pix-keys', { appId, body: { pixKey: '', type: 'EVP' } });
      expect(evp.status).toBe(201);
      expect(evp.json.pixKey.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

      const phone = await api(sb, 'POST', '/api/v1/pix-keys', { appId, body: { pixKey: '+5511912345678', type: 'PHONE' } });
      expect(phone.status).toBe(201);

      const list = await api<{ pixKeys: unknown[] }>(sb, 'GET', '/api/v1/pix-keys', { appId });
      expect(list.status).toBe(200);
      expect(list.json.pixKeys).toEqual([
        { key: 'campaign@example.com', type: 'EMAIL' },
        { key: evp.json.pixKey.key, type: 'EVP' },
        { key: '+5511912345678', type: 'PHONE' },
      ]);

      const deleted = await fetch(`${sb.url}/api/v1/pix-keys/${encodeURIComponent('+5511912345678')}`, {
        method: 'DELETE',
        headers: { authorization: appId },
      });
      expect(deleted.status).toBe(204);
      expect(await deleted.text()).toBe('');
      const again = await api(sb, 'DELETE', `/api/v1/pix-keys/${encodeURIComponent('+5511912345678')}`, { appId });
      expect(again.status).toBe(404);
      expect(again.json).toEqual({ error: 'Pix key not found' });
      expect((await api<{ pixKeys: unknown[] }>(sb, 'GET', '/api/v1/pix-keys', { appId })).json.pixKeys).toHaveLength(2);
    });

    it('refuses duplicates, bad types and malformed keys', async () => {
      const dup = await api(sb, 'POST', '/api/v1/pix-keys', { appId, body: { pixKey: 'dup@example.com', type: 'EMAIL' } });
      expect(dup.status).toBe(201);
      const again = await api(sb, 'POST', '/api/v1/pix-keys', {
        appId: sb.companies.main.mainAppId,
        body: { pixKey: 'dup@example.com', type: 'EMAIL' },
      });
      expect(again.status).toBe(400);
      expect(again.json).toEqual({ error: 'Pix key already exists' });
      expect((await api(sb, 'POST', '/api/v1/pix-keys', { appId, body: { pixKey: 'x', type: 'TWITTER' } })).status).toBe(400);
      const bad = await api(sb, 'POST', '/api/v1/pix-keys', { appId, body: { pixKey: 'not-an-email', type: 'EMAIL' } });
      expect(bad.json).toEqual({ error: 'Invalid EMAIL Pix key' });
    });

    it('keeps keys per account: another account’s AppID cannot delete them', async () => {
      await api(sb, 'POST', '/api/v1/pix-keys', { appId, body: { pixKey: 'mine@example.com', type: 'EMAIL' } });
      const res = await api(sb, 'DELETE', '/api/v1/pix-keys/mine%40example.com', { appId: sb.companies.main.mainAppId });
      expect(res.status).toBe(404);
    });
  });
});
