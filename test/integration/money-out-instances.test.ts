import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { saoPauloDay } from '../../src/payments/day-limit';
import { type MoneyOutRecord, moneyOutRecords } from '../../src/payments/records';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import type { SandboxCall } from '../../src/sandbox/context';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { openStore, type Store } from '../../src/store';
import { type AccountAnswer, type ApplicationAnswer, api, control } from '../sandbox/helpers';
import { type AppProcess, startAppProcess } from '../support/app-process';
import { type FlowSetup, makerFlows, processDriver } from '../support/approval-flows';
import { answerOn, clickRoot, type PendingRoot, pendingRoot } from '../support/approvals';
import { type Harness, messageText } from '../support/harness';
import { dropSchema, PG_URL, pgNamespace } from '../support/postgres';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { waitFor } from '../support/wait';

const SECRET = 'm'.repeat(40);
const OPERATOR = 'U0OPER001';
const CHECKER_A = 'U0OPER002';
const CHECKER_B = 'U0OPER003';
const CHANNEL = 'C0PAYMENTS';
/** PAY_DAY_LIMIT of every instance: R$ 5,000.00. */
const DAY_LIMIT = 500_000;
const PAY_WRITES = ['POST /api/v1/payment', 'POST /api/v1/payment/approve'];

/** The shared stores several instances run on: each has its own namespace (a key prefix, a schema). */
const BACKENDS = [
  {
    name: 'Redis (127.0.0.1:6379)',
    url: SHARED_REDIS_URL,
    namespace: testNamespace('money-out'),
    clean: (namespace: string) => deleteKeys(SHARED_REDIS_URL, namespace),
  },
  { name: 'PostgreSQL (127.0.0.1:5432)', url: PG_URL, namespace: pgNamespace('money_out'), clean: dropSchema },
];

/**
 * Money out across instances: two app processes (`dist/src/main.js`) on a shared store, one sandbox
 * Pix API, one fake Slack. Payments are asked with `/pix pay` on one instance, and approved on
 * either. Two checkers racing the last approval make one creation and one approve; an
 * instance killed (SIGKILL) between the service's two calls, or in the approve, is taken up by
 * another within 90 s, which approves once and never uses a second correlationID; two approvals
 * racing the day's limit cannot both pass it; a withdraw whose instance died mid-call is not sent again.
 */
describe.each(BACKENDS)('money out on two instances sharing $name', ({ url, namespace, clean }) => {
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  let store: Store;
  let cwd: string;
  let setup: FlowSetup;
  const running: AppProcess[] = [];
  let a: { proc: AppProcess; h: Harness };
  let b: { proc: AppProcess; h: Harness };
  let campaign: { accountId: string; appId: string };

  /** What every instance shares: the store, the access lists, the day's limit. */
  const shared = () => ({
    SLACK_API_URL: slack.apiUrl,
    STORE_URL: url,
    STORE_SECRET: SECRET,
    STORE_NAMESPACE: namespace,
    ACCESS_OPERATORS: `${OPERATOR},${CHECKER_A},${CHECKER_B}`,
    PAY_DAY_LIMIT: '5.000,00',
  });

  const start = async () => {
    const proc = await startAppProcess(
      {
        ...shared(),
        PIX_API_URL: sandbox.url,
        PIX_APP_ID: sandbox.companies.main.mainAppId,
        PIX_TIMEOUT_MS: '20000',
        POLL_SCHEDULE: '* * * * * *',
        POLL_CLAIM_TTL_MS: '1500',
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
    cwd = mkdtempSync(path.join(tmpdir(), 'pix-ops-money-out-'));
    store = await openStore({ url, secret: SECRET, namespace });
    // Settled only when a test moves the sandbox's clock: the settlement is another branch's.
    await control(sandbox, 'POST', '/payments/confirm-delay', { ms: 3_600_000 });
    const main = sandbox.companies.main;
    // A campaign account with its own application (stored), money, and a withdraw key the DICT has.
    const accountId = (await api<AccountAnswer>(sandbox, 'POST', '/api/v1/account', { appId: main.masterAppId })).json.account.accountId;
    const app = (
      await api<ApplicationAnswer>(sandbox, 'POST', '/api/v1/application', {
        appId: main.masterAppId,
        body: { accountId, application: { name: 'Campaign', type: 'API' } },
      })
    ).json.application;
    campaign = { accountId, appId: app.appID };
    await store.accountApps.save({ accountId, appId: app.appID, clientId: app.clientId, name: 'Campaign' });
    await control(sandbox, 'POST', `/accounts/${accountId}/transactions`, { type: 'CREDIT', value: 100_000 });
    await control(sandbox, 'POST', `/accounts/${accountId}/withdraw-key-api`, { enabled: true });
    await control(sandbox, 'POST', '/dict', { pixKey: 'saque@example.com', type: 'EMAIL', holderTaxId: main.taxId });
    await api(sandbox, 'POST', '/api/v1/pix-keys/withdraw', { appId: app.appID, body: { pixKey: 'saque@example.com' } });
    setup = {
      channel: CHANNEL,
      operator: OPERATOR,
      admin: OPERATOR,
      campaignAccountId: accountId,
      campaignAppId: app.appID,
      rotateClientId: 'unused',
      accountId: main.defaultAccountId,
    };
    [a, b] = await Promise.all([start(), start()]);
  });

  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await store.close();
    await clean(namespace);
    await sandbox.close();
    await slack.close();
    rmSync(cwd, { recursive: true, force: true });
  });
  afterEach(() => control(sandbox, 'DELETE', '/faults'));

  /** The writes to the service (the form's key check is a look-up, not one). */
  const writes = (since: number): SandboxCall[] =>
    sandbox.calls.slice(since).filter((c) => c.method !== 'GET' && c.path.startsWith('/api/v1/') && c.path !== '/api/v1/pix-keys/check');
  const writeLines = (since: number) => writes(since).map((c) => `${c.method} ${c.path}`);
  const moneyOut = (id: string) => moneyOutRecords(store.records).get(id);
  const stage = (id: string, wanted: MoneyOutRecord['stage'], timeoutMs = 20_000) =>
    waitFor(`money out ${id} ${wanted}`, async () => ((await moneyOut(id))?.stage === wanted ? moneyOut(id) : undefined), timeoutMs);
  const settled = (id: string, timeoutMs = 20_000) =>
    waitFor(
      `approval ${id} settled`,
      async () => {
        const r = await store.approvals.get(id);
        return r?.settled ? r : undefined;
      },
      timeoutMs,
    );
  /** `/pix pay` on instance A (whichever process it is now), to the pending root. */
  const ask = async (cents = 10_000): Promise<PendingRoot> => {
    const asked = await makerFlows(a.h, setup).pay({ value: (cents / 100).toFixed(2) });
    await asked.shown();
    return asked.root;
  };
  const paymentsWith = async (correlationID: string) => {
    const { payments } = (
      await api<{ payments: Array<{ payment: { correlationID: string; status: string } }> }>(sandbox, 'GET', '/api/v1/payment?limit=100', {
        appId: sandbox.companies.main.mainAppId,
      })
    ).json;
    return payments.filter((p) => p.payment.correlationID === correlationID);
  };

  test('two checkers approve at the same moment on two instances: one creation, one approve; the second is told who approved', async () => {
    const root = await ask();
    const since = sandbox.calls.length;
    const [clickA, clickB] = await Promise.all([
      clickRoot(a.h, CHECKER_A, root, 'approval_approve'),
      clickRoot(b.h, CHECKER_B, root, 'approval_approve'),
    ]);
    await stage(root.id, 'sent');
    const record = await settled(root.id);
    expect(writeLines(since)).toEqual(PAY_WRITES);
    const winner = record.checkerId!;
    const loserClick = winner === CHECKER_A ? clickB : clickA;
    expect(messageText(await answerOn({ slack }, loserClick.responseId))).toContain(`Already approved by <@${winner}>`);
    expect(await paymentsWith(root.id)).toHaveLength(1);
  });

  test.each([
    ['between the creation and the approve', '/api/v1/payment', 'create'],
    ['in the approve, after the service sent it', '/api/v1/payment/approve', 'approve'],
  ])(
    'kill -9 %s: another instance takes it up within 90 s, approves it once, with the one correlationID',
    async (_when, pathPrefix, intent) => {
      const root = await ask();
      const since = sandbox.calls.length;
      // The call takes effect, and its answer is held back long enough to kill the instance waiting for it.
      await control(sandbox, 'POST', '/faults', { lateAnswer: { method: 'POST', pathPrefix, count: 1, ms: 15_000 } });
      await clickRoot(a.h, CHECKER_A, root, 'approval_approve');
      await waitFor('the call made', () => sandbox.calls.slice(since).some((c) => c.method === 'POST' && c.path === pathPrefix), 20_000);
      expect((await store.approvals.get(root.id))?.intent?.step).toBe(intent);
      a.proc.kill('SIGKILL');
      const killedAt = Date.now();
      expect((await a.proc.exited).signal).toBe('SIGKILL');
      await control(sandbox, 'DELETE', '/faults');
      await stage(root.id, 'sent', 90_000);
      expect(Date.now() - killedAt).toBeLessThan(90_000);
      expect((await settled(root.id)).state).toBe('done');
      expect(writeLines(since)).toEqual(PAY_WRITES);
      const creations = writes(since).filter((c) => c.path === '/api/v1/payment');
      expect(creations.map((c) => (c.body as { correlationID: string }).correlationID)).toEqual([root.id]);
      const payments = await paymentsWith(root.id);
      expect(payments.map((p) => p.payment.status)).toEqual(['APPROVED']);
      a = await start();
    },
    120_000,
  );

  test('two approvals racing the day’s limit on two instances: one is sent; the other checker is told the total, the amount and the limit, and it stays pending', async () => {
    const day = saoPauloDay(new Date());
    const ledger = (await store.records.get('pay-day', day)) as { entries: Record<string, number> } | undefined;
    const total = Object.values(ledger?.entries ?? {}).reduce((x, y) => x + y, 0);
    // Each fits the day alone; both would pass it.
    const value = Math.floor(((DAY_LIMIT - total) * 0.6) / 100) * 100;
    const [first, second] = [await ask(value), await ask(value)];
    const since = sandbox.calls.length;
    const [clickA, clickB] = await Promise.all([
      clickRoot(a.h, CHECKER_A, first, 'approval_approve'),
      clickRoot(b.h, CHECKER_B, second, 'approval_approve'),
    ]);
    const sent = await waitFor('one of them sent', async () => {
      const [r1, r2] = await Promise.all([moneyOut(first.id), moneyOut(second.id)]);
      return r1?.stage === 'sent' ? first : r2?.stage === 'sent' ? second : undefined;
    });
    const [refusedRoot, refusedClick] = sent === first ? [second, clickB] : [first, clickA];
    const told = messageText(await answerOn({ slack }, refusedClick.responseId));
    expect(told).toContain('above the day’s limit of R$5,000.00');
    expect(told).toContain(`this one (R$${(value / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })})`);
    expect(told).toContain(`add up to R$${((total + value) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`);
    expect((await store.approvals.get(refusedRoot.id))?.state).toBe('pending');
    expect(await moneyOut(refusedRoot.id)).toBeUndefined();
    await settled(sent.id);
    expect(
      writes(since)
        .filter((c) => c.path === '/api/v1/payment')
        .map((c) => (c.body as { correlationID: string }).correlationID),
    ).toEqual([sent.id]);
  });

  test('a withdraw whose instance died in the call: not sent again by the one that takes it up; its outcome unknown', async () => {
    const from = slack.calls.length;
    const res = await a.h.slash(OPERATOR, `withdraw ${campaign.accountId} 300,00`, { channelId: CHANNEL });
    expect(messageText(await answerOn({ slack }, res.responseId))).toContain('is waiting for approval');
    const root = await pendingRoot({ slack }, from);
    const since = sandbox.calls.length;
    const pathPrefix = `/api/v1/account/${campaign.accountId}/withdraw`;
    await control(sandbox, 'POST', '/faults', { lateAnswer: { method: 'POST', pathPrefix, count: 1, ms: 15_000 } });
    await clickRoot(a.h, CHECKER_A, root, 'approval_approve');
    await waitFor('the withdraw made', () => sandbox.calls.slice(since).some((c) => c.path === pathPrefix), 20_000);
    a.proc.kill('SIGKILL');
    await a.proc.exited;
    await control(sandbox, 'DELETE', '/faults');
    const record = await stage(root.id, 'unknown', 90_000);
    expect(record?.balance?.available).toBe(70_000);
    expect(writeLines(since)).toEqual([`POST ${pathPrefix}`]);
    expect(writes(since)[0]).toMatchObject({ authorization: campaign.appId, body: { value: 30_000 } });
    a = await start();
  }, 120_000);
});
