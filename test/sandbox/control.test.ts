import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { waitFor } from '../support/wait';
import { type AccountAnswer, type ApplicationAnswer, api, control } from './helpers';

describe('authentication, routing and the control routes', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());
  afterEach(() => control(sb, 'DELETE', '/faults'));

  it('answers 401 in the { data, errors } form to a missing or unknown AppID', async () => {
    for (const appId of [undefined, 'not-an-app-id']) {
      const res = await api(sb, 'GET', '/api/v1/account', appId === undefined ? {} : { appId });
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ data: null, errors: [{ message: 'Invalid appID' }] });
    }
  });

  it('answers 404 { error: "Not found" } to unknown routes', async () => {
    for (const path of ['/api/v1/nothing', '/api/v2/account', '/sandbox/nothing']) {
      const res = await api(sb, 'GET', path, { appId: sb.companies.main.mainAppId });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 'Not found' });
    }
  });

  it('answers 403 naming the scope, and the scope can be granted through the control route', async () => {
    const { limitedAppId, defaultAccountId } = sb.companies.main;
    const denied = await api(sb, 'GET', `/api/v1/limits/${defaultAccountId}`, { appId: limitedAppId });
    expect(denied.status).toBe(403);
    expect(denied.json).toEqual({ error: 'Application does not have required scope: ACCOUNT_LIMITS_GET' });

    const granted = await control<ApplicationAnswer>(sb, 'PUT', `/applications/${encodeURIComponent(limitedAppId)}/scopes`, {
      scopes: ['ACCOUNT_LIMITS_GET'],
    });
    expect(granted.status).toBe(200);
    expect(granted.json.application.scopes).toEqual(['ACCOUNT_LIMITS_GET']);
    expect((await api(sb, 'GET', `/api/v1/limits/${defaultAccountId}`, { appId: limitedAppId })).status).toBe(200);

    await control(sb, 'PUT', `/applications/${encodeURIComponent(limitedAppId)}/scopes`, { scopes: [] });
    expect((await api(sb, 'GET', `/api/v1/limits/${defaultAccountId}`, { appId: limitedAppId })).status).toBe(403);
    expect((await control(sb, 'PUT', `/applications/${encodeURIComponent(limitedAppId)}/scopes`, { scopes: ['NOPE'] })).status).toBe(400);
  });

  it('describes itself at /sandbox/info', async () => {
    const res = await control<Record<string, unknown>>(sb, 'GET', '/info');
    expect(res.json).toEqual({
      url: sb.url,
      companies: sb.companies,
      clock: { now: expect.any(String), offsetMs: 0 },
      dict: expect.arrayContaining([
        {
          pixKey: '71460238001',
          type: 'CPF',
          holderTaxId: '71460238001',
          serviceAccount: false,
          holder: { name: 'Ana Beatriz Costa', bank: 'Nu Pagamentos S.A.', branch: '0001', account: '8123456-7' },
        },
      ]),
      payments: {
        confirmDelayMs: 1_500,
        failureCodes: expect.objectContaining({ REACH_TRANSFER_LIMIT: 'Limite de transferência Pix atingido' }),
        failNext: null,
      },
      lookups: { minTokens: 20, paidRefund: 2, foundCacheMs: 1_800_000, missingCacheMs: 300_000, checkValidMs: 900_000 },
    });
    const { main, other } = sb.companies;
    expect(main.companyId).not.toBe(other.companyId);
    for (const id of [main.companyId, main.defaultAccountId, main.subscriptionId, main.disputeId]) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(main.taxId).toMatch(/^\d{14}$/);
  });

  it('logs every /api/v1 call in order, not the control calls, and can be cleared', async () => {
    await control(sb, 'DELETE', '/calls');
    expect(sb.calls).toHaveLength(0);
    const appId = sb.companies.main.mainAppId;
    await api(sb, 'GET', '/api/v1/limits/request?limit=5&skip=0', { appId });
    await api(sb, 'POST', '/api/v1/pix-keys', { appId, body: { pixKey: 'log@example.com', type: 'EMAIL' } });
    await api(sb, 'GET', '/api/v1/account');
    await control(sb, 'GET', '/info');

    expect(sb.calls.map((c) => [c.method, c.path])).toEqual([
      ['GET', '/api/v1/limits/request'],
      ['POST', '/api/v1/pix-keys'],
      ['GET', '/api/v1/account'],
    ]);
    expect(sb.calls[0]).toMatchObject({ query: { limit: '5', skip: '0' }, authorization: appId, body: undefined });
    expect(sb.calls[1]?.body).toEqual({ pixKey: 'log@example.com', type: 'EMAIL' });
    expect(sb.calls[2]?.authorization).toBeUndefined();
    expect(typeof sb.calls[0]?.at).toBe('number');
    // Each call's arrival and answer, on the clock a benchmark reads (ms since the epoch, to the microsecond), in order.
    for (const [i, c] of sb.calls.entries()) {
      expect(Math.abs(c.receivedAt - c.at)).toBeLessThan(1_000);
      expect(c.answeredAt).toBeGreaterThanOrEqual(c.receivedAt);
      if (i > 0) expect(c.receivedAt).toBeGreaterThanOrEqual(sb.calls[i - 1]!.answeredAt!);
    }
    expect((await control<{ calls: unknown[] }>(sb, 'GET', '/calls')).json.calls).toHaveLength(3);
  });

  it('a late answer: the call is handled (the application exists) and answered only after the delay', async () => {
    const { masterAppId, defaultAccountId } = sb.companies.main;
    await control(sb, 'POST', '/faults', { lateAnswer: { ms: 1_000, count: 1, method: 'POST', pathPrefix: '/api/v1/application' } });
    const started = Date.now();
    let answered = false;
    const pending = api(sb, 'POST', '/api/v1/application', {
      appId: masterAppId,
      body: { accountId: defaultAccountId, application: { name: 'Late', type: 'API' } },
    }).finally(() => (answered = true));
    // Before the answer comes, the back office already shows the new application.
    const listed = await waitFor('the application listed', async () => {
      const apps = (await control<{ applications: Array<{ name: string }> }>(sb, 'GET', `/accounts/${defaultAccountId}/applications`)).json
        .applications;
      return apps.some((a) => a.name === 'Late') ? apps : undefined;
    });
    expect(answered).toBe(false);
    expect((await pending).status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(listed.find((a) => a.name === 'Late')).toEqual({
      name: 'Late',
      type: 'API',
      clientId: expect.any(String),
      appID: expect.any(String),
      isActive: true,
    });
  });

  it('keeps a bounded log: the latest calls only, and no large body', async () => {
    const small = await startSandbox({ maxLoggedCalls: 3 });
    try {
      const appId = small.companies.main.mainAppId;
      for (let i = 1; i <= 5; i++) await api(small, 'GET', `/api/v1/limits/request?limit=${i}&skip=0`, { appId });
      expect(small.calls.map((c) => c.query.limit)).toEqual(['3', '4', '5']);
      await api(small, 'POST', '/api/v1/pix-keys', { appId, body: { pixKey: 'x'.repeat(100_000), type: 'EMAIL' } });
      expect(small.calls).toHaveLength(3);
      expect(small.calls[2]!.body).toMatch(/^\(\d+ bytes, not kept\)$/);
    } finally {
      await small.close();
    }
  });

  it('injects failures for a number of matching calls, with Retry-After', async () => {
    const appId = sb.companies.main.mainAppId;
    await control(sb, 'POST', '/faults', { fail: { status: 503, count: 2, method: 'GET', pathPrefix: '/api/v1/account', retryAfter: 7 } });

    const other = await api(sb, 'GET', '/api/v1/pix-keys', { appId });
    expect(other.status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const res = await api(sb, 'GET', '/api/v1/account', { appId });
      expect(res.status).toBe(503);
      expect(res.json).toEqual({ error: 'Sandbox fault' });
      expect(res.headers.get('retry-after')).toBe('7');
    }
    expect((await api(sb, 'GET', '/api/v1/account', { appId })).status).toBe(200);
  });

  it('limits each AppID to a rate: past it 429 (with Retry-After when set), counted; another AppID has its own', async () => {
    const main = sb.companies.main;
    await control(sb, 'POST', '/faults', { rateLimit: { perSecond: 3, retryAfter: 1 } });
    const statuses: number[] = [];
    // Sent together: all five arrive within the same second.
    const answers = await Promise.all(Array.from({ length: 5 }, () => api(sb, 'GET', '/api/v1/account', { appId: main.mainAppId })));
    for (const res of answers) statuses.push(res.status);
    expect(statuses.sort()).toEqual([200, 200, 200, 429, 429]);
    expect(answers.filter((r) => r.status === 429).map((r) => r.headers.get('retry-after'))).toEqual(['1', '1']);
    expect((await api(sb, 'GET', '/api/v1/pix-keys', { appId: main.masterAppId })).status).toBe(200);
    expect((await control<{ faults: unknown }>(sb, 'POST', '/faults', {})).json.faults).toMatchObject({
      rateLimit: { perSecond: 3, retryAfter: 1 },
      rateLimited: 2,
    });
    expect((await control<{ faults: unknown }>(sb, 'DELETE', '/faults')).json.faults).toMatchObject({ rateLimit: null, rateLimited: 0 });
  });

  it('injects latency until reset', async () => {
    const appId = sb.companies.main.mainAppId;
    await control(sb, 'POST', '/faults', { latencyMs: 150 });
    const started = Date.now();
    await api(sb, 'GET', '/api/v1/account', { appId });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);

    // Until reset: a call made after it answers before a slow one made just before it.
    await control(sb, 'POST', '/faults', { latencyMs: 1_000 });
    const order: string[] = [];
    const before = sb.calls.length;
    const slow = api(sb, 'GET', '/api/v1/account', { appId }).then(() => order.push('slow'));
    await waitFor('the slow call received', () => sb.calls.length > before);
    const reset = await control(sb, 'DELETE', '/faults');
    expect(reset.json).toEqual({ faults: { latencyMs: 0, fail: null, lateAnswer: null, rateLimit: null, rateLimited: 0 } });
    await api(sb, 'GET', '/api/v1/account', { appId }).then(() => order.push('fast'));
    await slow;
    expect(order).toEqual(['fast', 'slow']);
  });

  it('sets an account’s balance in cents (total = available + blocked unless given), read back by the account reads; refuses a bad one', async () => {
    const { mainAppId, defaultAccountId } = sb.companies.main;
    const set = await control<AccountAnswer>(sb, 'POST', `/accounts/${defaultAccountId}/balance`, { available: 900_000, blocked: 5_000 });
    expect(set.status).toBe(200);
    expect(set.json.account.balance).toEqual({ available: 900_000, blocked: 5_000, total: 905_000 });
    const listed = await api<{ accounts: AccountAnswer['account'][] }>(sb, 'GET', '/api/v1/account', { appId: mainAppId });
    expect(listed.json.accounts.find((a) => a.accountId === defaultAccountId)!.balance).toEqual({
      available: 900_000,
      blocked: 5_000,
      total: 905_000,
    });
    await control(sb, 'POST', `/accounts/${defaultAccountId}/balance`, { available: 1500.5 });
    const one = await api<AccountAnswer>(sb, 'GET', `/api/v1/account/${defaultAccountId}`, { appId: mainAppId });
    expect(one.json.account.balance).toEqual({ available: 1500.5, blocked: 0, total: 1500.5 });
    for (const body of [{}, { available: -1 }, { available: '10' }, { available: 10, blocked: -2 }]) {
      expect((await control(sb, 'POST', `/accounts/${defaultAccountId}/balance`, body)).status).toBe(400);
    }
    expect((await control(sb, 'POST', '/accounts/ffffffffffffffffffffffff/balance', { available: 1 })).status).toBe(404);
    await control(sb, 'POST', `/accounts/${defaultAccountId}/balance`, { available: 1_500_000 });
  });

  it('keeps a DICT entry’s holder, made up when none is given', async () => {
    const holder = { name: 'Oficina do Zé ME', bank: 'Banco Inter S.A.', branch: '0001', account: '1234567-8' };
    const given = await control(sb, 'POST', '/dict', { pixKey: 'ze@oficina.com.br', type: 'EMAIL', holderTaxId: '11444777000161', holder });
    expect(given.status).toBe(201);
    expect(given.json).toEqual({
      entry: { pixKey: 'ze@oficina.com.br', type: 'EMAIL', holderTaxId: '11444777000161', serviceAccount: false, holder },
    });
    const made = await control<{ entry: { holder: typeof holder } }>(sb, 'POST', '/dict', {
      pixKey: 'sem.titular@example.com',
      type: 'EMAIL',
      holderTaxId: '11444777000161',
    });
    expect(made.json.entry.holder).toEqual({
      name: expect.any(String),
      bank: expect.any(String),
      branch: '0001',
      account: expect.stringMatching(/^\d{7}-\d$/),
    });
    const bad = await control(sb, 'POST', '/dict', {
      pixKey: 'x@y.com',
      type: 'EMAIL',
      holderTaxId: '11444777000161',
      holder: { name: '' },
    });
    expect(bad.status).toBe(400);
  });

  it('refuses bad control bodies', async () => {
    expect((await control(sb, 'POST', '/faults', { fail: { status: 'x' } })).status).toBe(400);
    expect((await control(sb, 'POST', '/dict', { pixKey: 'a@b.co', type: 'EMAIL', holderTaxId: '12' })).status).toBe(400);
    expect((await control(sb, 'POST', `/companies/${sb.companies.main.companyId}/features`, { feature: 'X', enabled: true })).status).toBe(
      400,
    );
    expect((await control(sb, 'POST', '/limit-requests/ffffffffffffffffffffffff/approve')).status).toBe(404);
    expect((await control(sb, 'POST', '/clock', { advanceMs: -1 })).status).toBe(400);
    expect((await control(sb, 'POST', '/clock', {})).status).toBe(400);
    expect((await control(sb, 'POST', `/accounts/${sb.companies.main.defaultAccountId}/auto-approve`, { enabled: 'yes' })).status).toBe(
      400,
    );
    expect((await control(sb, 'POST', '/accounts/ffffffffffffffffffffffff/auto-approve', { enabled: true })).status).toBe(404);
    expect((await control(sb, 'DELETE', '/dict/nobody@nowhere.example')).status).toBe(404);
  });

  it('moves the sandbox’s clock forward only, and tells where it stands', async () => {
    const before = (await control<{ now: string; offsetMs: number }>(sb, 'GET', '/clock')).json;
    const moved = await control<{ now: string; offsetMs: number }>(sb, 'POST', '/clock', { advanceMs: 3_600_000 });
    expect(moved.status).toBe(200);
    expect(moved.json.offsetMs).toBe(before.offsetMs + 3_600_000);
    expect(Date.parse(moved.json.now) - Date.parse(before.now)).toBeGreaterThanOrEqual(3_600_000);
  });
});

describe('seeding', () => {
  it('is deterministic with a seed and random without', async () => {
    const [a, b, c] = await Promise.all([startSandbox({ seed: 'abc' }), startSandbox({ seed: 'abc' }), startSandbox()]);
    try {
      expect(a.companies).toEqual(b.companies);
      expect(c.companies.main.mainAppId).not.toBe(a.companies.main.mainAppId);
      expect(a.url).not.toBe(b.url);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});
