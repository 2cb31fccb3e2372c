import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { type AccountAnswer, api, control, type DisputeAnswer, type StatementEntry, uploadProof } from './helpers';

/** The control route's answer for a subscription, as far as these tests read it. */
type SubscriptionAnswer = { subscription: { installments: Array<{ chargeId: string }> } };

describe('payment book, dispute evidence, statement and transactions', () => {
  let sb: SandboxHandle;
  beforeAll(async () => {
    sb = await startSandbox();
  });
  afterAll(() => sb.close());

  describe('GET /api/v1/subscriptions/:id/payment-book', () => {
    const now = new Date();
    const month = now.getUTCMonth() + 1;
    const year = now.getUTCFullYear();
    const nextMonth = month === 12 ? `?month=1&year=${year + 1}` : `?month=${month + 1}&year=${year}`;
    const book = (query: string, appId = sb.companies.main.mainAppId, id = sb.companies.main.subscriptionId) =>
      api(sb, 'GET', `/api/v1/subscriptions/${id}/payment-book${query}`, { appId });

    it('returns a PDF booklet naming the subscription, issuing each installment once', async () => {
      const res = await book(nextMonth);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = res.bytes.toString('latin1');
      expect(text).toContain(sb.companies.main.subscriptionId);
      expect(text.trimEnd().endsWith('%%EOF')).toBe(true);

      const issued = (await control<SubscriptionAnswer>(sb, 'GET', `/subscriptions/${sb.companies.main.subscriptionId}`)).json.subscription
        .installments;
      expect(issued).toHaveLength(month + 1); // January to next month
      expect(new Set(issued.map((i: { chargeId: string }) => i.chargeId)).size).toBe(month + 1);
      await book(`?month=${month}&year=${year}`);
      await book(nextMonth);
      const after = (await control<SubscriptionAnswer>(sb, 'GET', `/subscriptions/${sb.companies.main.subscriptionId}`)).json.subscription
        .installments;
      expect(after).toEqual(issued);
    });

    it('validates month and year and the horizon of the end of next year', async () => {
      expect((await book(`?month=12&year=${year + 1}`)).status).toBe(200);
      const beyond = await book(`?month=1&year=${year + 2}`);
      expect(beyond.status).toBe(400);
      expect(beyond.json).toEqual({ error: `The payment book is available up to 12/${year + 1}` });
      expect((await book(`?year=${year}`)).json).toEqual({ error: 'month is required' });
      expect((await book(`?month=${month}`)).json).toEqual({ error: 'year is required' });
      expect((await book(`?month=13&year=${year}`)).status).toBe(400);
      expect((await book(`?month=abc&year=${year}`)).status).toBe(400);
      const before = await book(`?month=12&year=${year - 1}`);
      expect(before.status).toBe(400);
      expect(before.json).toEqual({ error: `The period is before the start of the subscription (1/${year})` });
    });

    it('is absent for another company and needs SUBSCRIPTION_PAYMENT_BOOK_GET', async () => {
      const foreign = await book(`?month=${month}&year=${year}`, sb.companies.other.mainAppId);
      expect(foreign.status).toBe(404);
      expect(foreign.json).toEqual({ error: 'Subscription not found' });
      const limited = await book(`?month=${month}&year=${year}`, sb.companies.main.limitedAppId);
      expect(limited.status).toBe(403);
      expect(limited.json).toEqual({ error: 'Application does not have required scope: SUBSCRIPTION_PAYMENT_BOOK_GET' });
    });
  });

  describe('POST /api/v1/dispute/:id/evidence', () => {
    const evidence = (documents: unknown[], id = sb.companies.main.disputeId, appId = sb.companies.main.mainAppId) =>
      api<DisputeAnswer>(sb, 'POST', `/api/v1/dispute/${id}/evidence`, { appId, body: { documents } });

    it('accepts url evidence and refuses an item with both url and fileId', async () => {
      const ok = await evidence([{ url: 'https://example.com/receipt.pdf' }]);
      expect(ok.status).toBe(200);
      expect(ok.json.dispute).toMatchObject({ id: sb.companies.main.disputeId, evidences: [{ url: 'https://example.com/receipt.pdf' }] });
      const both = await evidence([{ url: 'https://example.com/a.pdf', fileId: 'ffffffffffffffffffffffff' }]);
      expect(both.status).toBe(400);
      expect(both.json).toEqual({ error: 'documents.0 Send url or fileId, not both' });
    });

    it('403 with DISPUTE_EVIDENCE_FILE_ID_NOT_ALLOWED without the feature; with it, only DISPUTE_EVIDENCE files', async () => {
      const { main } = sb.companies;
      const fileId = await uploadProof(sb, main.mainAppId, 'DISPUTE_EVIDENCE');
      const refused = await evidence([{ fileId }]);
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ error: expect.any(String), errorCode: 'DISPUTE_EVIDENCE_FILE_ID_NOT_ALLOWED' });

      await control(sb, 'POST', `/companies/${main.companyId}/features`, { feature: 'DISPUTE_EVIDENCE_FILE_ID', enabled: true });
      const limitProof = await uploadProof(sb, main.mainAppId);
      const wrongPurpose = await evidence([{ fileId: limitProof }]);
      expect(wrongPurpose.status).toBe(400);
      expect(wrongPurpose.json).toEqual({ error: `Document ${limitProof}: File not found` });

      const accepted = await evidence([{ fileId }]);
      expect(accepted.status).toBe(200);
      expect(accepted.json.dispute.evidences.at(-1)).toMatchObject({ fileId, fileName: 'proof.pdf', contentType: 'application/pdf' });
    });

    it('is absent for another company', async () => {
      const res = await evidence([{ url: 'https://example.com/a.pdf' }], sb.companies.other.disputeId);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: 'Dispute not found' });
    });
  });

  describe('statement and transactions', () => {
    it('answers the statement as a bare array of entries', async () => {
      const res = await api<StatementEntry[]>(sb, 'GET', '/api/v1/statement', { appId: sb.companies.main.mainAppId });
      expect(res.status).toBe(200);
      expect(Array.isArray(res.json)).toBe(true);
      expect(res.json.length).toBeGreaterThan(0);
      for (const entry of res.json) {
        expect(Object.keys(entry).sort()).toEqual(['balance', 'description', 'id', 'time', 'transactionId', 'type', 'value']);
      }
      expect(res.json[0]!.balance).toBe(1500000);

      const tx = await api<{ transaction: unknown }>(sb, 'GET', `/api/v1/transaction/${res.json[0]!.transactionId}`, {
        appId: sb.companies.main.mainAppId,
      });
      expect(tx.status).toBe(200);
      expect(tx.json.transaction).toMatchObject({ id: res.json[0]!.transactionId, value: res.json[0]!.value });
    });

    it('reads another account with companyBankAccount only as MASTER with MASTER_APP_READ_ANY_ACCOUNT', async () => {
      const { main } = sb.companies;
      const account = (await api<AccountAnswer>(sb, 'POST', '/api/v1/account', { appId: main.masterAppId })).json.account.accountId;
      const path = `/api/v1/statement?companyBankAccount=${account}`;

      expect((await api(sb, 'GET', path, { appId: main.mainAppId })).status).toBe(403);
      expect((await api(sb, 'GET', path, { appId: main.masterAppId })).status).toBe(403);
      await control(sb, 'POST', `/companies/${main.companyId}/features`, { feature: 'MASTER_APP_READ_ANY_ACCOUNT', enabled: true });
      const read = await api(sb, 'GET', path, { appId: main.masterAppId });
      expect(read.status).toBe(200);
      expect(read.json).toEqual([]);
      expect((await api(sb, 'GET', path, { appId: main.mainAppId })).status).toBe(403);

      const unknown = await api(sb, 'GET', '/api/v1/statement?companyBankAccount=ffffffffffffffffffffffff', { appId: main.masterAppId });
      expect(unknown.status).toBe(404);
      const foreign = await api(sb, 'GET', `/api/v1/statement?companyBankAccount=${sb.companies.other.defaultAccountId}`, {
        appId: main.masterAppId,
      });
      expect(foreign.status).toBe(404);

      const otherTx = (await api<StatementEntry[]>(sb, 'GET', '/api/v1/statement', { appId: sb.companies.other.mainAppId })).json[0]!
        .transactionId;
      expect((await api(sb, 'GET', `/api/v1/transaction/${otherTx}`, { appId: main.mainAppId })).status).toBe(404);
    });
  });
});
