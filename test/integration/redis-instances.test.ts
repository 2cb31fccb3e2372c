import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebClient } from '@slack/web-api';
import type { RunningApp } from '../../src/app';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { type SlackApiCall, SlackStandIn } from '../../src/slack-standin/web-api';
import { openStore, type Store } from '../../src/store';
import { type ApplicationAnswer, api } from '../sandbox/helpers';
import { type AppProcess, startAppProcess } from '../support/app-process';
import { BOT_TOKEN } from '../support/harness';
import { approve, type FiledRequest, fileTrackedRequest, reject } from '../support/limit-requests';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { waitFor } from '../support/wait';

const SECRET = 'i'.repeat(40);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Two app processes (`dist/src/main.js`, as `npm start` runs it) on the shared Redis under a key
 * prefix of this run, one sandbox Pix API and one fake Slack. Each instance uses an AppID of its own
 * (two applications of the same company), so the sandbox's call log tells which instance polled.
 */
describe('several instances on one Redis (127.0.0.1:6379)', () => {
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  let store: Store;
  let cwd: string;
  const namespace = testNamespace('instances');
  let appIds: [string, string];
  const running: AppProcess[] = [];
  /** The AppID each process polls with. */
  const appIdOf = new Map<AppProcess, string>();

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    sandbox = await startSandbox({ port: 0 });
    cwd = mkdtempSync(path.join(tmpdir(), 'pix-ops-instances-'));
    const main = sandbox.companies.main;
    const second = await api<ApplicationAnswer>(sandbox, 'POST', '/api/v1/application', {
      appId: main.masterAppId,
      body: { accountId: main.defaultAccountId, application: { name: 'second instance', type: 'API' } },
    });
    appIds = [main.mainAppId, second.json.application.appID];
    // The test's own view of the shared store, to track requests as the bot would have.
    store = await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace });
  });

  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await store.close();
    await deleteKeys(SHARED_REDIS_URL, namespace);
    await sandbox.close();
    await slack.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  const start = (appId: string) =>
    startAppProcess(
      {
        SLACK_API_URL: slack.apiUrl,
        PIX_API_URL: sandbox.url,
        PIX_APP_ID: appId,
        PIX_TIMEOUT_MS: '3000',
        STORE_URL: SHARED_REDIS_URL,
        STORE_SECRET: SECRET,
        STORE_NAMESPACE: namespace,
        POLL_SCHEDULE: '* * * * * *',
        POLL_CONCURRENCY: '4',
        POLL_CLAIM_TTL_MS: '2000',
        LOG_LEVEL: 'info',
      },
      { cwd },
    ).then((p) => {
      running.push(p);
      appIdOf.set(p, appId);
      return p;
    });

  /**
   * Files a request in the sandbox, posts its root in the fake Slack and tracks it in the shared store.
   * In one of ten channels: Slack takes about one reply a second per channel, and the poller keeps to it.
   */
  const file = (i: number) => {
    const client = new WebClient(BOT_TOKEN, { slackApiUrl: slack.apiUrl });
    return fileTrackedRequest(
      { sandbox, app: { deps: { slack: { retried: client }, store } } as unknown as RunningApp },
      { channel: `C0SHARED${i % 10}` },
    );
  };

  const decisionPosts = (calls: SlackApiCall[]) =>
    calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.thread_ts &&
        (c.args.metadata as { event_type?: string } | undefined)?.event_type === 'pix_limit_decision',
    );
  const postsFor = (r: FiledRequest) =>
    decisionPosts(slack.calls).filter((c) => c.args.thread_ts === r.rootTs && c.args.channel === r.channel);
  const readsBy = (appId: string, since: number) =>
    sandbox.calls.filter(
      (c, i) => i >= since && c.authorization === appId && c.method === 'GET' && c.path.startsWith('/api/v1/limits/request/'),
    );
  const allClosed = async (requests: FiledRequest[]) => {
    for (const r of requests) if (!(await store.trackedRequests.get(r.id))?.closed) return false;
    return true;
  };

  test('50 requests decided at random moments: exactly 50 thread replies, one each; one instance polls each tick', async () => {
    const instances = await Promise.all([start(appIds[0]), start(appIds[1])]);
    // Both instances poll: whichever reads a first request is paused until the other has read it too
    // (which one wins a tick slot is a race that one of them may win every time on a busy machine).
    await file(0);
    const probeSince = sandbox.calls.length;
    const first = await waitFor('an instance polling', () => appIds.findIndex((id) => readsBy(id, probeSince).length > 0) + 1, 10_000);
    const paused = instances[first - 1]!;
    paused.kill('SIGSTOP');
    try {
      await waitFor('the other instance polling', () => readsBy(appIds[2 - first]!, probeSince).length > 0, 15_000);
    } finally {
      paused.kill('SIGCONT');
    }
    const requests: FiledRequest[] = [];
    for (let i = 0; i < 50; i++) requests.push(await file(i));
    const since = sandbox.calls.length;

    await Promise.all(
      requests.map(async (r, i) => {
        await sleep(Math.random() * 4_000);
        await (i % 3 === 0 ? reject(sandbox, r.id) : approve(sandbox, r.id));
      }),
    );
    await waitFor('every decision delivered', () => allClosed(requests), 20_000);

    expect(decisionPosts(slack.calls)).toHaveLength(50);
    for (const r of requests) expect(postsFor(r)).toHaveLength(1);
    for (const r of requests)
      expect(slack.thread(r.channel, r.rootTs).filter((m) => m.metadata?.event_type === 'pix_limit_decision')).toHaveLength(1);

    // One instance polls each tick (a slot a second): no request was read twice in one tick, by
    // either instance (the sandbox's own clock: two instances polling one slot would read it twice).
    for (const r of requests) {
      const perSecond = new Map<number, number>();
      for (const c of sandbox.calls.slice(since)) {
        if (c.path !== `/api/v1/limits/request/${r.id}`) continue;
        perSecond.set(Math.floor(c.at / 1000), (perSecond.get(Math.floor(c.at / 1000)) ?? 0) + 1);
      }
      expect(Math.max(0, ...perSecond.values())).toBeLessThanOrEqual(2); // a tick may straddle a second boundary
    }
  }, 60_000);

  test('kill -9 of the instance in the middle of its tick: the other one delivers every decision, once', async () => {
    const requests: FiledRequest[] = [];
    for (let i = 0; i < 20; i++) requests.push(await file(i));
    // Slow reads: a tick takes ~20 × 150 ms / 4 = 750 ms, so it is easy to catch one in flight.
    await api(sandbox, 'POST', '/sandbox/faults', { body: { latencyMs: 150 } });
    try {
      const since = sandbox.calls.length;
      const victimAppId = await waitFor('an instance polling', () => {
        const read = sandbox.calls.slice(since).find((c) => c.path.startsWith('/api/v1/limits/request/'));
        return read?.authorization;
      });
      const victim = running.find((p) => appIdOf.get(p) === victimAppId)!;
      const survivor = running.find((p) => p !== victim)!;
      // Its tick is under way: decide everything (some reads in flight now see the decision and
      // start delivering), then kill it once its first reply is posted, while it delivers the rest.
      const slackSince = slack.calls.length;
      await Promise.all(requests.map((r) => approve(sandbox, r.id)));
      await waitFor('the victim delivering', () => decisionPosts(slack.calls.slice(slackSince)).length > 0, 10_000);
      victim.kill('SIGKILL');
      const { signal } = await victim.exited;
      expect(signal).toBe('SIGKILL');
      const killedAt = sandbox.calls.length;
      const records = await Promise.all(requests.map((r) => store.trackedRequests.get(r.id)));
      const leftOpen = requests.filter((_, i) => !records[i]?.closed).map((r) => r.id);
      expect(leftOpen.length).toBeGreaterThan(0); // it really died with work to do

      await waitFor('every decision delivered by the survivor', () => allClosed(requests), 20_000);
      for (const r of requests) expect(postsFor(r)).toHaveLength(1);
      // The survivor took over work the victim left open: it read those requests after the kill (some
      // only needed their root updated and their record closed: the victim had posted the reply before
      // dying). Not necessarily all of `leftOpen`: a write the victim sent just before the kill can
      // reach Redis after the read above, closing a request the survivor then never has to touch.
      const survivorAppId = appIdOf.get(survivor)!;
      expect(survivorAppId).not.toBe(victimAppId);
      const readBySurvivor = new Set(readsBy(survivorAppId, killedAt).map((c) => c.path.split('/').pop()));
      expect(leftOpen.filter((id) => readBySurvivor.has(id)).length).toBeGreaterThan(0);
      expect(survivor.child.exitCode).toBeNull(); // still running
    } finally {
      await api(sandbox, 'DELETE', '/sandbox/faults');
    }
  }, 60_000);
});
