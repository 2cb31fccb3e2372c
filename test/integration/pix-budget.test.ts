import { type RunningApp, startPixOps } from '../../src/app';
import { SHARED_PATIENCE_MS, WINDOW_MS } from '../../src/pix/budget';
import { loadConfig } from '../../src/runtime/config';
import { createLogger, SecretRegistry } from '../../src/runtime/logger';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import type { SandboxCall } from '../../src/sandbox/context';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { BOT_TOKEN, type Harness, SIGNING_SECRET, startHarness } from '../support/harness';
import { fileTrackedRequest } from '../support/limit-requests';
import { deleteKeys, OwnRedis, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { waitFor } from '../support/wait';

const VIEWER = 'U0VIEWER1';
const isRead = (c: SandboxCall) => c.method === 'GET' && c.path.startsWith('/api/v1/limits/request/');

/** The most calls that arrived at the Pix API in any one-second window. */
const peak = (calls: SandboxCall[]) => peakOf(calls.map((c) => c.at));

/** The most of these moments in any one-second window. */
function peakOf(moments: number[]): number {
  const times = [...moments].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < times.length; j++) {
    while (times[j]! - times[i]! >= 1_000) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

async function faults(url: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await res.json()) as { faults: Record<string, unknown> }).faults;
}

describe('one Pix budget shared by two instances on Redis', () => {
  const namespace = testNamespace('pix-budget');
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  const apps: RunningApp[] = [];

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    slack.botToken = BOT_TOKEN;
    sandbox = await startSandbox({ port: 0 });
    for (let i = 0; i < 2; i++) {
      const result = loadConfig({
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        PORT: '0',
        SLACK_API_URL: slack.apiUrl,
        PIX_API_URL: sandbox.url,
        PIX_APP_ID: sandbox.companies.main.mainAppId,
        STORE_URL: SHARED_REDIS_URL,
        STORE_SECRET: 'pix-budget-test-store-secret-0123456789',
        STORE_NAMESPACE: namespace,
        PIX_RATE_LIMIT: '5',
        POLL_SCHEDULE: '0 0 1 1 *',
      });
      if (!result.ok) throw new Error(result.problems.join('; '));
      const secrets = new SecretRegistry();
      apps.push(await startPixOps(result.config, { logger: createLogger({ level: 'silent', secrets }), secrets }));
    }
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await sandbox.close();
    await slack.close();
    await deleteKeys(SHARED_REDIS_URL, namespace);
  });

  test('both sweeping at once: every request read by each, their combined peak within PIX_RATE_LIMIT, no 429 from a service limited to it', async () => {
    const requests = [];
    for (let i = 0; i < 10; i++) requests.push(await fileTrackedRequest({ sandbox, app: apps[0]! }));
    // Each instance's first call loads its HTTP client and opens its connection: done before the
    // sweep, so that the sweep's calls reach the API as soon as they are admitted.
    await Promise.all(apps.map((a) => a.deps.pix.listScopes(a.deps.mainAppId)));
    // Their window over (and a little), so that it counts none of the sweep's places.
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS + 100));
    await faults(sandbox.url, { rateLimit: { perSecond: 5, retryAfter: 1 } });
    const since = sandbox.calls.length;
    const reports = await Promise.all(apps.map((a) => a.poller.tick()));
    expect(reports.map((r) => ({ polled: r.polled, pending: r.pending, failed: r.failed }))).toEqual([
      { polled: 10, pending: 10, failed: 0 },
      { polled: 10, pending: 10, failed: 0 },
    ]);
    const calls = sandbox.calls.slice(since);
    expect(calls.filter(isRead)).toHaveLength(20);
    expect(peak(calls)).toBeLessThanOrEqual(5);
    expect(await faults(sandbox.url, {})).toMatchObject({ rateLimited: 0 });
  });
});

describe('people before the poller', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ PIX_RATE_LIMIT: '2', ACCESS_VIEWERS: VIEWER });
  });
  afterAll(() => h.close());

  test('a person’s /pix limits in the middle of a sweep is not queued behind the sweep’s reads', async () => {
    for (let i = 0; i < 8; i++) await fileTrackedRequest(h);
    const since = h.sandbox.calls.length;
    const tick = h.app.poller.tick();
    await waitFor('the sweep under way', () => h.sandbox.calls.slice(since).filter(isRead).length >= 2, 10_000);
    const asked = h.sandbox.calls.length;
    const res = await h.slash(VIEWER, 'limits');
    await waitFor('the answer', () => h.slack.responsesTo(res.responseId)[0], 10_000);
    const report = await tick;
    expect(report).toMatchObject({ polled: 8, pending: 8, failed: 0 });

    const after = h.sandbox.calls.slice(asked);
    const personal = after.map((c, i) => ({ c, i })).filter(({ c }) => !isRead(c));
    expect(personal.map(({ c }) => `${c.method} ${c.path.replace(/[0-9a-f]{24}/, ':id')}`)).toEqual([
      'GET /api/v1/account',
      'GET /api/v1/limits/:id',
    ]);
    // At most one read of the sweep slipped in before the person was answered (the budget's
    // places of a window left to people); queued behind the sweep, they would have waited for all of it.
    const readsBefore = after.slice(0, personal.at(-1)!.i).filter(isRead).length;
    expect(readsBefore).toBeLessThanOrEqual(2);
    expect(after.slice(personal.at(-1)!.i).filter(isRead).length).toBeGreaterThanOrEqual(2);
    // And never more than the budget in any second, people and poller together.
    expect(peak(h.sandbox.calls.slice(since))).toBeLessThanOrEqual(2);
  });
});

describe('a 429 whose Retry-After is long', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ ACCESS_VIEWERS: VIEWER });
  });
  afterAll(() => h.close());

  test('the person is told at once (not kept waiting), the bot holds back its calls, and /healthz still answers within its time limit', async () => {
    await faults(h.sandbox.url, { fail: { status: 429, count: 1, retryAfter: 30 } });
    const since = h.sandbox.calls.length;
    const res = await h.slash(VIEWER, 'limits');
    await waitFor('the answer', () => h.slack.responsesTo(res.responseId)[0]);
    // One call, answered 429: not retried (30 s is past what a person waits), nothing else sent.
    expect(h.sandbox.calls.slice(since)).toHaveLength(1);
    const health = await fetch(`http://127.0.0.1:${h.app.port}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ store: 'ok', pixApi: 'down' });
    // The probe gave up waiting for the budget: it never reached the Pix API.
    expect(h.sandbox.calls.slice(since)).toHaveLength(1);
  });
});

describe('a hung Redis (a redis-server of our own, SIGSTOPped)', () => {
  let redis: OwnRedis;
  let h: Harness;
  const limit = 5;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    h = await startHarness({
      STORE_URL: redis.url,
      STORE_SECRET: 'h'.repeat(40),
      STORE_NAMESPACE: 'hung-budget-test',
      PIX_RATE_LIMIT: String(limit),
    });
  });
  afterAll(async () => {
    redis.unpause();
    await h.close();
    await redis.close();
  });

  test('the health probe does not wait behind the budget’s store, and N Pix calls take about N / PIX_RATE_LIMIT seconds, not a store time limit each', async () => {
    // Each instance's first call loads its HTTP client and opens its connection: done before.
    await h.app.deps.pix.listScopes(h.app.deps.mainAppId);
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    redis.pause();
    try {
      const health = await fetch(`http://127.0.0.1:${h.app.port}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ store: 'down', pixApi: 'ok' });

      const n = 4 * limit;
      const since = h.sandbox.calls.length;
      // When each call left, as the client saw it: the sandbox, on this same busy event loop, may take
      // two windows' requests in at once after a stall.
      const sentAt: number[] = [];
      const pix = h.app.deps.pix.observed((call) => sentAt.push(Date.now() - call.ms));
      const started = Date.now();
      await Promise.all(Array.from({ length: n }, () => pix.listScopes(h.app.deps.mainAppId)));
      const took = Date.now() - started;
      // At the limit: the first window's places at once, one window for each further `limit` calls. Twice
      // that is the bound (a busy machine); a store's time limit (2 s) for each would be 40 s.
      const atTheLimit = (n / limit - 1) * WINDOW_MS;
      expect(took).toBeLessThan(2 * atTheLimit + SHARED_PATIENCE_MS);
      const calls = h.sandbox.calls.slice(since);
      expect(calls).toHaveLength(n);
      // Counted in this process meanwhile, still within the limit.
      expect(sentAt).toHaveLength(n);
      expect(peakOf(sentAt)).toBeLessThanOrEqual(limit);
    } finally {
      redis.unpause();
    }
  });
});
