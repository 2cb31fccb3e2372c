import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebClient } from '@slack/web-api';
import type { RunningApp } from '../../src/app';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { type SlackApiCall, SlackStandIn } from '../../src/slack-standin/web-api';
import { openStore, type Store } from '../../src/store';
import { schemaOf } from '../../src/store/postgres/db';
import { loadMigrations } from '../../src/store/postgres/migrate';
import { type AccountAnswer, type ApplicationAnswer, api } from '../sandbox/helpers';
import { type AppProcess, MAIN, startAppProcess } from '../support/app-process';
import { makerFlows, processDriver } from '../support/approval-flows';
import { APPROVAL_WRITES, answerOn, clickRoot } from '../support/approvals';
import { BOT_TOKEN, type Harness, messageText, SIGNING_SECRET } from '../support/harness';
import { approve, type FiledRequest, fileTrackedRequest, reject } from '../support/limit-requests';
import { dropSchema, PG_URL, pgNamespace, pgQuery } from '../support/postgres';
import { waitFor } from '../support/wait';

const SECRET = 'g'.repeat(40);
const OPERATOR = 'U0PGOPER1';
const CHECKERS = ['U0PGCHK01', 'U0PGCHK02', 'U0PGCHK03'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Three app processes (`dist/src/main.js`, as `npm start` runs it) on one PostgreSQL database (a
 * schema of this run's own), one sandbox Pix API and one fake Slack, each instance polling with an
 * AppID of its own so the sandbox's call log tells which one read what. Every decision and every
 * approval is done exactly once among them; one killed with SIGKILL loses nothing.
 */
describe('several instances on one Postgres (127.0.0.1:5432)', () => {
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  let store: Store;
  let cwd: string;
  const namespace = pgNamespace('instances');
  const running: AppProcess[] = [];
  const appIdOf = new Map<AppProcess, string>();
  let appIds: string[];
  let keysAccount: string;

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    sandbox = await startSandbox({ port: 0 });
    cwd = mkdtempSync(path.join(tmpdir(), 'pix-ops-pg-instances-'));
    const main = sandbox.companies.main;
    const application = async (accountId: string, name: string) =>
      (
        await api<ApplicationAnswer>(sandbox, 'POST', '/api/v1/application', {
          appId: main.masterAppId,
          body: { accountId, application: { name, type: 'API' } },
        })
      ).json.application;
    appIds = [main.mainAppId];
    for (const name of ['second instance', 'third instance']) appIds.push((await application(main.defaultAccountId, name)).appID);
    // The test's own view of the shared store: requests tracked as the bot would have, an account's AppID.
    store = await openStore({ url: PG_URL, secret: SECRET, namespace, poolMax: 4 });
    keysAccount = (await api<AccountAnswer>(sandbox, 'POST', '/api/v1/account', { appId: main.masterAppId })).json.account.accountId;
    const keysApp = await application(keysAccount, 'Keys');
    await store.accountApps.save({ accountId: keysAccount, appId: keysApp.appID, clientId: keysApp.clientId, name: 'Keys' });
  });

  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await store.close();
    await dropSchema(namespace);
    await sandbox.close();
    await slack.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  const env = (appId: string, extra: Record<string, string> = {}) => ({
    SLACK_API_URL: slack.apiUrl,
    PIX_API_URL: sandbox.url,
    PIX_APP_ID: appId,
    PIX_MASTER_APP_ID: sandbox.companies.main.masterAppId,
    PIX_TIMEOUT_MS: '5000',
    STORE_URL: PG_URL,
    STORE_SECRET: SECRET,
    STORE_NAMESPACE: namespace,
    STORE_POOL_MAX: '4',
    POLL_SCHEDULE: '* * * * * *',
    POLL_CONCURRENCY: '4',
    POLL_CLAIM_TTL_MS: '2000',
    ACCESS_OPERATORS: OPERATOR,
    ACCESS_ADMINS: CHECKERS.join(','),
    APPROVALS: 'key-add',
    LOG_LEVEL: 'info',
    ...extra,
  });
  const start = (appId: string) =>
    startAppProcess(env(appId), { cwd }).then((p) => {
      running.push(p);
      appIdOf.set(p, appId);
      return p;
    });

  /** A request filed in the sandbox, its root posted and tracked in the shared store; in one of ten channels (Slack's pace per channel). */
  const file = (i: number) =>
    fileTrackedRequest(
      {
        sandbox,
        app: { deps: { slack: { retried: new WebClient(BOT_TOKEN, { slackApiUrl: slack.apiUrl }) }, store } } as unknown as RunningApp,
      },
      { channel: `C0PGSHRD${i % 10}` },
    );
  const decisionPosts = (calls: SlackApiCall[]) =>
    calls.filter(
      (c) =>
        c.method === 'chat.postMessage' &&
        c.args.thread_ts &&
        (c.args.metadata as { event_type?: string } | undefined)?.event_type === 'pix_limit_decision',
    );
  const postsFor = (r: FiledRequest) =>
    decisionPosts(slack.calls).filter((c) => c.args.thread_ts === r.rootTs && c.args.channel === r.channel);
  const allClosed = async (requests: FiledRequest[]) => {
    for (const r of requests) if (!(await store.trackedRequests.get(r.id))?.closed) return false;
    return true;
  };
  const readsBy = (appId: string, since: number) =>
    sandbox.calls.filter(
      (c, i) => i >= since && c.authorization === appId && c.method === 'GET' && c.path.startsWith('/api/v1/limits/request/'),
    );

  test('three instances start at once on an empty schema; 30 requests decided at random moments: one thread reply each', async () => {
    const instances = await Promise.all(appIds.map((id) => start(id)));
    expect(instances).toHaveLength(3);
    const [migrated] = await pgQuery<{ n: string }>(`SELECT count(*) AS n FROM "${schemaOf(namespace)}".schema_migrations`);
    expect(Number(migrated!.n)).toBe(loadMigrations().length);
    const requests: FiledRequest[] = [];
    for (let i = 0; i < 30; i++) requests.push(await file(i));
    await Promise.all(
      requests.map(async (r, i) => {
        await sleep(Math.random() * 3_000);
        await (i % 3 === 0 ? reject(sandbox, r.id) : approve(sandbox, r.id));
      }),
    );
    await waitFor('every decision delivered', () => allClosed(requests), 25_000);
    expect(decisionPosts(slack.calls)).toHaveLength(30);
    for (const r of requests) expect(postsFor(r)).toHaveLength(1);
  }, 60_000);

  test('three checkers approve at the same moment on three instances: one set of Pix calls; the others told who approved first', async () => {
    const h = running.map((p) => processDriver(p, slack, sandbox)) as [Harness, Harness, Harness];
    const setup = {
      channel: 'C0PGAPPRV',
      operator: OPERATOR,
      admin: CHECKERS[0]!,
      campaignAccountId: keysAccount,
      campaignAppId: '',
      rotateClientId: '',
      accountId: sandbox.companies.main.defaultAccountId,
    };
    const asked = await makerFlows(h[0], setup)['key-add']();
    await asked.shown();
    const since = sandbox.calls.length;
    const clicks = await Promise.all(h.map((driver, i) => clickRoot(driver, CHECKERS[i]!, asked.root, 'approval_approve')));
    const record = await waitFor(
      'the approval settled',
      async () => {
        const r = await store.approvals.get(asked.root.id);
        return r?.settled ? r : undefined;
      },
      20_000,
    );
    expect(record.state).toBe('done');
    expect(
      sandbox.calls
        .slice(since)
        .filter((c) => c.method !== 'GET')
        .map((c) => `${c.method} ${c.path}`),
    ).toEqual(APPROVAL_WRITES['key-add']);
    const winner = record.checkerId!;
    for (const [i, click] of clicks.entries()) {
      if (CHECKERS[i] === winner) expect(slack.responsesTo(click.responseId)).toEqual([]);
      else expect(messageText(await answerOn({ slack }, click.responseId))).toContain(`Already approved by <@${winner}>`);
    }
  }, 60_000);

  test('kill -9 of the instance in the middle of its tick: the others deliver every decision, once', async () => {
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
      const victim = running.find((p) => appIdOf.get(p) === victimAppId && p.child.exitCode === null)!;
      const slackSince = slack.calls.length;
      await Promise.all(requests.map((r) => approve(sandbox, r.id)));
      await waitFor('the victim delivering', () => decisionPosts(slack.calls.slice(slackSince)).length > 0, 10_000);
      victim.kill('SIGKILL');
      expect((await victim.exited).signal).toBe('SIGKILL');
      const killedAt = sandbox.calls.length;
      const records = await Promise.all(requests.map((r) => store.trackedRequests.get(r.id)));
      const leftOpen = requests.filter((_, i) => !records[i]?.closed).map((r) => r.id);
      expect(leftOpen.length).toBeGreaterThan(0); // it really died with work to do

      await waitFor('every decision delivered by the others', () => allClosed(requests), 25_000);
      for (const r of requests) expect(postsFor(r)).toHaveLength(1);
      const survivors = running.filter((p) => p !== victim && p.child.exitCode === null);
      expect(survivors).toHaveLength(2);
      const readAfter = new Set(survivors.flatMap((p) => readsBy(appIdOf.get(p)!, killedAt).map((c) => c.path.split('/').pop())));
      expect(leftOpen.filter((id) => readAfter.has(id)).length).toBeGreaterThan(0);
    } finally {
      await api(sandbox, 'DELETE', '/sandbox/faults');
    }
  }, 60_000);

  test('an app that finds the schema at a newer version exits 1, naming both versions, and changes nothing', async () => {
    const other = pgNamespace('newer');
    const schema = schemaOf(other);
    const known = loadMigrations().length;
    try {
      await pgQuery(`CREATE SCHEMA "${schema}"`);
      await pgQuery(
        `CREATE TABLE "${schema}".schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      await pgQuery(`INSERT INTO "${schema}".schema_migrations (version, name) VALUES ($1, 'newer')`, [known + 6]);
      const child = spawn(process.execPath, [MAIN], {
        cwd,
        env: {
          PATH: process.env.PATH ?? '',
          SLACK_BOT_TOKEN: BOT_TOKEN,
          SLACK_SIGNING_SECRET: SIGNING_SECRET,
          PORT: '0',
          ...env(appIds[0]!, { STORE_NAMESPACE: other }),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(1);
      expect(stderr).toContain(`version ${known + 6}`);
      expect(stderr).toContain(`(version ${known})`);
      expect(stderr).toContain('STORE_URL');
      const tables = await pgQuery<{ t: string }>('SELECT tablename AS t FROM pg_tables WHERE schemaname = $1', [schema]);
      expect(tables.map((t) => t.t)).toEqual(['schema_migrations']);
    } finally {
      await dropSchema(other);
    }
  });
});
