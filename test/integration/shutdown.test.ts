import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebClient } from '@slack/web-api';
import type { RunningApp } from '../../src/app';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { openStore, type Store } from '../../src/store';
import { api } from '../sandbox/helpers';
import { startAppProcess, type AppProcess } from '../support/app-process';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { BOT_TOKEN, SIGNING_SECRET } from '../support/harness';
import { approve, decisionReplies, fileTrackedRequest, type FiledRequest } from '../support/limit-requests';
import { slackSignatureHeaders } from '../../src/slack-standin/signing';
import { waitFor } from '../support/wait';

const VIEWER = 'U0VIEWER7';

/**
 * SIGTERM / SIGINT on the compiled app (`dist/src/main.js`): it stops taking work at once, lets what
 * is in flight finish, closes the store and exits 0 well within 10 s; whatever it did not get to is
 * picked up by the next run.
 */
describe('graceful shutdown', () => {
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  let dir: string;
  let storeUrl: string;
  let store: Store;
  const procs: AppProcess[] = [];

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    sandbox = await startSandbox({ port: 0 });
    dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-shutdown-'));
    storeUrl = `sqlite://${path.join(dir, 'data', 'pix-ops.sqlite')}`;
    store = await openStore({ url: storeUrl });
  });
  afterAll(async () => {
    for (const p of procs) p.kill('SIGKILL');
    await store.close();
    await sandbox.close();
    await slack.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => api(sandbox, 'DELETE', '/sandbox/faults'));

  const start = async () => {
    const p = await startAppProcess(
      {
        SLACK_API_URL: slack.apiUrl,
        PIX_API_URL: sandbox.url,
        PIX_APP_ID: sandbox.companies.main.mainAppId,
        STORE_URL: storeUrl,
        POLL_SCHEDULE: '* * * * * *',
        POLL_CONCURRENCY: '4',
        ACCESS_VIEWERS: VIEWER,
      },
      { cwd: dir },
    );
    procs.push(p);
    return p;
  };
  const file = () => fileTrackedRequest({ sandbox, app: { deps: { slack: new WebClient(BOT_TOKEN, { slackApiUrl: slack.apiUrl }), store } } as unknown as RunningApp });
  const messages = (p: AppProcess) => p.logs().map((l) => String(l.msg));

  test('SIGTERM in the middle of a tick: no new work, the reads in flight finish, exit 0 within 10 s; the next run delivers the rest once', async () => {
    const requests: FiledRequest[] = [];
    for (let i = 0; i < 8; i++) requests.push(await file());
    const app = await start();
    await api(sandbox, 'POST', '/sandbox/faults', { body: { latencyMs: 800 } });
    const since = sandbox.calls.length;
    await waitFor('a tick reading the requests', () => sandbox.calls.slice(since).some((c) => c.path.startsWith('/api/v1/limits/request/')), 5_000);

    const signalled = Date.now();
    app.kill('SIGTERM');
    await waitFor('the stop to begin', () => messages(app).includes('stopping: no new work taken'), 2_000);
    // The HTTP port is closed at once: no new Slack request is taken.
    await expect(fetch(`${app.eventsUrl}`, { method: 'POST', body: 'x' })).rejects.toThrow();
    const { code } = await app.exited;
    const tookMs = Date.now() - signalled;
    expect(code).toBe(0);
    expect(tookMs).toBeLessThan(10_000);
    const order = messages(app).filter((m) => ['stopping: no new work taken', 'stopped'].includes(m));
    expect(order).toEqual(['stopping: no new work taken', 'stopped']);
    // The tick started no new request after the signal: at most the first batch (4) was read.
    const reads = sandbox.calls.slice(since).filter((c) => c.path.startsWith('/api/v1/limits/request/') && c.at >= signalled + 100);
    expect(reads.length).toBe(0);

    await api(sandbox, 'DELETE', '/sandbox/faults');
    for (const r of requests) await approve(sandbox, r.id);
    const next = await start();
    await waitFor('every decision delivered by the next run', async () => {
      for (const r of requests) if (!(await store.trackedRequests.get(r.id))?.closed) return false;
      return true;
    }, 10_000);
    for (const r of requests) expect(decisionReplies(slack.messages, r)).toHaveLength(1);
    next.kill('SIGINT');
    expect((await next.exited).code).toBe(0);
  });

  test('SIGINT while a command is being answered: the answer still goes out before the process exits 0', async () => {
    const app = await start();
    await api(sandbox, 'POST', '/sandbox/faults', { body: { latencyMs: 800 } });
    const body = new URLSearchParams({
      command: '/pix',
      text: 'limits',
      user_id: VIEWER,
      channel_id: 'C0SHUTDWN1',
      team_id: 'T0FAKE',
      response_url: slack.responseUrl('shutdown-limits'),
      trigger_id: 'trigger-shutdown-1',
    }).toString();
    const ack = await fetch(app.eventsUrl, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...slackSignatureHeaders(body, SIGNING_SECRET) },
    });
    expect(ack.status).toBe(200);
    slack.judgeAck(body, await ack.text());
    const signalled = Date.now();
    app.kill('SIGINT');
    const { code } = await app.exited;
    expect(code).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    // The work acknowledged before the signal was finished, not dropped.
    expect(slack.responsesTo('shutdown-limits')).toHaveLength(1);
  });
});
