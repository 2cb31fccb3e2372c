import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebClient } from '@slack/web-api';
import type { RunningApp } from '../../src/app';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { openStore, type Store } from '../../src/store';
import { api } from '../sandbox/helpers';
import { type AppProcess, startAppProcess } from '../support/app-process';
import { BOT_TOKEN, poster, sendSlash, signedForm, slashBody } from '../support/harness';
import { approve, decisionReplies, type FiledRequest, fileTrackedRequest } from '../support/limit-requests';
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
  const file = () =>
    fileTrackedRequest({
      sandbox,
      app: { deps: { slack: { retried: new WebClient(BOT_TOKEN, { slackApiUrl: slack.apiUrl }) }, store } } as unknown as RunningApp,
    });
  const reads = (since: number) => sandbox.calls.slice(since).filter((c) => c.path.startsWith('/api/v1/limits/request/'));

  test('SIGTERM in the middle of a tick: no new work, the reads in flight finish, exit 0 within 10 s; the next run delivers the rest once', async () => {
    const requests: FiledRequest[] = [];
    for (let i = 0; i < 8; i++) requests.push(await file());
    const app = await start();
    // Slow reads (2 s each, four at a time): the signal lands while the first batch is in flight.
    await api(sandbox, 'POST', '/sandbox/faults', { body: { latencyMs: 2_000 } });
    const since = sandbox.calls.length;
    await waitFor('a tick reading the requests', () => reads(since).length > 0, 5_000);

    app.kill('SIGTERM');
    // The HTTP port closes at once, while the reads are still in flight: no new Slack request is taken.
    await waitFor('the HTTP port closed', () => refusesConnections(app.eventsUrl), 5_000);
    // Exit 0: the stop finished before main.ts's 10 s limit, which exits 1.
    expect((await app.exited).code).toBe(0);
    // The tick started no new request after the signal: only the first batch (POLL_CONCURRENCY) was read.
    expect(reads(since).length).toBeLessThanOrEqual(4);

    await api(sandbox, 'DELETE', '/sandbox/faults');
    for (const r of requests) await approve(sandbox, r.id);
    const next = await start();
    await waitFor(
      'every decision delivered by the next run',
      async () => {
        for (const r of requests) if (!(await store.trackedRequests.get(r.id))?.closed) return false;
        return true;
      },
      10_000,
    );
    for (const r of requests) expect(decisionReplies(slack.messages, r)).toHaveLength(1);
    next.kill('SIGINT');
    expect((await next.exited).code).toBe(0);
  }, 60_000); // two app start-ups: a hang guard for a busy machine

  test('SIGINT while a command is being answered: the answer still goes out before the process exits 0', async () => {
    const app = await start();
    await api(sandbox, 'POST', '/sandbox/faults', { body: { latencyMs: 800 } });
    const since = sandbox.calls.length;
    const { status, responseId } = await sendSlash(
      poster(app.eventsUrl, slack),
      slack,
      VIEWER,
      'limits',
      { channelId: 'C0SHUTDWN1' },
      'shutdown-1',
    );
    expect(status).toBe(200);
    // Signalled while its Pix read is in flight (the answer needs it).
    await waitFor('the command’s Pix read', () => sandbox.calls.length > since, 5_000);
    expect(slack.responsesTo(responseId)).toEqual([]);
    app.kill('SIGINT');
    // Exit 0: the stop finished before main.ts's 10 s limit, which exits 1.
    expect((await app.exited).code).toBe(0);
    // The work acknowledged before the signal was finished, not dropped.
    expect(slack.responsesTo(responseId)).toHaveLength(1);
  });

  test('SIGTERM while a request is answered on a kept-alive connection: its answer closes the connection, and a Slack delivery sent after on it is not served', async () => {
    const app = await start();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      // A request that takes a while (/healthz asks the Pix API, slowed) holds the connection when the signal lands.
      await api(sandbox, 'POST', '/sandbox/faults', { body: { latencyMs: 1_000 } });
      const since = sandbox.calls.length;
      const health = onAgent(agent, `http://127.0.0.1:${app.port}/healthz`, 'GET');
      await waitFor('the health probe’s Pix call', () => sandbox.calls.length > since, 5_000);
      app.kill('SIGTERM');
      expect(await health).toMatchObject({ status: 200, connection: 'close' });

      // The same agent: before, the kept-alive connection took it and the bot served it during the stop.
      const { body } = slashBody(slack, VIEWER, 'help', {}, 'shutdown-kept-alive');
      const after = await onAgent(agent, app.eventsUrl, 'POST', body, signedForm(body));
      // Refused at the door (the connection ended with its answer, the port is closed), or answered 503 and closed.
      expect('error' in after ? after.error : `${after.status} ${after.connection}`).toMatch(
        /ECONNREFUSED|ECONNRESET|socket hang up|^503 close$/,
      );
      expect((await app.exited).code).toBe(0);
    } finally {
      agent.destroy();
    }
  });
});

/** A request on `agent` (a kept-alive connection is reused): its answer, or the error that ended it. */
function onAgent(
  agent: http.Agent,
  url: string,
  method: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; connection: string | undefined; text: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.request(url, { method, agent, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, text }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end(body);
  });
}

/**
 * Whether a new connection to `url` is refused. Each probe opens a connection of its own: a pooled
 * keep-alive one (fetch's) opened before the stop is still served until it idles out, and would make
 * a closed port look open.
 */
function refusesConnections(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.request(url, { method: 'POST', agent: false }, (res) => {
      res.resume();
      resolve(false);
    });
    req.on('error', () => resolve(true));
    req.end('x');
  });
}
