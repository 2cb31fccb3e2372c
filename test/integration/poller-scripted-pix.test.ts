import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Harness, messageText, startHarness } from '../support/harness';
import { CHANNEL, decisionReplies, REQUESTER, threadPosts, trackWithRoot } from '../support/limit-requests';
import { waitFor } from '../support/wait';

/**
 * Answers the sandbox cannot give (an APPROVED request without approvedLimits, odd values, unknown
 * statuses), from a small HTTP server in place of the Pix API, answering what each test scripts.
 */
class ScriptedPixApi {
  /** The `limitRequest` object answered for each id (404 for others). */
  readonly requests = new Map<string, Record<string, unknown>>();
  readonly reads: Array<{ id: string; authorization: string | undefined; at: number }> = [];
  delayMs = 0;
  inFlight = 0;
  maxInFlight = 0;
  url = '';
  private server?: http.Server;

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  readsOf(id: string): number {
    return this.reads.filter((r) => r.id === id).length;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const m = /^\/api\/v1\/limits\/request\/([^/?]+)$/.exec(req.url ?? '');
    if (req.method !== 'GET' || !m) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    const id = decodeURIComponent(m[1]!);
    this.reads.push({ id, authorization: req.headers.authorization, at: Date.now() });
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    // The answer as it stands when the request arrives (a read in progress does not see later changes).
    const known = this.requests.get(id);
    const request = known && (JSON.parse(JSON.stringify(known)) as Record<string, unknown>);
    try {
      if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      if (!request) res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Limit request not found' }));
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ limitRequest: { id, ...request } }));
    } finally {
      this.inFlight--;
    }
  }
}

const APP_ID = 'scripted-main-app-id-0001';
const ACCOUNT = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const REQUESTED = { pixDayLimit: 600_000, pixNightLimit: 150_000 };
let counter = 0;
const nextId = () => `${(0xb0000000 + ++counter).toString(16)}0000000000000000`;

async function track(h: Harness, pix: ScriptedPixApi, answer: Record<string, unknown>) {
  const id = nextId();
  pix.requests.set(id, { companyBankAccountId: ACCOUNT, requestedLimits: REQUESTED, ...answer });
  const { rootTs } = await trackWithRoot(h.app, {
    limitRequestId: id,
    accountId: ACCOUNT,
    requesterId: REQUESTER,
    channel: CHANNEL,
    current: { pixDayLimit: 500_000, pixNightLimit: 100_000 },
    requested: REQUESTED,
    documents: [],
    source: 'filed',
  });
  return { id, channel: CHANNEL, rootTs };
}

describe('poller against a scripted Pix API: what is and is not a decision', () => {
  let pix: ScriptedPixApi;
  let h: Harness;

  beforeAll(async () => {
    pix = await new ScriptedPixApi().start();
    // A budget that never binds: the poller's reads are spaced by PIX_RATE_LIMIT, and what these tests
    // judge is the reads themselves and POLL_CONCURRENCY (at the default 5 a second, 80 ms reads never overlap).
    h = await startHarness({
      PIX_API_URL: pix.url,
      PIX_APP_ID: APP_ID,
      POLL_SCHEDULE: '0 0 1 1 *',
      POLL_CONCURRENCY: '2',
      PIX_RATE_LIMIT: '1000',
    });
  });
  afterAll(async () => {
    await h.close();
    await pix.close();
  });
  afterEach(async () => {
    // Leave nothing open for the next test's tick.
    for (const id of await h.app.deps.store.trackedRequests.openIds()) await h.app.deps.store.trackedRequests.close(id);
    pix.delayMs = 0;
  });

  test('APPROVED without approvedLimits, with empty ones, or an unknown status: not a decision', async () => {
    const noLimits = await track(h, pix, { status: 'APPROVED' });
    const empty = await track(h, pix, { status: 'APPROVED', approvedLimits: {} });
    const unknown = await track(h, pix, { status: 'CANCELLED' });
    const inReview = await track(h, pix, { status: 'IN_REVIEW' });

    const report = await h.app.poller.tick();
    expect(report).toMatchObject({ polled: 4, decided: 0, failed: 0, pending: 4 });
    for (const r of [noLimits, empty, unknown, inReview]) {
      expect(pix.readsOf(r.id)).toBe(1);
      expect(threadPosts(h.slack.calls, r)).toHaveLength(0);
    }
    // Every read carried the main AppID.
    expect(new Set(pix.reads.map((r) => r.authorization))).toEqual(new Set([APP_ID]));

    // The approved limits show up: now it is an approval.
    pix.requests.get(noLimits.id)!.approvedLimits = { ...REQUESTED };
    const next = await h.app.poller.tick();
    expect(next).toMatchObject({ polled: 4, decided: 1, pending: 3 });
    expect(decisionReplies(h.slack.messages, noLimits)).toHaveLength(1);
    expect(threadPosts(h.slack.calls, empty)).toHaveLength(0);
  });

  test('approvedLimits values that are not whole cents are left out of the reply and the record', async () => {
    const r = await track(h, pix, {
      status: 'APPROVED',
      approvedLimits: { pixDayLimit: 5500.5, pixNightLimit: 120_000, pixInSameHolderDayLimit: '900', pixOutSameHolderDayLimit: 2 ** 60 },
    });
    await h.app.poller.tick();

    const record = await h.app.deps.store.trackedRequests.get(r.id);
    expect(record).toMatchObject({ closed: true, reply: { status: 'APPROVED', approved: { pixNightLimit: 120_000 } } });
    expect(Object.keys(record!.reply!.approved!)).toEqual(['pixNightLimit']);
    const text = messageText(decisionReplies(h.slack.messages, r)[0]!.blocks);
    expect(text).toContain('Pix day: R$5,000.00 → *R$6,000.00*  _(no approved value)_');
    expect(text).toContain('→ granted *R$1,200.00* :warning: below the ask');
    expect(text).not.toContain('5500');
  });

  test('a request the Pix API does not know (404) fails alone and stays open', async () => {
    const known = await track(h, pix, { status: 'REJECTED' });
    const gone = await track(h, pix, { status: 'REJECTED' });
    pix.requests.delete(gone.id);
    const report = await h.app.poller.tick();
    expect(report).toMatchObject({ decided: 1, failed: 1 });
    expect(pix.readsOf(gone.id)).toBe(1); // a 404 is not retried
    expect(decisionReplies(h.slack.messages, known)).toHaveLength(1);
    expect(await h.app.deps.store.trackedRequests.openIds()).toEqual([gone.id]);
  });

  test('reads are made POLL_CONCURRENCY at a time', async () => {
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push((await track(h, pix, { status: 'IN_REVIEW' })).id);
    pix.delayMs = 80;
    pix.maxInFlight = 0;
    const report = await h.app.poller.tick();
    expect(report.polled).toBe(6);
    expect(pix.maxInFlight).toBe(2);
  });
});

describe('poller ticks never overlap', () => {
  test('scheduled ticks every second with reads slower than that, and on-demand ticks meanwhile: one tick at a time', async () => {
    const pix = await new ScriptedPixApi().start();
    const h = await startHarness({ PIX_API_URL: pix.url, PIX_APP_ID: APP_ID, POLL_SCHEDULE: '* * * * * *' });
    try {
      pix.delayMs = 1_200;
      const r = await track(h, pix, { status: 'IN_REVIEW' });
      await waitFor('a scheduled read', () => pix.readsOf(r.id) >= 1, 3_000);
      // Asked for while a scheduled tick is reading: runs after it, and sees the decision made meanwhile.
      pix.requests.get(r.id)!.status = 'REJECTED';
      const report = await h.app.poller.tick();
      expect(report.decided).toBe(1);
      expect(pix.maxInFlight).toBe(1);
      const reads = pix.reads.filter((x) => x.id === r.id);
      for (let i = 1; i < reads.length; i++) expect(reads[i]!.at - reads[i - 1]!.at).toBeGreaterThanOrEqual(1_150);
      expect(decisionReplies(h.slack.messages, r)).toHaveLength(1);
    } finally {
      await h.close();
      await pix.close();
    }
  });
});
