import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import {
  advanceClock,
  api,
  type CheckAnswer,
  type CodedFailure,
  control,
  type Failure,
  type PaymentAnswer,
  type TokensAnswer,
} from './helpers';

const MINUTE = 60_000;
const SEEDED = [
  {
    pixKey: '71460238001',
    type: 'CPF',
    owner: { name: 'Ana Beatriz Costa', taxID: '71460238001', psp: 'Nu Pagamentos S.A.', branch: '0001', account: '8123456-7' },
  },
  {
    pixKey: '45278163000179',
    type: 'CNPJ',
    owner: { name: 'Papelaria Boa Vista Ltda', taxID: '45278163000179', psp: 'Banco do Brasil S.A.', branch: '3064', account: '41235-9' },
  },
  {
    pixKey: 'financeiro@graficarapida.com.br',
    type: 'EMAIL',
    owner: {
      name: 'Gráfica Rápida Impressões Ltda',
      taxID: '19031824000157',
      psp: 'Itaú Unibanco S.A.',
      branch: '0912',
      account: '23456-1',
    },
  },
  {
    pixKey: '+5531991234567',
    type: 'PHONE',
    owner: { name: 'João Pedro Almeida', taxID: '39053344705', psp: 'Caixa Econômica Federal', branch: '1374', account: '00081234-5' },
  },
  {
    pixKey: 'b2f6c1d4-8e3a-4f7b-9c5d-2a1e0f9b8c7d',
    type: 'EVP',
    owner: { name: 'Marina Oliveira Santos', taxID: '12345678909', psp: 'Banco Bradesco S.A.', branch: '2290', account: '0076543-2' },
  },
];
const [CPF, CNPJ, EMAIL, PHONE, EVP] = SEEDED.map((k) => k.pixKey) as [string, string, string, string, string];

describe('Pix key checks and look-up tokens', () => {
  let sb: SandboxHandle;
  let appId: string;
  let companyId: string;

  beforeAll(async () => {
    sb = await startSandbox();
    ({ mainAppId: appId, companyId } = sb.companies.main);
  });
  afterAll(() => sb.close());

  const check = (pixKey: unknown, app = appId) =>
    api<CheckAnswer & CodedFailure>(sb, 'POST', '/api/v1/pix-keys/check', { appId: app, body: { pixKey } });
  const checkByPath = (pixKey: string, app = appId) =>
    api<CheckAnswer & CodedFailure>(sb, 'GET', `/api/v1/pix-keys/${encodeURIComponent(pixKey)}/check`, { appId: app });
  const tokens = async (app = appId) => (await api<TokensAnswer>(sb, 'GET', '/api/v1/pix-keys/tokens', { appId: app })).json;
  /** A known count, and no refill unless a test asks for one. */
  const setTokens = (body: Record<string, number>, company = companyId) =>
    control<TokensAnswer & Failure>(sb, 'POST', `/companies/${company}/lookup-tokens`, { refreshRate: 0, ...body });
  /** Past every cache of an earlier test (found keys are kept 30 minutes). */
  const expireCaches = () => advanceClock(sb, 31 * MINUTE);
  const pay = (body: Record<string, unknown>) =>
    api<PaymentAnswer & CodedFailure>(sb, 'POST', '/api/v1/payment', {
      appId,
      body: { type: 'PIX_KEY', value: 100, destinationAlias: EMAIL, destinationAliasType: 'EMAIL', ...body },
    });

  it('answers the tokens with the service’s defaults: 500 at most, 20 a minute, the next refill as an ISO time', async () => {
    const fresh = await startSandbox();
    try {
      const res = await api<TokensAnswer>(fresh, 'GET', '/api/v1/pix-keys/tokens', { appId: fresh.companies.main.mainAppId });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ tokens: 500, maxTokens: 500, nextRefresh: expect.any(String), tokensAfterRefresh: 500, refreshRate: 20 });
      expect(res.json.nextRefresh).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      const inMs = Date.parse(res.json.nextRefresh) - Date.now();
      expect(inMs).toBeGreaterThan(0);
      expect(inMs).toBeLessThanOrEqual(MINUTE);
    } finally {
      await fresh.close();
    }
  });

  it('shows each seeded key’s holder, by POST and by GET, with a pixKeyEndToEndId; the calls are logged', async () => {
    const before = sb.calls.length;
    for (const { pixKey, type, owner } of SEEDED) {
      for (const res of [await check(pixKey), await checkByPath(pixKey)]) {
        expect(res.status).toBe(200);
        expect(res.json).toEqual({ pixKey, type, pixKeyEndToEndId: expect.stringMatching(/^E54811417\d{12}\w{11}$/), owner });
      }
    }
    expect(sb.calls.slice(before, before + 2).map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/api/v1/pix-keys/check', { pixKey: CPF }],
      ['GET', `/api/v1/pix-keys/${CPF}/check`, undefined],
    ]);
    // Each check has its own id.
    const [a, b] = [await check(CPF), await check(CPF)];
    expect(a.json.pixKeyEndToEndId).not.toBe(b.json.pixKeyEndToEndId);
  });

  it('lists the seeded keys and their holders at /sandbox/info, and takes holders for new DICT entries', async () => {
    const info = (await control<{ dict: Array<{ pixKey: string; holder: { name: string } }> }>(sb, 'GET', '/info')).json;
    expect(info.dict.map((e) => e.pixKey)).toEqual(expect.arrayContaining([CPF, CNPJ, EMAIL, PHONE, EVP, sb.companies.main.taxId]));
    expect(info.dict.find((e) => e.pixKey === sb.companies.main.taxId)?.holder.name).toBe('Main Company');

    const holder = { name: 'Oficina do Zé ME', bank: 'Banco Inter S.A.', branch: '0001', account: '1234567-8' };
    const made = await control(sb, 'POST', '/dict', { pixKey: 'ze@oficina.com.br', type: 'EMAIL', holderTaxId: '11444777000161', holder });
    expect(made.status).toBe(201);
    expect((await check('ze@oficina.com.br')).json.owner).toEqual({
      name: 'Oficina do Zé ME',
      taxID: '11444777000161',
      psp: 'Banco Inter S.A.',
      branch: '0001',
      account: '1234567-8',
    });
  });

  it('answers 404 for a key no bank has, 400 for a key of no form or none given', async () => {
    const missing = await check('ninguem@example.com.br');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: 'Pix key not found' });
    for (const key of ['71460238002', 'not a key', '5531991234567']) {
      const res = await check(key);
      expect([key, res.status, res.json]).toEqual([key, 400, { error: 'Invalid Pix key', errorCode: 'INVALID_PIX_KEY' }]);
    }
    const none = await api(sb, 'POST', '/api/v1/pix-keys/check', { appId, body: {} });
    expect(none.status).toBe(400);
    expect(none.json).toEqual({ error: 'pixKey is required' });
  });

  it('is refused with 403, spending nothing, when the company’s check is turned off; on again by the same control', async () => {
    await setTokens({ tokens: 300 });
    const off = await control(sb, 'POST', `/companies/${companyId}/features`, { feature: 'CHECK_PIX_KEY', enabled: false });
    expect(off.status).toBe(200);
    try {
      for (const res of [await check(CPF), await checkByPath(CPF), await check('ninguem@example.com.br')]) {
        expect(res.status).toBe(403);
        expect(res.json).toEqual({ error: 'Pix key check is not enabled for this company' });
      }
      expect((await tokens()).tokens).toBe(300);
      // The other company still has it.
      expect((await check(CPF, sb.companies.other.mainAppId)).status).toBe(200);
    } finally {
      await control(sb, 'POST', `/companies/${companyId}/features`, { feature: 'CHECK_PIX_KEY', enabled: true });
    }
    expect((await check(CPF)).status).toBe(200);
  });

  it('costs 1 for a key found, 20 for one not found, malformed or refused by the DICT, 0 while cached', async () => {
    await expireCaches();
    await setTokens({ tokens: 300 });
    const spent = async (what: () => Promise<unknown>) => {
      const before = (await tokens()).tokens;
      await what();
      return before - (await tokens()).tokens;
    };
    expect(await spent(() => check(CPF))).toBe(1);
    expect(await spent(() => check(CPF))).toBe(0);
    expect(await spent(() => checkByPath(CPF))).toBe(0);
    expect(await spent(() => check('ninguem@example.com.br'))).toBe(20);
    expect(await spent(() => check('ninguem@example.com.br'))).toBe(0);
    await advanceClock(sb, 5 * MINUTE);
    expect(await spent(() => check('ninguem@example.com.br'))).toBe(20);
    expect(await spent(() => check('not a key'))).toBe(20);

    expect((await control(sb, 'POST', '/dict/too-many-requests', { count: 1 })).status).toBe(200);
    let refused: Awaited<ReturnType<typeof check>> | undefined;
    expect(await spent(async () => (refused = await check(CNPJ)))).toBe(20);
    expect(refused!.status).toBe(429);
    expect(refused!.json).toEqual({ error: expect.any(String), errorCode: 'TOO_MANY_REQUESTS' });
    expect(await spent(() => check(CNPJ))).toBe(1);

    // A found key is cached for half an hour.
    await advanceClock(sb, 29 * MINUTE);
    expect(await spent(() => check(CNPJ))).toBe(0);
    await advanceClock(sb, 1 * MINUTE);
    expect(await spent(() => check(CNPJ))).toBe(1);
  });

  it('refills 20 a minute up to the maximum, by the sandbox’s clock', async () => {
    await setTokens({ tokens: 100, refreshRate: 20, maxTokens: 500 });
    const now = async () => Date.parse((await control<{ now: string }>(sb, 'GET', '/clock')).json.now);
    const first = await tokens();
    expect(first).toMatchObject({ tokens: 100, tokensAfterRefresh: 120, refreshRate: 20, maxTokens: 500 });
    // A second before the refill: nothing yet; at it, 20 more.
    await advanceClock(sb, Date.parse(first.nextRefresh) - (await now()) - 1_000);
    expect((await tokens()).tokens).toBe(100);
    await advanceClock(sb, 1_000);
    const second = await tokens();
    expect(second).toMatchObject({ tokens: 120, tokensAfterRefresh: 140 });
    expect(Date.parse(second.nextRefresh) - Date.parse(first.nextRefresh)).toBe(MINUTE);
    await advanceClock(sb, 3 * MINUTE);
    expect((await tokens()).tokens).toBe(180);

    await setTokens({ tokens: 495, refreshRate: 20 });
    expect((await tokens()).tokensAfterRefresh).toBe(500);
    await advanceClock(sb, 2 * MINUTE);
    expect((await tokens()).tokens).toBe(500);

    // A company's own settings: a smaller bucket, a slower refill.
    const set = await setTokens({ tokens: 10, maxTokens: 50, refreshRate: 5 });
    expect(set.json).toMatchObject({ tokens: 10, maxTokens: 50, refreshRate: 5, tokensAfterRefresh: 15 });
    await advanceClock(sb, 20 * MINUTE);
    expect((await tokens()).tokens).toBe(50);
    await setTokens({ tokens: 500, maxTokens: 500 });
  });

  it('under 20 tokens refuses every look-up and payment with 429 before the DICT, spending nothing', async () => {
    await expireCaches();
    await setTokens({ tokens: 300 });
    const checked = (await check(EMAIL)).json.pixKeyEndToEndId;
    await setTokens({ tokens: 19 });
    for (const res of [await check(EMAIL), await check('ninguem@example.com.br'), await check('not a key')]) {
      expect(res.status).toBe(429);
      expect(res.json).toEqual({
        error: 'Too many Pix key look-ups: wait for the look-up tokens to refill',
        errorCode: 'TOO_MANY_REQUESTS',
      });
    }
    const payment = await pay({ correlationID: 'under-20', pixKeyEndToEndId: checked });
    expect(payment.status).toBe(429);
    expect(payment.json.errorCode).toBe('TOO_MANY_REQUESTS');
    expect((await api(sb, 'GET', '/api/v1/payment/under-20', { appId })).status).toBe(404);
    expect((await tokens()).tokens).toBe(19);

    // At 20, one more key not found brings the company to 0.
    await setTokens({ tokens: 20 });
    expect((await check('outro@example.com.br')).status).toBe(404);
    expect((await tokens()).tokens).toBe(0);
    expect((await check(CPF)).status).toBe(429);
    await setTokens({ tokens: 500 });
  });

  it('a payment looks its key up unless given a recent check of it; paying gives 2 back', async () => {
    await expireCaches();
    await setTokens({ tokens: 300 });
    const holder = { name: 'Loja Teste Ltda', bank: 'Banco Inter S.A.', branch: '0001', account: '7654321-0' };
    const key = 'loja@teste.com.br';
    const putKey = () => control(sb, 'POST', '/dict', { pixKey: key, type: 'EMAIL', holderTaxId: '11444777000161', holder });
    await putKey();
    const { pixKeyEndToEndId } = (await check(key)).json;
    expect((await tokens()).tokens).toBe(299);

    // Changing the entry empties the service's cache of it: a look-up would cost 1 again.
    await putKey();
    expect((await pay({ correlationID: 'with-check', destinationAlias: key, pixKeyEndToEndId })).status).toBe(200);
    expect((await tokens()).tokens).toBe(299);
    expect((await pay({ correlationID: 'without-check', destinationAlias: key })).status).toBe(200);
    expect((await tokens()).tokens).toBe(298);

    // Another key's check, or one too old, spares nothing.
    const otherCheck = (await check(CPF)).json.pixKeyEndToEndId;
    await putKey();
    const afterCpf = (await tokens()).tokens;
    expect((await pay({ correlationID: 'other-check', destinationAlias: key, pixKeyEndToEndId: otherCheck })).status).toBe(200);
    expect((await tokens()).tokens).toBe(afterCpf - 1);
    await advanceClock(sb, 16 * MINUTE);
    await putKey();
    expect((await pay({ correlationID: 'old-check', destinationAlias: key, pixKeyEndToEndId })).status).toBe(200);
    expect((await tokens()).tokens).toBe(afterCpf - 2);

    // A key not found or malformed costs 20 on a payment too.
    expect((await pay({ correlationID: 'to-nobody', destinationAlias: 'ninguem2@example.com.br' })).json.errorCode).toBe(
      'PIX_KEY_INFO_NOT_FOUND',
    );
    expect((await tokens()).tokens).toBe(afterCpf - 22);
    expect((await pay({ correlationID: 'malformed', destinationAlias: '123', destinationAliasType: 'CPF' })).json.errorCode).toBe(
      'INVALID_PIX_KEY',
    );
    expect((await tokens()).tokens).toBe(afterCpf - 42);

    const approve = (correlationID: string) => api(sb, 'POST', '/api/v1/payment/approve', { appId, body: { correlationID } });
    expect((await approve('with-check')).status).toBe(200);
    expect((await tokens()).tokens).toBe(afterCpf - 40);
    // Never above the maximum.
    await setTokens({ tokens: 499 });
    expect((await approve('without-check')).status).toBe(200);
    expect((await tokens()).tokens).toBe(500);
  });

  it('one bucket per company, shared by all its AppIDs', async () => {
    await expireCaches();
    await setTokens({ tokens: 300 });
    await setTokens({ tokens: 400 }, sb.companies.other.companyId);
    await check('ninguem3@example.com.br', sb.companies.main.masterAppId);
    expect((await tokens()).tokens).toBe(280);
    expect((await tokens(sb.companies.main.limitedAppId)).tokens).toBe(280);
    expect((await tokens(sb.companies.other.mainAppId)).tokens).toBe(400);
  });

  it('refuses bad token controls, and keeps the count within the maximum', async () => {
    for (const body of [{}, { tokens: -1 }, { tokens: 1.5 }, { maxTokens: 0 }, { refreshRate: 'x' }]) {
      const res = await control(sb, 'POST', `/companies/${companyId}/lookup-tokens`, body);
      expect([body, res.status]).toEqual([body, 400]);
    }
    expect((await control(sb, 'POST', '/companies/ffffffffffffffffffffffff/lookup-tokens', { tokens: 1 })).status).toBe(404);
    expect((await setTokens({ tokens: 900 })).json.tokens).toBe(500);
    expect((await control(sb, 'POST', '/dict/too-many-requests', { count: -1 })).status).toBe(400);
  });
});
