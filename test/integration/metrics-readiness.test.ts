import { BOT_TOKEN, type Harness, SIGNING_SECRET, startHarness } from '../support/harness';
import { approve, fileTrackedRequest, REQUESTER } from '../support/limit-requests';
import { waitFor } from '../support/wait';

const VIEWER = 'U0VIEWER1';
const STRANGER = 'U0NOBODY1';

/** Every sample of a series, as `labels → value` (the Prometheus text format, one sample a line). */
function samples(body: string, name: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of body.split('\n')) {
    const m = /^([a-z_]+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (m && m[1] === name) out.set(m[2] ?? '', Number(m[3]));
  }
  return out;
}

async function faults(h: Harness, body: unknown): Promise<void> {
  const res = await fetch(`${h.sandbox.url}/sandbox/faults`, {
    method: body === undefined ? 'DELETE' : 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`faults: ${res.status}`);
}

describe('/metrics and /readyz on the health listener', () => {
  let h: Harness;
  let health: string;
  const scrape = async () => {
    const res = await fetch(`${health}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  };

  beforeAll(async () => {
    h = await startHarness({ HEALTH_PORT: '0', ACCESS_VIEWERS: VIEWER });
    health = `http://127.0.0.1:${h.app.healthPort}`;
  });
  afterAll(() => h.close());

  test('every pixops_* series of the contract, the default process and Node.js metrics; never on the Slack-facing port', async () => {
    const body = await scrape();
    for (const name of [
      'pixops_pix_requests_total',
      'pixops_pix_request_duration_seconds',
      'pixops_pix_rate_limited_total',
      'pixops_poll_runs_total',
      'pixops_poll_last_success_timestamp_seconds',
      'pixops_limit_requests_in_review',
      'pixops_slack_calls_total',
      'pixops_webhook_events_total',
      'pixops_approvals_pending',
      'process_cpu_user_seconds_total',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect({ name, declared: body.includes(`# TYPE ${name} `) }).toEqual({ name, declared: true });
    }
    expect(samples(body, 'pixops_approvals_pending').get('')).toBe(0);
    expect(samples(body, 'pixops_pix_rate_limited_total').get('')).toBe(0);
    expect((await fetch(`http://127.0.0.1:${h.app.port}/metrics`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${h.app.port}/readyz`)).status).toBe(404);
  });

  test('Pix calls counted by route pattern and status, 429s counted; Slack calls by method and result; the poll tick and what is in review', async () => {
    const main = h.sandbox.companies.main;
    const res = await h.slash(VIEWER, 'limits');
    await waitFor('the answer', () => h.slack.responsesTo(res.responseId)[0]);
    await h.slash(STRANGER, 'limits');
    // The Pix API refuses one read for its rate; the client waits and reads again.
    await faults(h, { fail: { status: 429, count: 1, retryAfter: 0, pathPrefix: '/api/v1/limits/' } });
    const again = await h.slash(VIEWER, `limits ${main.defaultAccountId}`);
    await waitFor('the answer', () => h.slack.responsesTo(again.responseId)[0]);
    await faults(h, undefined);

    const filed = await fileTrackedRequest(h);
    const open = await fileTrackedRequest(h);
    await approve(h.sandbox, filed.id);
    const report = await h.app.poller.tick();
    expect(report).toMatchObject({ decided: 1, pending: 1 });
    // Slack answering `ok: false` (an update of a message that is not there) counts as an error.
    await expect(h.app.deps.slack.exact.chat.update({ channel: 'C0NOWHERE', ts: '1.000001', text: 'gone' })).rejects.toThrow(
      'message_not_found',
    );

    const body = await scrape();
    const pix = samples(body, 'pixops_pix_requests_total');
    expect(pix.get('{route="/api/v1/account",status="200"}')).toBe(1);
    expect(pix.get('{route="/api/v1/limits/:accountId",status="200"}')).toBe(2);
    expect(pix.get('{route="/api/v1/limits/:accountId",status="429"}')).toBe(1);
    expect(pix.get('{route="/api/v1/limits/request/:limitRequestId",status="200"}')).toBe(2);
    expect(samples(body, 'pixops_pix_rate_limited_total').get('')).toBe(1);
    expect(samples(body, 'pixops_pix_request_duration_seconds_count').get('{route="/api/v1/limits/:accountId"}')).toBe(3);
    expect(samples(body, 'pixops_poll_runs_total').get('{result="ok"}')).toBe(1);
    expect(samples(body, 'pixops_poll_last_success_timestamp_seconds').get('')).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(samples(body, 'pixops_limit_requests_in_review').get('')).toBe(1);

    const slack = samples(body, 'pixops_slack_calls_total');
    // The roots the test posted through the app's client, and the decision's reply through the poller's.
    const posts = h.slack.calls.filter((c) => c.method === 'chat.postMessage').length;
    expect(slack.get('{method="chat.postMessage",result="ok"}')).toBe(posts);
    expect(slack.get('{method="chat.update",result="ok"}')).toBeGreaterThanOrEqual(1);
    expect(slack.get('{method="chat.update",result="error"}')).toBe(1);
    expect([...slack.keys()].every((labels) => /^\{method="[a-zA-Z.]+",result="(ok|error|rate_limited|failed)"\}$/.test(labels))).toBe(
      true,
    );

    // Nothing private in any label or value: no id, key, user, token or secret.
    const privateValues = [
      main.mainAppId,
      main.masterAppId,
      main.defaultAccountId,
      filed.id,
      open.id,
      filed.accountId,
      VIEWER,
      STRANGER,
      REQUESTER,
      BOT_TOKEN,
      SIGNING_SECRET,
      filed.channel,
    ];
    for (const value of privateValues) expect({ value, found: body.includes(value) }).toEqual({ value, found: false });
    expect(body).not.toMatch(/[0-9a-f]{24}/);
  });

  test('/readyz: 200 while serving; 503 while stopping, until the listener closes', async () => {
    const ready = await fetch(`${health}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, store: 'ok', slack: 'ok', stopping: false });

    // A command in flight (its Pix read held back) keeps the stop draining for a while.
    await faults(h, { latencyMs: 1_500 });
    await h.slash(VIEWER, 'limits');
    const stopped = h.app.stop();
    const stopping = await fetch(`${health}/readyz`);
    expect(stopping.status).toBe(503);
    expect(await stopping.json()).toMatchObject({ ready: false, stopping: true });
    // /healthz stays as it is meanwhile.
    expect((await fetch(`${health}/healthz`)).status).toBe(200);
    await stopped;
    await expect(fetch(`${health}/readyz`)).rejects.toThrow();
  });
});

describe('no health listener', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ ACCESS_VIEWERS: VIEWER });
  });
  afterAll(() => h.close());

  test('nothing is counted where nothing can read it (no prom-client at start-up); the app answers as ever', async () => {
    const res = await h.slash(VIEWER, 'limits');
    expect(res.status).toBe(200);
    await waitFor('the answer', () => h.slack.responsesTo(res.responseId)[0]);
    expect(h.app.healthPort).toBeUndefined();
    expect(await h.app.deps.metrics.scrape()).toBeUndefined();
  });
});
