import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ALWAYS_APPROVED, type ApprovalAction } from '../../src/domain/approvals';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { openStore, type Store } from '../../src/store';
import { type AccountAnswer, type ApplicationAnswer, api, control } from '../sandbox/helpers';
import { type AppProcess, startAppProcess } from '../support/app-process';
import { type FlowSetup, makerFlows, processDriver } from '../support/approval-flows';
import { APPROVAL_WRITES, answerOn, clickRoot, type PendingRoot, rootUpdates } from '../support/approvals';
import { type Harness, messageText } from '../support/harness';
import { requestsOf } from '../support/limit-form';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { waitFor } from '../support/wait';

const SECRET = 'a'.repeat(40);
const OPERATOR = 'U0OPER001';
const ADMIN = 'U0ADMIN01';
const CHECKER_A = 'U0ADMIN02';
const CHECKER_B = 'U0ADMIN03';
const CHANNEL = 'C0APPROVALS';

/**
 * The write whose answer is held back in the kill test: it takes effect on the Pix side, and the app
 * is killed while it waits for the answer. For a campaign account, the account's creation (the
 * resumed approval then finds the account and creates only its application).
 */
const KILLED_AFTER: Record<ApprovalAction, { method: string; pathPrefix: string }> = {
  'limit-request': { method: 'POST', pathPrefix: '/api/v1/limits/request' },
  'key-add': { method: 'POST', pathPrefix: '/api/v1/pix-keys' },
  'key-delete': { method: 'DELETE', pathPrefix: '/api/v1/pix-keys/' },
  'withdraw-key': { method: 'POST', pathPrefix: '/api/v1/pix-keys/withdraw' },
  'account-create': { method: 'POST', pathPrefix: '/api/v1/account' },
  'rotate-secret': { method: 'POST', pathPrefix: '/api/v1/application/rotate-secret' },
  pay: { method: 'POST', pathPrefix: '/api/v1/payment' },
  withdraw: { method: 'POST', pathPrefix: '/api/v1/account/' },
};

/** Money out has its own suite on two instances (money-out-instances.test.ts): its roots and its resumption say more. */
const ACTIONS = (Object.keys(APPROVAL_WRITES) as ApprovalAction[]).filter((action) => !ALWAYS_APPROVED.has(action));

/**
 * Four-eyes approvals across instances: two app processes (`dist/src/main.js`, as `npm start` runs
 * it) on the shared Redis, one sandbox Pix API, one fake Slack. For each action, two checkers approving
 * at the same moment on the two instances make one set of Pix calls (the second is told who approved
 * first); and an instance killed (SIGKILL) after the Pix write and before the root update makes no
 * second write: on restart the approval is resumed from the Pix side and its root updated.
 */
describe('four-eyes approvals on two instances sharing Redis (127.0.0.1:6379)', () => {
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  let store: Store;
  let cwd: string;
  const namespace = testNamespace('approvals');
  const running: AppProcess[] = [];
  let a: { proc: AppProcess; h: Harness };
  let b: { proc: AppProcess; h: Harness };
  let setup: FlowSetup;

  const start = async () => {
    const proc = await startAppProcess(
      {
        SLACK_API_URL: slack.apiUrl,
        PIX_API_URL: sandbox.url,
        PIX_APP_ID: sandbox.companies.main.mainAppId,
        PIX_MASTER_APP_ID: sandbox.companies.main.masterAppId,
        PIX_TIMEOUT_MS: '20000',
        STORE_URL: SHARED_REDIS_URL,
        STORE_SECRET: SECRET,
        STORE_NAMESPACE: namespace,
        POLL_SCHEDULE: '* * * * * *',
        POLL_CLAIM_TTL_MS: '1500',
        ACCESS_OPERATORS: OPERATOR,
        ACCESS_ADMINS: `${ADMIN},${CHECKER_A},${CHECKER_B}`,
        APPROVALS: ACTIONS.join(','),
        LOG_LEVEL: 'info',
      },
      { cwd },
    );
    running.push(proc);
    return { proc, h: processDriver(proc, slack, sandbox) };
  };

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    sandbox = await startSandbox({ port: 0 });
    cwd = mkdtempSync(path.join(tmpdir(), 'pix-ops-approvals-'));
    store = await openStore({ url: SHARED_REDIS_URL, secret: SECRET, namespace });
    const main = sandbox.companies.main;
    const madeElsewhere = async (name: string) => {
      const account = (await api<AccountAnswer>(sandbox, 'POST', '/api/v1/account', { appId: main.masterAppId })).json.account;
      const app = (
        await api<ApplicationAnswer>(sandbox, 'POST', '/api/v1/application', {
          appId: main.masterAppId,
          body: { accountId: account.accountId, application: { name, type: 'API' } },
        })
      ).json.application;
      return { accountId: account.accountId, appId: app.appID, clientId: app.clientId };
    };
    const campaign = await madeElsewhere('Keys');
    await store.accountApps.save({ ...campaign, name: 'Keys' });
    const rotated = await madeElsewhere('Rotated');
    await control(sandbox, 'POST', `/accounts/${main.defaultAccountId}/withdraw-key-api`, { enabled: true });
    setup = {
      channel: CHANNEL,
      operator: OPERATOR,
      admin: ADMIN,
      campaignAccountId: campaign.accountId,
      campaignAppId: campaign.appId,
      rotateClientId: rotated.clientId,
      accountId: main.defaultAccountId,
    };
    [a, b] = await Promise.all([start(), start()]);
  });

  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await store.close();
    await deleteKeys(SHARED_REDIS_URL, namespace);
    await sandbox.close();
    await slack.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  const writesSince = (since: number) =>
    sandbox.calls
      .slice(since)
      .filter((c) => c.method !== 'GET')
      .map((c) => `${c.method} ${c.path}`.replace(/^DELETE \/api\/v1\/pix-keys\/.+$/, 'DELETE /api/v1/pix-keys/'));
  const settled = (root: PendingRoot, timeoutMs = 20_000) =>
    waitFor(
      `approval ${root.id} settled`,
      async () => {
        const r = await store.approvals.get(root.id);
        return r?.settled ? r : undefined;
      },
      timeoutMs,
    );
  /** The maker's flow on instance A, to the pending root (recorded). */
  const ask = async (action: ApprovalAction) => {
    const asked = await makerFlows(a.h, setup)[action]();
    await asked.shown();
    return asked.root;
  };
  /** A limit request filed by a test leaves the account free for the next one. */
  const freeTheAccount = async (action: ApprovalAction) => {
    if (action !== 'limit-request') return;
    for (const r of await requestsOf(sandbox, setup.accountId))
      if (r.status === 'IN_REVIEW') await control(sandbox, 'POST', `/limit-requests/${r.id}/reject`);
  };

  test.each(ACTIONS)(
    '%s: two checkers approve at the same moment on two instances: one set of Pix calls; the second is told who approved first',
    async (action) => {
      const root = await ask(action);
      const since = sandbox.calls.length;
      const [clickA, clickB] = await Promise.all([
        clickRoot(a.h, CHECKER_A, root, 'approval_approve'),
        clickRoot(b.h, CHECKER_B, root, 'approval_approve'),
      ]);
      const record = await settled(root);
      expect(record.state).toBe('done');
      expect(writesSince(since)).toEqual(APPROVAL_WRITES[action]);
      const winner = record.checkerId!;
      expect([CHECKER_A, CHECKER_B]).toContain(winner);
      const [winnerClick, loserClick] = winner === CHECKER_A ? [clickA, clickB] : [clickB, clickA];
      expect(messageText(await answerOn({ slack }, loserClick.responseId))).toContain(`Already approved by <@${winner}>`);
      expect(slack.responsesTo(winnerClick.responseId)).toEqual([]);
      expect(messageText(rootUpdates({ slack }, root).at(-1)!.args)).toContain(action === 'limit-request' ? 'Filed once' : 'and done');
      await freeTheAccount(action);
    },
    60_000,
  );

  test.each(ACTIONS)(
    '%s: kill -9 after the Pix write, before the root update: no second write on restart; the approval ends and its root says so',
    async (action) => {
      const root = await ask(action);
      const since = sandbox.calls.length;
      const rule = KILLED_AFTER[action];
      // The write takes effect, and its answer is held back long enough to kill the instance waiting for it.
      await control(sandbox, 'POST', '/faults', { lateAnswer: { ...rule, count: 1, ms: 15_000 } });
      try {
        await clickRoot(a.h, CHECKER_A, root, 'approval_approve');
        await waitFor(
          'the write made',
          () => sandbox.calls.slice(since).some((c) => c.method === rule.method && c.path.startsWith(rule.pathPrefix)),
          20_000,
        );
        const before = await store.approvals.get(root.id);
        expect(before).toMatchObject({ state: 'approving', checkerId: CHECKER_A });
        expect(before?.intent).toBeDefined();
        a.proc.kill('SIGKILL');
        expect((await a.proc.exited).signal).toBe('SIGKILL');
      } finally {
        await control(sandbox, 'DELETE', '/faults');
      }
      // The restart (and the other instance): whoever takes the approval once its claim lapses resumes it.
      a = await start();
      const record = await settled(root, 30_000);
      expect(writesSince(since)).toEqual(APPROVAL_WRITES[action]);
      // A rotation cannot be seen on the Pix side: not made again, and said so.
      expect(record.state).toBe(action === 'rotate-secret' ? 'failed' : 'done');
      // The resumption is the checker's approval running: recorded as theirs, with the maker.
      const resumed = await waitFor('the resumption in the audit trail', async () =>
        (await store.audit.page({ since: new Date(0), limit: 1_000 })).find(
          (e) => e.action === 'approval:resume' && e.target?.includes(`approval:${root.id}`) && !e.pixMethod,
        ),
      );
      expect(resumed).toMatchObject({
        user: CHECKER_A,
        maker: record.makerId,
        checker: CHECKER_A,
        outcome: action === 'rotate-secret' ? 'failed' : 'approved',
      });
      const final = messageText(rootUpdates({ slack }, root).at(-1)!.args);
      expect(final).toContain(
        action === 'rotate-secret' ? 'but it did not go through' : action === 'limit-request' ? 'Filed once' : 'and done',
      );
      await freeTheAccount(action);
    },
    90_000,
  );
});
