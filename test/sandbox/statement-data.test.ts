import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { api, control, type DisputeAnswer, type StatementEntry, type TransactionsAnswer, uploadProof } from './helpers';

describe('sandbox controls for statements, disputes and the booklet horizon', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  it('adds movements to an account: they appear in its statement, newest first, and move its balance', async () => {
    const { main } = sb.companies;
    const added = await control<TransactionsAnswer>(sb, 'POST', `/accounts/${main.defaultAccountId}/transactions`, {
      type: 'CREDIT',
      value: 2500,
      description: 'Test credit',
      count: 3,
    });
    expect(added.status).toBe(201);
    expect(added.json.transactions).toHaveLength(3);
    expect(added.json.account.balance).toEqual({ total: 1_507_500, blocked: 0, available: 1_507_500 });

    const statement = await api<StatementEntry[]>(sb, 'GET', '/api/v1/statement', { appId: main.mainAppId });
    expect(statement.json).toHaveLength(6);
    expect(statement.json[0]).toMatchObject({ description: 'Test credit', value: 2500, type: 'CREDIT', balance: 1_507_500 });
    const times = statement.json.map((e: { time: string }) => e.time);
    expect([...times].sort().reverse()).toEqual(times);

    const debit = await control<TransactionsAnswer>(sb, 'POST', `/accounts/${main.defaultAccountId}/transactions`, {
      type: 'DEBIT',
      value: 7500,
    });
    expect(debit.json.transactions[0]).toMatchObject({ description: 'Pix sent', type: 'DEBIT' });
    expect(debit.json.account.balance.total).toBe(1_500_000);
    const tx = await api<{ transaction: unknown }>(sb, 'GET', `/api/v1/transaction/${debit.json.transactions[0]!.id}`, {
      appId: main.mainAppId,
    });
    expect(tx.json.transaction).toMatchObject({ value: 7500, type: 'DEBIT' });
  });

  it('validates the movements', async () => {
    const { main, other } = sb.companies;
    const path = `/accounts/${main.defaultAccountId}/transactions`;
    expect((await control(sb, 'POST', path, { type: 'GIFT', value: 1 })).status).toBe(400);
    expect((await control(sb, 'POST', path, { type: 'CREDIT', value: 0 })).status).toBe(400);
    expect((await control(sb, 'POST', path, { type: 'CREDIT', value: 1.5 })).status).toBe(400);
    expect((await control(sb, 'POST', path, { type: 'CREDIT', value: 1, count: 501 })).status).toBe(400);
    const overdraft = await control(sb, 'POST', `/accounts/${other.defaultAccountId}/transactions`, { type: 'DEBIT', value: 999_999_999 });
    expect(overdraft.status).toBe(400);
    expect(overdraft.json).toEqual({ error: 'Insufficient balance' });
    expect((await control(sb, 'POST', '/accounts/ffffffffffffffffffffffff/transactions', { type: 'CREDIT', value: 1 })).status).toBe(404);
  });

  it('shows a dispute with its evidences', async () => {
    const { main } = sb.companies;
    const before = await control<DisputeAnswer>(sb, 'GET', `/disputes/${main.disputeId}`);
    expect(before.json.dispute).toMatchObject({ id: main.disputeId, companyId: main.companyId, status: 'OPEN', evidences: [] });
    await control(sb, 'POST', `/companies/${main.companyId}/features`, { feature: 'DISPUTE_EVIDENCE_FILE_ID', enabled: true });
    const fileId = await uploadProof(sb, main.mainAppId, 'DISPUTE_EVIDENCE');
    await api(sb, 'POST', `/api/v1/dispute/${main.disputeId}/evidence`, { appId: main.mainAppId, body: { documents: [{ fileId }] } });
    const after = await control<DisputeAnswer>(sb, 'GET', `/disputes/${main.disputeId}`);
    expect(after.json.dispute.evidences).toEqual([expect.objectContaining({ fileId, contentType: 'application/pdf' })]);
    expect((await control(sb, 'GET', '/disputes/ffffffffffffffffffffffff')).status).toBe(404);
  });

  it('counts the booklet horizon from the year in São Paulo', async () => {
    const spYear = Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/Sao_Paulo', year: 'numeric' }).format(new Date()));
    const book = (year: number) =>
      api(sb, 'GET', `/api/v1/subscriptions/${sb.companies.main.subscriptionId}/payment-book?month=12&year=${year}`, {
        appId: sb.companies.main.mainAppId,
      });
    expect((await book(spYear + 1)).status).toBe(200);
    expect((await book(spYear + 2)).json).toEqual({ error: `The payment book is available up to 12/${spYear + 1}` });
  });
});
