import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { moneyOutRecords } from '../../src/payments/records';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { sandboxApi } from '../support/accounts-harness';
import { makerFlows } from '../support/approval-flows';
import { clickRoot, threadPosts } from '../support/approvals';
import { type Harness, harnessEnv, messageText, poster, sendSlash, startLoggedApp } from '../support/harness';
import { receiverUrl, sendWebhook, signWith } from '../support/pix-events';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { waitFor } from '../support/wait';

const SECRET = 's'.repeat(40);
const CHANNEL = 'C0PAYMENTS';
const OPERATOR = 'U0PAYMAKER';
const CHECKER = 'U0PAYCHECK';
const CONFIRM_DELAY_MS = 60 * 60_000;

/**
 * A payment's end on two instances sharing Redis: the service's webhook delivered to one, the same
 * end delivered to the other, and both pollers reading it at once — one reply in the thread, one
 * audit entry, the record ended once.
 */
describe('a payment’s end on two instances sharing Redis (127.0.0.1:6379)', () => {
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  const namespace = testNamespace('payment-ends');
  const dirs: string[] = [];
  const apps: Harness[] = [];

  const start = async (): Promise<Harness> => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pix-ops-pay-ends-'));
    dirs.push(dataDir);
    const { app, logs } = await startLoggedApp(
      harnessEnv(
        { slack, sandbox, dataDir },
        {
          STORE_URL: SHARED_REDIS_URL,
          STORE_SECRET: SECRET,
          STORE_NAMESPACE: namespace,
          PIX_EVENTS_CHANNEL: 'C0PIXEVENTS',
          ACCESS_OPERATORS: `${OPERATOR},${CHECKER}`,
        },
      ),
    );
    const eventsUrl = `http://127.0.0.1:${app.port}/slack/events`;
    const post = poster(eventsUrl, slack);
    let n = 0;
    const h = {
      app,
      slack,
      sandbox,
      logs,
      dataDir,
      eventsUrl,
      post,
      slash: (userId: string, text: string, opts = {}) => sendSlash(post, slack, userId, text, opts, `${path.basename(dataDir)}-${++n}`),
      close: () => app.stop(),
    } as Harness;
    apps.push(h);
    return h;
  };

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    sandbox = await startSandbox({ port: 0 });
    await sandboxApi({ sandbox } as Harness, 'POST', '/sandbox/payments/confirm-delay', undefined, { ms: CONFIRM_DELAY_MS });
  });

  afterAll(async () => {
    await Promise.all(apps.map((h) => h.close()));
    await deleteKeys(SHARED_REDIS_URL, namespace);
    await sandbox.close();
    await slack.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('webhook to one, the same end to the other, both polls at once: one reply, one audit entry', async () => {
    const a = await start();
    const b = await start();
    const account = sandbox.companies.main.defaultAccountId;
    const flows = makerFlows(a, {
      channel: CHANNEL,
      operator: OPERATOR,
      admin: OPERATOR,
      campaignAccountId: account,
      campaignAppId: sandbox.companies.main.mainAppId,
      rotateClientId: 'unused',
      accountId: account,
    });
    const asked = await flows.pay({ value: '43.21' });
    await asked.shown();
    await clickRoot(a, CHECKER, asked.root, 'approval_approve');
    const records = moneyOutRecords(a.app.deps.store.records);
    await waitFor('the payment sent', async () => (await records.get(asked.root.id))?.stage === 'sent', 10_000);

    // The service's own delivery goes to A; B is sent the same end, signed by the service, as a second delivery would be.
    sandbox.webhooks.setTarget(receiverUrl(a));
    await sandboxApi(a, 'POST', '/sandbox/clock', undefined, { advanceMs: CONFIRM_DELAY_MS + 1_000 });
    const body = JSON.stringify({
      event: 'OPENPIX:MOVEMENT_CONFIRMED',
      payment: { value: 4_321, status: 'CONFIRMED', correlationID: asked.root.id },
      transaction: { value: 4_321, endToEndId: 'E00000000202612050000abcdef12345', time: new Date().toISOString() },
    });
    const [toB] = await Promise.all([
      sendWebhook(receiverUrl(b), body, signWith(await sandbox.webhooks.currentPrivateKey(), body)),
      a.app.poller.tick(),
      b.app.poller.tick(),
    ]);
    expect(toB.status).toBe(200);
    const isEnd = (c: { args: Record<string, unknown> }) =>
      (c.args.metadata as { event_payload?: { notice?: string } } | undefined)?.event_payload?.notice === 'payment-end';
    await waitFor('the reply', () => threadPosts(a, asked.root).some(isEnd), 10_000);
    await waitFor('both outboxes drained', async () => (await a.app.deps.store.pixEvents.pending()).length === 0, 10_000);
    await Promise.all([a.app.poller.tick(), b.app.poller.tick()]);
    const replies = threadPosts(a, asked.root).filter(isEnd);
    expect(replies).toHaveLength(1);
    expect(messageText(replies[0]!.args)).toContain('Payment confirmed');
    const record = (await records.get(asked.root.id))!;
    expect(record).toMatchObject({ stage: 'confirmed', replied: true });
    const audits = (await a.app.deps.store.audit.page({ since: new Date(0), limit: 1_000 })).filter(
      (e) => e.action === 'payment:confirmed' && e.target?.includes(asked.root.id),
    );
    expect(audits).toHaveLength(1);
  });
});
