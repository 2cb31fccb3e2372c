import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { waitFor } from '../support/wait';
import {
  type AccountAnswer,
  type ApplicationAnswer,
  advanceClock,
  api,
  type CodedFailure,
  control,
  type Failure,
  type PaymentAnswer,
  type PaymentsAnswer,
  type Received,
  type StatementEntry,
  signedByTheService,
  startReceiver,
  type TokensAnswer,
} from './helpers';

// Seeded DICT keys and their holders.
const EMAIL = 'financeiro@graficarapida.com.br';
const CPF = '71460238001';
const PHONE = '+5531991234567';
const DELAY = 60_000;

describe('payments to a Pix key', () => {
  let sb: SandboxHandle;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let appId: string;
  let accountId: string;
  let n = 0;
  const nextId = () => `pay-${++n}`;

  beforeAll(async () => {
    [sb, receiver] = await Promise.all([startSandbox(), startReceiver()]);
    ({ mainAppId: appId, defaultAccountId: accountId } = sb.companies.main);
    await control(sb, 'POST', '/webhooks/target', { url: receiver.url });
    // Settled only when a test moves the clock.
    await control(sb, 'POST', '/payments/confirm-delay', { ms: DELAY });
  });
  afterAll(async () => {
    await sb.close();
    await receiver.close();
  });
  afterEach(async () => {
    await control(sb, 'DELETE', '/faults');
    await control(sb, 'DELETE', '/payments/fail');
    await control(sb, 'POST', `/accounts/${accountId}/balance`, { available: 1_500_000 });
  });

  const create = (body: Record<string, unknown>, app = appId) =>
    api<PaymentAnswer & CodedFailure>(sb, 'POST', '/api/v1/payment', {
      appId: app,
      body: { type: 'PIX_KEY', value: 12_345, destinationAlias: EMAIL, destinationAliasType: 'EMAIL', ...body },
    });
  const approve = (correlationID: string, app = appId) =>
    api<PaymentAnswer & Failure>(sb, 'POST', '/api/v1/payment/approve', { appId: app, body: { correlationID } });
  const read = (id: string, app = appId) =>
    api<PaymentAnswer & Failure>(sb, 'GET', `/api/v1/payment/${encodeURIComponent(id)}`, { appId: app });
  const list = (query = '', app = appId) => api<PaymentsAnswer & Failure>(sb, 'GET', `/api/v1/payment${query}`, { appId: app });
  const balance = async (id = accountId) => (await api<AccountAnswer>(sb, 'GET', `/api/v1/account/${id}`, { appId })).json.account.balance;
  const statement = async () => (await api<StatementEntry[]>(sb, 'GET', '/api/v1/statement', { appId })).json;
  const eventsOf = (correlationID: string): Received[] =>
    receiver.received.filter((r) => (r.json.payment as { correlationID?: string } | undefined)?.correlationID === correlationID);
  const eventOf = (correlationID: string, event: string) =>
    waitFor(`${event} of ${correlationID}`, () => eventsOf(correlationID).find((r) => r.json.event === event), 10_000);

  it('creates a payment CREATED from the default account, read by its id and by its correlationID, and logs the call', async () => {
    const correlationID = nextId();
    const before = sb.calls.length;
    const res = await create({ correlationID, comment: 'Nota fiscal 123', metadata: { invoice: '123' } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      payment: {
        id: expect.stringMatching(/^[0-9a-f]{24}$/),
        type: 'PIX_KEY',
        value: 12_345,
        status: 'CREATED',
        destinationAlias: EMAIL,
        destinationAliasType: 'EMAIL',
        correlationID,
        comment: 'Nota fiscal 123',
        sourceAccountId: accountId,
        metadata: { invoice: '123' },
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    // Nothing sent yet: neither transaction nor destination.
    expect((await read(res.json.payment.id)).json).toEqual({ payment: res.json.payment });
    expect((await read(correlationID)).json).toEqual({ payment: res.json.payment });
    expect(await balance()).toEqual({ total: 1_500_000, blocked: 0, available: 1_500_000 });
    expect(sb.calls.slice(before)[0]).toMatchObject({
      method: 'POST',
      path: '/api/v1/payment',
      authorization: appId,
      body: { type: 'PIX_KEY', correlationID, value: 12_345 },
    });
  });

  it('refuses the same correlationID again while the payment exists, and creates nothing', async () => {
    const correlationID = nextId();
    expect((await create({ correlationID })).status).toBe(200);
    const again = await create({ correlationID, value: 999 });
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ error: 'Já existe um pagamento com o correlationID fornecido' });
    expect((await read(correlationID)).json.payment.value).toBe(12_345);
    // Another company may use the same correlationID: it is its own.
    expect((await create({ correlationID }, sb.companies.other.mainAppId)).status).toBe(200);
  });

  it('creates exactly one payment for one correlationID under concurrent creations', async () => {
    // Twenty connections opened first (kept alive), so that the creations below reach the sandbox together.
    await Promise.all(Array.from({ length: 20 }, () => read('warming-up')));
    const correlationID = nextId();
    const answers = await Promise.all(Array.from({ length: 20 }, () => create({ correlationID })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(19).fill(400)]);
    for (const r of answers.filter((a) => a.status !== 200)) {
      expect(r.json).toEqual({ error: 'Já existe um pagamento com o correlationID fornecido' });
    }
    const all = (await list('?limit=100')).json.payments;
    expect(all.filter((p) => p.payment.correlationID === correlationID)).toHaveLength(1);
  });

  it('validates the body as the service does, creating nothing and spending no look-up token', async () => {
    const { companyId } = sb.companies.main;
    // No refill while the test runs: any change would be a token spent.
    await control(sb, 'POST', `/companies/${companyId}/lookup-tokens`, { tokens: 400, refreshRate: 0 });
    const countBefore = (await list('?limit=100')).json.payments.length;
    const valid = { type: 'PIX_KEY', value: 100, destinationAlias: EMAIL, destinationAliasType: 'EMAIL', correlationID: 'never-made' };
    const cases: Array<[unknown, string]> = [
      [undefined, 'Body must be a JSON object'],
      [{ ...valid, type: undefined }, 'type is required'],
      [{ ...valid, type: 'PIX' }, 'type must be one of PIX_KEY, QR_CODE, MANUAL, BOLETO'],
      [{ ...valid, type: 'QR_CODE' }, 'type QR_CODE is not supported by the sandbox: only PIX_KEY payments are'],
      [{ ...valid, value: undefined }, 'value is required'],
      [{ ...valid, value: 0 }, 'value must be greater than 0'],
      [{ ...valid, value: -5 }, 'value must be greater than 0'],
      [{ ...valid, value: 10.5 }, 'value must be an integer (cents)'],
      [{ ...valid, value: '100' }, 'value must be an integer (cents)'],
      [{ ...valid, destinationAlias: undefined }, 'destinationAlias is required'],
      [{ ...valid, destinationAlias: '' }, 'destinationAlias is required'],
      [{ ...valid, destinationAliasType: undefined }, 'destinationAliasType is required'],
      [{ ...valid, destinationAliasType: 'EVP' }, 'destinationAliasType must be one of CPF, CNPJ, EMAIL, PHONE, RANDOM'],
      [{ ...valid, correlationID: undefined }, 'correlationID is required'],
      [{ ...valid, correlationID: '   ' }, 'correlationID is required'],
      [{ ...valid, comment: 'x'.repeat(141) }, 'comment must be at most 140 characters'],
      [{ ...valid, metadata: 'x' }, 'metadata must be an object'],
      [
        { ...valid, metadata: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, 'v'])) },
        'metadata must have at most 30 keys',
      ],
      [{ ...valid, autoApprove: 'yes' }, 'autoApprove must be a boolean'],
    ];
    for (const [body, error] of cases) {
      const res = await api(sb, 'POST', '/api/v1/payment', { appId, ...(body === undefined ? {} : { body }) });
      expect({ body, status: res.status, json: res.json }).toEqual({ body, status: 400, json: { error } });
    }
    const notJson = await api(sb, 'POST', '/api/v1/payment', { appId, rawBody: '{nope' });
    expect(notJson.json).toEqual({ error: 'Invalid JSON body' });
    expect((await list('?limit=100')).json.payments).toHaveLength(countBefore);
    expect((await api<TokensAnswer>(sb, 'GET', '/api/v1/pix-keys/tokens', { appId })).json.tokens).toBe(400);
    await control(sb, 'POST', `/companies/${companyId}/lookup-tokens`, { tokens: 500, refreshRate: 20 });

    // The limits themselves are accepted: 30 metadata keys, a 140-character comment.
    const atLimits = await create({
      correlationID: nextId(),
      comment: 'x'.repeat(140),
      metadata: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, 'v'])),
    });
    expect(atLimits.status).toBe(200);
  });

  it('refuses a key that is malformed for its type or that no bank has, creating nothing', async () => {
    const badCpf = await create({ correlationID: nextId(), destinationAlias: '71460238002', destinationAliasType: 'CPF' });
    expect(badCpf.status).toBe(400);
    expect(badCpf.json).toEqual({ error: 'Invalid Pix key', errorCode: 'INVALID_PIX_KEY' });
    const wrongType = await create({ correlationID: nextId(), destinationAlias: EMAIL, destinationAliasType: 'PHONE' });
    expect(wrongType.json).toEqual({ error: 'Invalid Pix key', errorCode: 'INVALID_PIX_KEY' });
    const correlationID = nextId();
    const missing = await create({ correlationID, destinationAlias: 'nobody@nowhere.example', destinationAliasType: 'EMAIL' });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ error: 'Pix key not found', errorCode: 'PIX_KEY_INFO_NOT_FOUND' });
    expect((await read(correlationID)).status).toBe(404);
  });

  it('pays from the account named by sourceAccountId, of the company only', async () => {
    const { masterAppId } = sb.companies.main;
    const campaign = (await api<AccountAnswer>(sb, 'POST', '/api/v1/account', { appId: masterAppId })).json.account.accountId;
    const made = await create({ correlationID: nextId(), sourceAccountId: campaign });
    expect(made.status).toBe(200);
    expect(made.json.payment.sourceAccountId).toBe(campaign);

    for (const sourceAccountId of [sb.companies.other.defaultAccountId, 'ffffffffffffffffffffffff']) {
      const correlationID = nextId();
      const res = await create({ correlationID, sourceAccountId });
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 'Account not found' });
      expect((await read(correlationID)).status).toBe(404);
    }
  });

  it('needs PAYMENT_POST, PAYMENT_APPROVE_POST and PAYMENT_GET_LIST', async () => {
    const limited = sb.companies.main.limitedAppId;
    expect((await create({ correlationID: nextId() }, limited)).json).toEqual({
      error: 'Application does not have required scope: PAYMENT_POST',
    });
    expect((await approve('x', limited)).json).toEqual({ error: 'Application does not have required scope: PAYMENT_APPROVE_POST' });
    expect((await list('', limited)).json).toEqual({ error: 'Application does not have required scope: PAYMENT_GET_LIST' });
  });

  it('approve without the money: 400 with the service’s text, the payment stays CREATED and is approved once the money is in', async () => {
    const correlationID = nextId();
    await create({ correlationID, value: 50_000 });
    await control(sb, 'POST', `/accounts/${accountId}/balance`, { available: 49_999 });
    const short = await approve(correlationID);
    expect(short.status).toBe(400);
    expect(short.json).toEqual({ error: 'Você não possui saldo o suficiente para realizar esse pagamento' });
    expect((await read(correlationID)).json).toEqual({ payment: expect.objectContaining({ status: 'CREATED' }) });
    expect((await balance()).available).toBe(49_999);

    await control(sb, 'POST', `/accounts/${accountId}/balance`, { available: 50_000 });
    const sent = await approve(correlationID);
    expect(sent.status).toBe(200);
    expect(sent.json.payment.status).toBe('APPROVED');
    expect((await balance()).available).toBe(0);
  });

  it('approve sends the money: balance debited, a statement entry, the receiver and the transaction; a second approve is refused', async () => {
    const correlationID = nextId();
    const { payment } = (await create({ correlationID, value: 25_000, destinationAlias: CPF, destinationAliasType: 'CPF' })).json;
    const res = await approve(correlationID);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      payment: { ...payment, status: 'APPROVED', updatedAt: expect.any(String) },
      transaction: { value: 25_000, endToEndId: expect.stringMatching(/^E[0-9A-F]{31}$/), time: expect.any(String) },
      destination: { name: 'Ana Beatriz Costa', taxID: CPF, pixKey: CPF, bank: 'Nu Pagamentos S.A.', branch: '0001', account: '8123456-7' },
    });
    expect(await balance()).toEqual({ total: 1_475_000, blocked: 0, available: 1_475_000 });
    const [latest] = await statement();
    expect(latest).toMatchObject({ type: 'DEBIT', value: 25_000, balance: 1_475_000 });
    const tx = await api<{ transaction: { endToEndId: string } }>(sb, 'GET', `/api/v1/transaction/${latest!.transactionId}`, { appId });
    expect(tx.json.transaction.endToEndId).toBe(res.json.transaction!.endToEndId);
    // Read back with the same transaction and destination.
    expect((await read(correlationID)).json).toEqual(res.json);

    const again = await approve(correlationID);
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ error: 'Payment cannot be approved: its status is APPROVED' });
    expect((await balance()).available).toBe(1_475_000);
  });

  it('approve of an unknown correlationID is 404, of another company’s too; a body without one is 400', async () => {
    const correlationID = nextId();
    await create({ correlationID });
    for (const [id, app] of [
      ['never-created', appId],
      [correlationID, sb.companies.other.mainAppId],
    ] as const) {
      const res = await approve(id, app);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 'Payment not found' });
    }
    const missing = await api(sb, 'POST', '/api/v1/payment/approve', { appId, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ error: 'correlationID is required' });
    expect((await read(correlationID, sb.companies.other.mainAppId)).status).toBe(404);
  });

  it('is CONFIRMED after the delay, with a signed MOVEMENT_CONFIRMED in the service’s shape', async () => {
    const correlationID = nextId();
    await create({ correlationID, value: 7_000, comment: 'Gráfica' });
    const approved = (await approve(correlationID)).json;
    await advanceClock(sb, DELAY - 1_000);
    expect((await read(correlationID)).json.payment.status).toBe('APPROVED');
    expect(eventsOf(correlationID)).toEqual([]);

    await advanceClock(sb, 1_000);
    expect((await read(correlationID)).json).toEqual({
      ...approved,
      payment: { ...approved.payment, status: 'CONFIRMED', updatedAt: expect.any(String) },
    });
    const delivery = await eventOf(correlationID, 'OPENPIX:MOVEMENT_CONFIRMED');
    expect(delivery.json).toEqual({
      event: 'OPENPIX:MOVEMENT_CONFIRMED',
      payment: { value: 7_000, status: 'CONFIRMED', destinationAlias: EMAIL, comment: 'Gráfica', correlationID },
      transaction: approved.transaction,
    });
    expect(await signedByTheService(sb, delivery)).toBe(true);
    expect(await signedByTheService(sb, { ...delivery, raw: Buffer.from(delivery.raw.toString().replace('7000', '7001')) })).toBe(false);
  });

  it('settles on its own after a short delay, without the clock being moved', async () => {
    await control(sb, 'POST', '/payments/confirm-delay', { ms: 100 });
    try {
      const correlationID = nextId();
      await create({ correlationID });
      await approve(correlationID);
      await eventOf(correlationID, 'OPENPIX:MOVEMENT_CONFIRMED');
      expect((await read(correlationID)).json.payment.status).toBe('CONFIRMED');
    } finally {
      await control(sb, 'POST', '/payments/confirm-delay', { ms: DELAY });
    }
  });

  it('fails the next payment with the chosen code: FAILED, the money given back, MOVEMENT_FAILED with the error', async () => {
    expect((await control(sb, 'POST', '/payments/fail', { code: 'REACH_TRANSFER_LIMIT' })).json).toEqual({
      failure: { code: 'REACH_TRANSFER_LIMIT', description: 'Limite de transferência Pix atingido' },
      count: 1,
    });
    const armed = async () => ((await control(sb, 'GET', '/info')).json as { payments: { failNext: unknown } }).payments.failNext;
    // What is armed is told (the playground's panel shows it) until a payment uses it.
    expect(await armed()).toEqual({ code: 'REACH_TRANSFER_LIMIT', description: 'Limite de transferência Pix atingido', count: 1 });
    const correlationID = nextId();
    await create({ correlationID, value: 30_000 });
    const approved = (await approve(correlationID)).json;
    expect(approved.payment.status).toBe('APPROVED');
    expect(await armed()).toBeNull();
    expect((await balance()).available).toBe(1_470_000);

    await advanceClock(sb, DELAY);
    const failed = (await read(correlationID)).json;
    expect(failed.payment).toMatchObject({
      status: 'FAILED',
      error: { code: 'REACH_TRANSFER_LIMIT', description: 'Limite de transferência Pix atingido' },
    });
    expect(await balance()).toEqual({ total: 1_500_000, blocked: 0, available: 1_500_000 });
    const [refund, debit] = await statement();
    expect(refund).toMatchObject({ type: 'CREDIT', value: 30_000, balance: 1_500_000 });
    expect(debit).toMatchObject({ type: 'DEBIT', value: 30_000 });

    const delivery = await eventOf(correlationID, 'OPENPIX:MOVEMENT_FAILED');
    expect(delivery.json).toEqual({
      event: 'OPENPIX:MOVEMENT_FAILED',
      payment: { value: 30_000, status: 'FAILED', destinationAlias: EMAIL, correlationID },
      transaction: approved.transaction,
      error: { code: 'REACH_TRANSFER_LIMIT', description: 'Limite de transferência Pix atingido' },
    });
    expect(await signedByTheService(sb, delivery)).toBe(true);

    // Only the next one: the one after is confirmed.
    const after = nextId();
    await create({ correlationID: after });
    await approve(after);
    await advanceClock(sb, DELAY);
    expect((await read(after)).json.payment.status).toBe('CONFIRMED');
  });

  it('fails every payment to a chosen key, with the description given, until the rules are cleared', async () => {
    await control(sb, 'POST', '/payments/fail', { code: 'PIX_KEY_INFO_NOT_FOUND', pixKey: PHONE, description: 'Chave removida do DICT' });
    const toKey = [nextId(), nextId()];
    const other = nextId();
    for (const id of toKey) await create({ correlationID: id, destinationAlias: PHONE, destinationAliasType: 'PHONE' });
    await create({ correlationID: other });
    for (const id of [...toKey, other]) await approve(id);
    await advanceClock(sb, DELAY);
    for (const id of toKey) {
      expect((await read(id)).json.payment).toMatchObject({
        status: 'FAILED',
        error: { code: 'PIX_KEY_INFO_NOT_FOUND', description: 'Chave removida do DICT' },
      });
    }
    expect((await read(other)).json.payment.status).toBe('CONFIRMED');

    expect((await control(sb, 'DELETE', '/payments/fail')).status).toBe(204);
    const cleared = nextId();
    await create({ correlationID: cleared, destinationAlias: PHONE, destinationAliasType: 'PHONE' });
    await approve(cleared);
    await advanceClock(sb, DELAY);
    expect((await read(cleared)).json.payment.status).toBe('CONFIRMED');
  });

  it('refuses a failure control with an unknown code', async () => {
    const res = await control<Failure>(sb, 'POST', '/payments/fail', { code: 'NOPE' });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/^code must be one of ALIAS_LIMIT_ERROR, /);
    expect((await control(sb, 'POST', '/payments/confirm-delay', { ms: -1 })).status).toBe(400);
  });

  it('a removed payment (the web app): MOVEMENT_REMOVED, gone, its correlationID free again; only a created one', async () => {
    const correlationID = nextId();
    const made = (await create({ correlationID })).json.payment;
    const removed = await control<PaymentAnswer>(sb, 'POST', `/payments/${correlationID}/remove`);
    expect(removed.status).toBe(200);
    expect(removed.json.payment.id).toBe(made.id);
    const delivery = await eventOf(correlationID, 'OPENPIX:MOVEMENT_REMOVED');
    expect(delivery.json).toEqual({ event: 'OPENPIX:MOVEMENT_REMOVED', payment: { correlationID } });
    expect(await signedByTheService(sb, delivery)).toBe(true);

    expect((await read(made.id)).status).toBe(404);
    expect((await read(correlationID)).json).toEqual({ error: 'Payment not found' });
    expect((await approve(correlationID)).status).toBe(404);
    expect((await create({ correlationID })).status).toBe(200);

    await approve(correlationID);
    const late = await control<Failure>(sb, 'POST', `/payments/${correlationID}/remove`);
    expect(late.status).toBe(409);
    expect(late.json).toEqual({ error: 'Only a created payment can be removed: its status is APPROVED' });
    expect((await control(sb, 'POST', '/payments/never-made/remove')).status).toBe(404);
  });

  it('lists the company’s payments newest first, paged', async () => {
    const other = await startSandbox();
    try {
      const { mainAppId } = other.companies.main;
      for (let i = 1; i <= 5; i++) {
        await api(other, 'POST', '/api/v1/payment', {
          appId: mainAppId,
          body: { type: 'PIX_KEY', value: i * 100, destinationAlias: EMAIL, destinationAliasType: 'EMAIL', correlationID: `p${i}` },
        });
      }
      await api(other, 'POST', '/api/v1/payment', {
        appId: other.companies.other.mainAppId,
        body: { type: 'PIX_KEY', value: 1, destinationAlias: EMAIL, destinationAliasType: 'EMAIL', correlationID: 'theirs' },
      });
      await api(other, 'POST', '/api/v1/payment/approve', { appId: mainAppId, body: { correlationID: 'p4' } });

      const page = (q: string) => api<PaymentsAnswer & Failure>(other, 'GET', `/api/v1/payment${q}`, { appId: mainAppId });
      const first = (await page('?skip=0&limit=2')).json;
      expect(first.payments.map((p) => p.payment.correlationID)).toEqual(['p5', 'p4']);
      expect(first.pageInfo).toEqual({ skip: 0, limit: 2, hasPreviousPage: false, hasNextPage: true });
      // The approved one carries its transaction and destination, the created one does not.
      expect(first.payments[1]).toEqual({ payment: expect.any(Object), transaction: expect.any(Object), destination: expect.any(Object) });
      expect(Object.keys(first.payments[0]!)).toEqual(['payment']);
      const last = (await page('?skip=4&limit=2')).json;
      expect(last.payments.map((p) => p.payment.correlationID)).toEqual(['p1']);
      expect(last.pageInfo).toEqual({ skip: 4, limit: 2, hasPreviousPage: true, hasNextPage: false });
      expect((await page('')).json.pageInfo).toEqual({ skip: 0, limit: 10, hasPreviousPage: false, hasNextPage: false });
      expect((await page('')).json.payments).toHaveLength(5);
      for (const [q, error] of [
        ['?limit=0', 'limit must be at least 1'],
        ['?limit=101', 'limit must be at most 100'],
        ['?skip=-1', 'skip must not be negative'],
        ['?skip=x', 'skip must be an integer'],
      ]) {
        const res = await page(q!);
        expect([q, res.status, res.json]).toEqual([q, 400, { error }]);
      }
    } finally {
      await other.close();
    }
  });

  it('autoApprove: refused without the account’s permission (nothing made), created and approved in one call with it', async () => {
    const correlationID = nextId();
    const refused = await create({ correlationID, autoApprove: true });
    expect(refused.status).toBe(403);
    expect(refused.json).toEqual({ error: 'autoApprove is not enabled for this account' });
    expect((await read(correlationID)).status).toBe(404);

    const granted = await control<{ account: { autoApprove: boolean } }>(sb, 'POST', `/accounts/${accountId}/auto-approve`, {
      enabled: true,
    });
    expect(granted.json.account.autoApprove).toBe(true);
    try {
      const res = await create({ correlationID, autoApprove: true, value: 1_000 });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        payment: expect.objectContaining({ status: 'APPROVED', correlationID }),
        transaction: expect.objectContaining({ value: 1_000 }),
        destination: expect.objectContaining({ pixKey: EMAIL }),
      });
      expect((await balance()).available).toBe(1_499_000);
    } finally {
      await control(sb, 'POST', `/accounts/${accountId}/auto-approve`, { enabled: false });
    }
  });

  it('faults apply: a creation whose answer is lost is made; a 5xx before the write makes nothing, after it the payment exists', async () => {
    const lost = nextId();
    await control(sb, 'POST', '/faults', { lateAnswer: { ms: 3_000, count: 1, method: 'POST', pathPrefix: '/api/v1/payment' } });
    // The caller gives up once the payment exists, while its answer is held back.
    const caller = new AbortController();
    const answer = fetch(`${sb.url}/api/v1/payment`, {
      method: 'POST',
      headers: { authorization: appId, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'PIX_KEY', value: 500, destinationAlias: EMAIL, destinationAliasType: 'EMAIL', correlationID: lost }),
      signal: caller.signal,
    });
    const made = await waitFor('the payment made', async () => (await read(lost)).json.payment);
    caller.abort();
    await expect(answer).rejects.toThrow();
    expect(made.status).toBe('CREATED');
    // The caller's retry with the same correlationID makes no second payment.
    expect((await create({ correlationID: lost })).json).toEqual({ error: 'Já existe um pagamento com o correlationID fornecido' });

    const before = nextId();
    await control(sb, 'POST', '/faults', { fail: { status: 503, count: 1, method: 'POST', pathPrefix: '/api/v1/payment' } });
    expect((await create({ correlationID: before })).status).toBe(503);
    expect((await read(before)).status).toBe(404);

    const after = nextId();
    await control(sb, 'POST', '/faults', {
      fail: { status: 502, count: 1, method: 'POST', pathPrefix: '/api/v1/payment', afterWrite: true },
    });
    expect((await create({ correlationID: after })).status).toBe(502);
    expect((await read(after)).json.payment.status).toBe('CREATED');
    // An approve answered 502 after the money left.
    await control(sb, 'POST', '/faults', {
      fail: { status: 502, count: 1, method: 'POST', pathPrefix: '/api/v1/payment/approve', afterWrite: true },
    });
    expect((await approve(after)).status).toBe(502);
    expect((await read(after)).json.payment.status).toBe('APPROVED');
    expect((await balance()).available).toBe(1_500_000 - 12_345);
  });

  it('redelivers a movement event that got no 2xx, with the same signed body', async () => {
    // Whatever is still settling goes to the usual receiver first: the flaky one gets this payment's event alone.
    await advanceClock(sb, DELAY);
    const flaky = await startReceiver([500]);
    await control(sb, 'POST', '/webhooks/target', { url: flaky.url });
    try {
      const correlationID = nextId();
      await create({ correlationID });
      await approve(correlationID);
      await advanceClock(sb, DELAY);
      await waitFor('the redelivery', () => flaky.received.length >= 2);
      const [first, second] = flaky.received;
      expect(first!.json).toMatchObject({ event: 'OPENPIX:MOVEMENT_CONFIRMED', payment: { correlationID } });
      expect(second!.raw.equals(first!.raw)).toBe(true);
      expect(await signedByTheService(sb, second!)).toBe(true);
    } finally {
      await control(sb, 'POST', '/webhooks/target', { url: receiver.url });
      await flaky.close();
    }
  });

  it('a payment created by one AppID of the company is seen and approved by another', async () => {
    const { masterAppId } = sb.companies.main;
    const campaign = (await api<AccountAnswer>(sb, 'POST', '/api/v1/account', { appId: masterAppId })).json.account.accountId;
    const campaignApp = (
      await api<ApplicationAnswer>(sb, 'POST', '/api/v1/application', {
        appId: masterAppId,
        body: { accountId: campaign, application: { name: 'Campaign', type: 'API' } },
      })
    ).json.application.appID;
    const correlationID = nextId();
    await create({ correlationID });
    expect((await read(correlationID, campaignApp)).status).toBe(200);
    expect((await approve(correlationID, campaignApp)).status).toBe(200);
  });
});
