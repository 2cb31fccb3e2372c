import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { type AccountAnswer, type ApplicationAnswer, api, control } from './helpers';

describe('withdraw Pix key', () => {
  let sb: SandboxHandle;
  let appId: string;
  let accountId: string;
  let taxId: string;

  beforeAll(async () => {
    sb = await startSandbox();
    ({ mainAppId: appId, defaultAccountId: accountId, taxId } = sb.companies.main);
  });
  afterAll(() => sb.close());

  const post = (pixKey: string, app = appId) =>
    api<AccountAnswer>(sb, 'POST', '/api/v1/pix-keys/withdraw', { appId: app, body: { pixKey } });
  const put = (pixKey: string, app = appId) => api<AccountAnswer>(sb, 'PUT', '/api/v1/pix-keys/withdraw', { appId: app, body: { pixKey } });

  it('answers 403 while the API is not enabled on the account, and hides pixKeyWithdraw', async () => {
    for (const res of [await post('a@example.com'), await put('a@example.com')]) {
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ error: 'Withdraw Pix key API not enabled' });
    }
    const account = (await api<AccountAnswer>(sb, 'GET', `/api/v1/account/${accountId}`, { appId })).json.account;
    expect('pixKeyWithdraw' in account).toBe(false);
  });

  it('shows pixKeyWithdraw as null once enabled', async () => {
    const enabled = await control(sb, 'POST', `/accounts/${accountId}/withdraw-key-api`, { enabled: true });
    expect(enabled.status).toBe(200);
    const account = (await api<AccountAnswer>(sb, 'GET', `/api/v1/account/${accountId}`, { appId })).json.account;
    expect(account.pixKeyWithdraw).toBeNull();
  });

  it('refuses keys missing from the DICT, of another holder, or of the service’s own accounts', async () => {
    const missing = await post('nobody@example.com');
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ error: 'Pix key not found in DICT' });

    await control(sb, 'POST', '/dict', { pixKey: 'stranger@example.com', type: 'EMAIL', holderTaxId: '11222333000181' });
    const stranger = await post('stranger@example.com');
    expect(stranger.status).toBe(400);
    expect(stranger.json).toEqual({ error: 'Pix key holder does not match the account holder' });

    await control(sb, 'POST', '/dict', { pixKey: 'service@example.com', type: 'EMAIL', holderTaxId: taxId, serviceAccount: true });
    const service = await post('service@example.com');
    expect(service.status).toBe(400);
    expect(service.json).toEqual({ error: 'Pix key belongs to an account of this service' });
  });

  it('POST registers and selects; POST again is 400 (use PUT); PUT of an unknown key is 404', async () => {
    const evp = '2f9b8f4e-5a8c-4b1e-9d3a-0c7e6f5a4b3c';
    expect((await control(sb, 'POST', '/dict', { pixKey: evp, type: 'EVP', holderTaxId: taxId })).status).toBe(201);

    const registered = await post(evp);
    expect(registered.status).toBe(200);
    expect(registered.json.account).toMatchObject({ accountId, pixKeyWithdraw: { pixKey: evp, type: 'RANDOM' } });

    const again = await post(evp);
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ error: 'Pix key already exists' });

    const selected = await put(evp);
    expect(selected.status).toBe(200);
    expect(selected.json).toEqual(registered.json);

    const unknown = await put('never-registered@example.com');
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({ error: 'Pix key not found' });
  });

  it('PUT selects a key the company already has on another of its accounts', async () => {
    const { masterAppId } = sb.companies.main;
    await control(sb, 'POST', '/dict', { pixKey: 'finance@example.com', type: 'EMAIL', holderTaxId: taxId });
    expect((await post('finance@example.com')).status).toBe(200);

    const account = (await api<AccountAnswer>(sb, 'POST', '/api/v1/account', { appId: masterAppId })).json.account.accountId;
    const campaignApp = (
      await api<ApplicationAnswer>(sb, 'POST', '/api/v1/application', {
        appId: masterAppId,
        body: { accountId: account, application: { name: 'C', type: 'API' } },
      })
    ).json.application.appID;
    await control(sb, 'POST', `/accounts/${account}/withdraw-key-api`, { enabled: true });

    expect((await post('finance@example.com', campaignApp)).status).toBe(400);
    const selected = await put('finance@example.com', campaignApp);
    expect(selected.status).toBe(200);
    expect(selected.json.account).toMatchObject({ accountId: account, pixKeyWithdraw: { pixKey: 'finance@example.com', type: 'EMAIL' } });

    // The other company does not have it.
    const other = sb.companies.other;
    await control(sb, 'POST', `/accounts/${other.defaultAccountId}/withdraw-key-api`, { enabled: true });
    expect((await put('finance@example.com', other.mainAppId)).status).toBe(404);
  });

  it('needs PIX_KEY_WITHDRAW_POST and PIX_KEY_WITHDRAW_PUT', async () => {
    const limited = sb.companies.main.limitedAppId;
    expect((await post('x@example.com', limited)).json).toEqual({
      error: 'Application does not have required scope: PIX_KEY_WITHDRAW_POST',
    });
    expect((await put('x@example.com', limited)).json).toEqual({ error: 'Application does not have required scope: PIX_KEY_WITHDRAW_PUT' });
  });

  it('reports withdrawBlocked as set by the control route', async () => {
    await control(sb, 'POST', `/accounts/${accountId}/withdraw-blocked`, { blocked: true });
    expect((await api<AccountAnswer>(sb, 'GET', `/api/v1/account/${accountId}`, { appId })).json.account.withdrawBlocked).toBe(true);
  });
});
