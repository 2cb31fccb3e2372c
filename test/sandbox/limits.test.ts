import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { type AccountAnswer, api, control, type Failure, type LimitRequestAnswer, type LimitsAnswer, uploadProof } from './helpers';

/** A page of the company's limit requests, as far as these tests read it. */
type LimitRequestList = { limitRequests: Array<{ id: string; createdAt: string }>; total: number };

describe('account limits and limit requests', () => {
  let sb: SandboxHandle;
  let appId: string;
  let accountId: string;
  let proof: string;

  beforeAll(async () => {
    sb = await startSandbox();
    appId = sb.companies.main.mainAppId;
    accountId = sb.companies.main.defaultAccountId;
    proof = await uploadProof(sb, appId);
  });
  afterAll(() => sb.close());

  const readLimits = async (id = accountId): Promise<Record<string, number | string>> =>
    (await api<LimitsAnswer>(sb, 'GET', `/api/v1/limits/${id}`, { appId })).json.limits;

  const requestBody = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    companyBankAccountId: accountId,
    pixDayLimit: 600000,
    pixNightLimit: 100000,
    documents: [{ fileId: proof }],
    ...extra,
  });

  /** Opens a request on a fresh account (so tests do not collide on the one-in-review rule). */
  async function freshAccount(): Promise<string> {
    return (await api<AccountAnswer>(sb, 'POST', '/api/v1/account', { appId: sb.companies.main.masterAppId })).json.account.accountId;
  }

  it('reads the limits with the published field names', async () => {
    const res = await api<LimitsAnswer>(sb, 'GET', `/api/v1/limits/${accountId}`, { appId });
    expect(res.status).toBe(200);
    expect(res.json.limits).toEqual({
      pixDayLimit: 500000,
      pixNightLimit: 100000,
      pixOutSameHolderDayLimit: expect.any(Number),
      pixOutSameHolderNightLimit: expect.any(Number),
      pixOutDifferentHolderDayLimit: expect.any(Number),
      pixOutDifferentHolderNightLimit: expect.any(Number),
      pixInSameHolderDayLimit: expect.any(Number),
      pixInSameHolderNightLimit: expect.any(Number),
      pixInDifferentHolderDayLimit: expect.any(Number),
      pixInDifferentHolderNightLimit: expect.any(Number),
      dayStartAt: '06:00',
      nightStartAt: '20:00',
      boletoEmissionLimit: 200,
      boletoMaximumValueLimit: 1000000,
    });
  });

  describe('section 7 errors of POST /api/v1/limits/request', () => {
    it('400 Document <id>: File not found, for an unknown file', async () => {
      const res = await api(sb, 'POST', '/api/v1/limits/request', {
        appId,
        body: requestBody({ documents: [{ fileId: 'ffffffffffffffffffffffff' }] }),
      });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'Document ffffffffffffffffffffffff: File not found' });
    });

    it('400 Document <id>: File not found, for a file of another company', async () => {
      const foreign = await uploadProof(sb, sb.companies.other.mainAppId);
      const res = await api(sb, 'POST', '/api/v1/limits/request', { appId, body: requestBody({ documents: [{ fileId: foreign }] }) });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: `Document ${foreign}: File not found` });
    });

    it('400 Document <id>: File not found, for a file uploaded with another purpose', async () => {
      const evidence = await uploadProof(sb, appId, 'DISPUTE_EVIDENCE');
      const res = await api(sb, 'POST', '/api/v1/limits/request', { appId, body: requestBody({ documents: [{ fileId: evidence }] }) });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: `Document ${evidence}: File not found` });
    });

    it('400 when a requested limit is below the current value', async () => {
      const res = await api(sb, 'POST', '/api/v1/limits/request', { appId, body: requestBody({ pixNightLimit: 99999 }) });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'Requested limit cannot be less than the current value' });
    });

    it('400 when no limit is above the current value', async () => {
      const res = await api(sb, 'POST', '/api/v1/limits/request', { appId, body: requestBody({ pixDayLimit: 500000 }) });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'At least one limit must be greater than the current value' });
    });

    it('400 when no document is sent (missing or empty)', async () => {
      for (const documents of [undefined, []]) {
        const res = await api(sb, 'POST', '/api/v1/limits/request', { appId, body: requestBody({ documents }) });
        expect(res.status).toBe(400);
        expect(res.json).toEqual({ error: 'documents At least one document is required' });
      }
    });

    it('403 naming ACCOUNT_LIMITS_REQUEST_POST for an AppID without it', async () => {
      const res = await api(sb, 'POST', '/api/v1/limits/request', { appId: sb.companies.main.limitedAppId, body: requestBody() });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ error: 'Application does not have required scope: ACCOUNT_LIMITS_REQUEST_POST' });
    });

    it('404 Account not found, for an unknown account and for one of another company (never 403)', async () => {
      for (const id of ['ffffffffffffffffffffffff', sb.companies.other.defaultAccountId]) {
        const res = await api(sb, 'POST', '/api/v1/limits/request', { appId, body: requestBody({ companyBankAccountId: id }) });
        expect(res.status).toBe(404);
        expect(res.json).toEqual({ error: 'Account not found' });
      }
    });

    it('409 when the account already has a request in review', async () => {
      const account = await freshAccount();
      const first = await api(sb, 'POST', '/api/v1/limits/request', { appId, body: requestBody({ companyBankAccountId: account }) });
      expect(first.status).toBe(201);
      const second = await api(sb, 'POST', '/api/v1/limits/request', { appId, body: requestBody({ companyBankAccountId: account }) });
      expect(second.status).toBe(409);
      expect(second.json).toEqual({ error: 'Limit request already in review' });
    });
  });

  describe('other validation', () => {
    it('checks the account before the documents', async () => {
      const res = await api(sb, 'POST', '/api/v1/limits/request', {
        appId,
        body: requestBody({ companyBankAccountId: sb.companies.other.defaultAccountId, documents: [] }),
      });
      expect(res.status).toBe(404);
    });

    it('refuses more than 10 documents', async () => {
      const documents = Array.from({ length: 11 }, () => ({ fileId: proof }));
      const res = await api<Failure>(sb, 'POST', '/api/v1/limits/request', { appId, body: requestBody({ documents }) });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('documents At most 10 documents are allowed');
    });

    it('requires pixDayLimit and pixNightLimit', async () => {
      const res = await api<Failure>(sb, 'POST', '/api/v1/limits/request', { appId, body: requestBody({ pixNightLimit: undefined }) });
      expect(res.status).toBe(400);
      expect(res.json.error).toBe('pixNightLimit is required');
    });

    it('refuses non-requestable fields, non-integers and negatives', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ boletoEmissionLimit: 300 }, 'boletoEmissionLimit is not a requestable limit'],
        [{ dayStartAt: '05:00' }, 'dayStartAt is not a requestable limit'],
        [{ pixDayLimit: 600000.5 }, 'pixDayLimit must be an integer (cents)'],
        [{ pixDayLimit: '600000' }, 'pixDayLimit must be an integer (cents)'],
        [{ pixOutSameHolderDayLimit: -1 }, 'pixOutSameHolderDayLimit must not be negative'],
      ];
      for (const [extra, error] of cases) {
        const res = await api(sb, 'POST', '/api/v1/limits/request', { appId, body: requestBody(extra) });
        expect({ status: res.status, body: res.json }).toEqual({ status: 400, body: { error } });
      }
    });

    it('answers 400 to a body that is not JSON', async () => {
      const res = await api(sb, 'POST', '/api/v1/limits/request', { appId, rawBody: '{"companyBankAccountId":' });
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ error: 'Invalid JSON body' });
    });
  });

  it('creates IN_REVIEW without approvedLimits; approval sets approvedLimits and the limits at once', async () => {
    const account = await freshAccount();
    const created = await api<LimitRequestAnswer>(sb, 'POST', '/api/v1/limits/request', {
      appId,
      body: requestBody({
        companyBankAccountId: account,
        pixOutDifferentHolderDayLimit: 400000,
        description: 'Black Friday',
        limitRequestReason: 'SEASONAL',
      }),
    });
    expect(created.status).toBe(201);
    const request = created.json.limitRequest;
    expect(request).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      companyBankAccountId: account,
      status: 'IN_REVIEW',
      requestedLimits: { pixDayLimit: 600000, pixNightLimit: 100000, pixOutDifferentHolderDayLimit: 400000 },
      documents: [{ fileName: 'proof.pdf', contentType: 'application/pdf' }],
      description: 'Black Friday',
      limitRequestReason: 'SEASONAL',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect('approvedLimits' in request).toBe(false);

    const polled = await api<LimitRequestAnswer>(sb, 'GET', `/api/v1/limits/request/${request.id}`, { appId });
    expect(polled.status).toBe(200);
    expect(polled.json.limitRequest).toEqual(request);

    const approved = await control(sb, 'POST', `/limit-requests/${request.id}/approve`, {
      limits: { pixDayLimit: 550000, pixNightLimit: 100000 },
    });
    expect(approved.status).toBe(200);
    const after = (await api<LimitRequestAnswer>(sb, 'GET', `/api/v1/limits/request/${request.id}`, { appId })).json.limitRequest;
    expect(after.status).toBe('APPROVED');
    expect(after.approvedLimits).toEqual({ pixDayLimit: 550000, pixNightLimit: 100000 });
    expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(request.updatedAt));
    const limits = await readLimits(account);
    expect(limits.pixDayLimit).toBe(550000);
    expect(limits.pixOutDifferentHolderDayLimit).toBe(300000); // not granted: unchanged

    // Decided: a new request may be opened, measured against the new limits.
    const again = await api(sb, 'POST', '/api/v1/limits/request', {
      appId,
      body: requestBody({ companyBankAccountId: account, pixDayLimit: 560000 }),
    });
    expect(again.status).toBe(201);
  });

  it('approval without chosen limits grants the requested ones', async () => {
    const account = await freshAccount();
    const created = await api<LimitRequestAnswer>(sb, 'POST', '/api/v1/limits/request', {
      appId,
      body: requestBody({ companyBankAccountId: account, pixInSameHolderNightLimit: 250000 }),
    });
    const id = created.json.limitRequest.id;
    const approved = await control<LimitRequestAnswer>(sb, 'POST', `/limit-requests/${id}/approve`);
    expect(approved.json.limitRequest.approvedLimits).toEqual({
      pixDayLimit: 600000,
      pixNightLimit: 100000,
      pixInSameHolderNightLimit: 250000,
    });
    expect(await readLimits(account)).toMatchObject({ pixDayLimit: 600000, pixInSameHolderNightLimit: 250000 });
    // A decided request cannot be decided again.
    expect((await control(sb, 'POST', `/limit-requests/${id}/reject`)).status).toBe(409);
  });

  it('rejection changes nothing on the account and allows a new request', async () => {
    const account = await freshAccount();
    const before = await readLimits(account);
    const created = await api<LimitRequestAnswer>(sb, 'POST', '/api/v1/limits/request', {
      appId,
      body: requestBody({ companyBankAccountId: account }),
    });
    const id = created.json.limitRequest.id;
    const rejected = await control(sb, 'POST', `/limit-requests/${id}/reject`);
    expect(rejected.status).toBe(200);
    const read = (await api<LimitRequestAnswer>(sb, 'GET', `/api/v1/limits/request/${id}`, { appId })).json.limitRequest;
    expect(read.status).toBe('REJECTED');
    expect('approvedLimits' in read).toBe(false);
    expect(await readLimits(account)).toEqual(before);
    expect((await api(sb, 'POST', '/api/v1/limits/request', { appId, body: requestBody({ companyBankAccountId: account }) })).status).toBe(
      201,
    );
  });

  it('lists the company requests newest first, paginated', async () => {
    // Four of its own, whatever ran before (one in review per account: each on a fresh account).
    const mine: string[] = [];
    for (let i = 0; i < 4; i++) {
      const made = await api<LimitRequestAnswer>(sb, 'POST', '/api/v1/limits/request', {
        appId,
        body: requestBody({ companyBankAccountId: await freshAccount() }),
      });
      mine.push(made.json.limitRequest.id);
    }
    const all = await api<LimitRequestList>(sb, 'GET', '/api/v1/limits/request', { appId });
    expect(all.status).toBe(200);
    const { limitRequests, total } = all.json;
    expect(total).toBeGreaterThanOrEqual(4);
    expect(limitRequests.map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining(mine));
    expect(limitRequests.length).toBe(Math.min(10, total));
    const created = limitRequests.map((r: { createdAt: string }) => Date.parse(r.createdAt));
    expect([...created].sort((a, b) => b - a)).toEqual(created);

    const page = await api<LimitRequestList>(sb, 'GET', '/api/v1/limits/request?limit=2&skip=1', { appId });
    expect(page.json.limitRequests.map((r: { id: string }) => r.id)).toEqual(limitRequests.slice(1, 3).map((r: { id: string }) => r.id));
    expect(page.json.total).toBe(total);

    const tooBig = await api<Failure>(sb, 'GET', '/api/v1/limits/request?limit=101', { appId });
    expect(tooBig.status).toBe(400);
    expect(tooBig.json.error).toBe('limit must be at most 100');
    expect((await api(sb, 'GET', '/api/v1/limits/request?skip=-1', { appId })).status).toBe(400);

    const other = await api(sb, 'GET', '/api/v1/limits/request', { appId: sb.companies.other.mainAppId });
    expect(other.json).toEqual({ limitRequests: [], total: 0 });
  });

  it('reports another company’s account and request as absent, never forbidden', async () => {
    const created = await api<LimitRequestAnswer>(sb, 'POST', '/api/v1/limits/request', { appId, body: requestBody() });
    expect(created.status).toBe(201);
    const otherApp = sb.companies.other.mainAppId;
    const read = await api(sb, 'GET', `/api/v1/limits/request/${created.json.limitRequest.id}`, { appId: otherApp });
    expect(read.status).toBe(404);
    expect(read.json).toEqual({ error: 'Limit request not found' });
    const limits = await api(sb, 'GET', `/api/v1/limits/${accountId}`, { appId: otherApp });
    expect(limits.status).toBe(404);
    expect(limits.json).toEqual({ error: 'Account not found' });
  });

  it('needs ACCOUNT_LIMITS_GET to read limits and requests', async () => {
    const limited = sb.companies.main.limitedAppId;
    for (const path of [`/api/v1/limits/${accountId}`, '/api/v1/limits/request', '/api/v1/limits/request/ffffffffffffffffffffffff']) {
      const res = await api(sb, 'GET', path, { appId: limited });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ error: 'Application does not have required scope: ACCOUNT_LIMITS_GET' });
    }
  });
});
