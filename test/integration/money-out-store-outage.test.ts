import { Client } from 'pg';
import { saoPauloDay } from '../../src/payments/day-limit';
import { dayLimitOf, moneyOutRecordOf } from '../../src/payments/money-out';
import type { SandboxCall } from '../../src/sandbox/context';
import { schemaOf } from '../../src/store/postgres/db';
import { accountMadeElsewhere, sandboxApi, startHarnessWithMaster } from '../support/accounts-harness';
import { paymentFlows } from '../support/approval-flows';
import { answerOn, clickRoot, type PendingRoot, pendingRoot, rootUpdates, threadPosts } from '../support/approvals';
import { type Harness, messageText } from '../support/harness';
import { dropSchema, PG_URL, pgNamespace } from '../support/postgres';
import { TcpProxy } from '../support/tcp-proxy';
import { deliveriesDone, waitFor } from '../support/wait';

const OPERATOR = 'U0OPER001';
const CHECKER = 'U0OPER002';
const CHANNEL = 'C0PAYMENTS';
const CLAIM_TTL_MS = 1_500;

/**
 * Money out with the database gone mid-flow: the app on PostgreSQL through a TCP proxy the test cuts
 * and restores (the database itself untouched), or one write timing out on a lock another client holds.
 * Whatever moment the store fails — at the click, between the payment's creation and its approve, in
 * the middle of a withdraw — nothing is sent that cannot be recorded first, nothing is lost once the
 * store answers again (the run is left `approving`, as after a crash, for the tick), and nothing is
 * sent twice: counted on the wire, by path and correlationID at the sandbox and by post in Slack.
 */
describe('money out while the store (PostgreSQL) fails mid-flow', () => {
  const namespace = pgNamespace('money-out-outage');
  let proxy: TcpProxy;
  let h: Harness;
  let flows: ReturnType<typeof paymentFlows>;

  beforeAll(async () => {
    proxy = await TcpProxy.start({ host: '127.0.0.1', port: 5432 });
    h = await startHarnessWithMaster({
      STORE_URL: `postgres://postgres@127.0.0.1:${proxy.port}/test`,
      STORE_SECRET: 's'.repeat(40),
      STORE_NAMESPACE: namespace,
      STORE_POOL_MAX: '4',
      STORE_TIMEOUT_MS: '1000',
      ACCESS_OPERATORS: `${OPERATOR},${CHECKER}`,
      // An approval left `approving` is resumed by the next tick once its claim lapsed.
      POLL_SCHEDULE: '* * * * * *',
      POLL_CLAIM_TTL_MS: String(CLAIM_TTL_MS),
    });
    // No settlement while a test runs: only the sending is under test here.
    await sandboxApi(h, 'POST', '/sandbox/payments/confirm-delay', undefined, { ms: 3_600_000 });
    flows = paymentFlows(h, { channel: CHANNEL, operator: OPERATOR });
  });
  afterAll(async () => {
    proxy.restore();
    await h.close();
    await proxy.close();
    await dropSchema(namespace);
  });
  afterEach(async () => {
    proxy.restore();
    await sandboxApi(h, 'DELETE', '/sandbox/faults');
  });

  /** The sandbox's writes after `since` to one path (a creation, an approve, a withdraw). */
  const writesTo = (since: number, path: string): SandboxCall[] =>
    h.sandbox.calls.slice(since).filter((c) => c.method === 'POST' && c.path === path);
  const correlationIDs = (calls: SandboxCall[]) => calls.map((c) => (c.body as { correlationID?: string }).correlationID);
  /** Every money-out write the sandbox received after `since` (the form's key check is a look-up, not one). */
  const moneyWrites = (since: number) =>
    h.sandbox.calls
      .slice(since)
      .filter((c) => c.method === 'POST' && (c.path.startsWith('/api/v1/payment') || /^\/api\/v1\/account\/[^/]+\/withdraw$/.test(c.path)));
  const approval = (id: string) => h.app.deps.store.approvals.get(id);
  const settled = (id: string) =>
    waitFor(
      `approval ${id} settled`,
      async () => ((await approval(id).catch(() => undefined))?.settled ? approval(id) : undefined),
      15_000,
    );
  /** What a click was told. */
  const answerTo = async (click: { responseId: string }) => messageText(await answerOn(h, click.responseId));
  /**
   * A click whose run was cut short by the store after a write was made: its delivery over, and what the
   * checker was told (never that nothing was done: the root, already showing it running, says the rest).
   */
  const clickCutShort = async (root: PendingRoot, made: () => unknown) => {
    const taken = h.app.inFlight.total;
    const click = await clickRoot(h, CHECKER, root, 'approval_approve');
    await waitFor('the write at the service', made);
    proxy.cut();
    await deliveriesDone(h.app, taken + 1, 10_000);
    return h.slack.responsesTo(click.responseId).map((r) => messageText(r.body));
  };
  let campaigns = 0;
  /** A campaign account made elsewhere (its AppID stored), 1,000.00 in it, a withdraw key of its own; a withdraw of 250.00 from it asked. */
  const askWithdraw = async () => {
    const name = `Campaign outage ${++campaigns}`;
    const made = await accountMadeElsewhere(h, name);
    await h.app.deps.store.accountApps.save({ ...made, name });
    await sandboxApi(h, 'POST', `/sandbox/accounts/${made.accountId}/transactions`, undefined, { type: 'CREDIT', value: 100_000 });
    await sandboxApi(h, 'POST', `/sandbox/accounts/${made.accountId}/withdraw-key-api`, undefined, { enabled: true });
    const key = `saque-outage-${campaigns}@example.com`;
    await sandboxApi(h, 'POST', '/sandbox/dict', undefined, { pixKey: key, type: 'EMAIL', holderTaxId: h.sandbox.companies.main.taxId });
    await sandboxApi(h, 'POST', '/api/v1/pix-keys/withdraw', made.appId, { pixKey: key });
    const from = h.slack.calls.length;
    const res = await h.slash(OPERATOR, `withdraw ${made.accountId} 250,00`, { channelId: CHANNEL });
    // Its root recorded (the maker told it waits), before any test cuts the store away.
    expect(messageText(await answerOn(h, res.responseId))).toContain('is waiting for approval');
    return { root: await pendingRoot(h, from), withdrawPath: `/api/v1/account/${made.accountId}/withdraw` };
  };
  /** Another client of the database, holding a lock in an open transaction while the app works. */
  const otherClient = async () => {
    const client = new Client({ connectionString: PG_URL });
    await client.connect();
    await client.query('BEGIN');
    /** The start of each statement of this test's schema now waiting for a lock. */
    const waiting = async () =>
      (
        await client.query<{ started: Date }>(
          "SELECT query_start AS started FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND position($1 in query) > 0",
          [schemaOf(namespace)],
        )
      ).rows.map((r) => r.started.getTime());
    return {
      query: (sql: string, params: unknown[]) => client.query(sql, params),
      /** Waits for one of the app's statements to wait for the lock, then to fail (STORE_TIMEOUT_MS), and lets go of the lock. */
      async outlastOneWrite(what: string) {
        const first = (await waitFor(`${what} waiting for the lock`, async () => (await waiting())[0], 5_000))!;
        await waitFor(`${what} to fail (its time limit)`, async () => !(await waiting()).includes(first), 5_000);
        await client.query('ROLLBACK');
      },
      end: () => client.end(),
    };
  };
  const ask = async () => {
    const asked = await flows.pay();
    await asked.shown();
    return asked.root;
  };
  const sentReplies = (root: PendingRoot, from: number) =>
    threadPosts(h, root, from).filter((c) => messageText(c.args).includes('Sent to'));
  /** The payment done and sent once since `since`: one creation and one approve, both with its correlationID, and one “sent” reply. */
  const sentOnce = async (root: PendingRoot, since: number, slackSince: number) => {
    expect((await settled(root.id))?.state).toBe('done');
    expect(correlationIDs(writesTo(since, '/api/v1/payment'))).toEqual([root.id]);
    expect(correlationIDs(writesTo(since, '/api/v1/payment/approve'))).toEqual([root.id]);
    expect((await moneyOutRecordOf(h.app.deps, root.id))?.stage).toBe('sent');
    await waitFor('the sent reply', () => sentReplies(root, slackSince)[0]);
    expect(sentReplies(root, slackSince)).toHaveLength(1);
  };

  test('cut at the checker’s click: told the storage is unavailable, nothing reaches the payment endpoints; restored, still pending, and a click sends it once', async () => {
    const root = await ask();
    const since = h.sandbox.calls.length;
    const slackSince = h.slack.calls.length;

    proxy.cut();
    const click = await clickRoot(h, CHECKER, root, 'approval_approve');
    expect(await answerTo(click)).toContain('storage is unavailable');
    expect(moneyWrites(since)).toEqual([]);
    proxy.restore();

    // Nothing was recorded of the click: the approval waits as it did, and nothing was sent meanwhile.
    await waitFor('the store back', () => approval(root.id).catch(() => undefined), 10_000);
    expect((await approval(root.id))?.state).toBe('pending');
    expect(await moneyOutRecordOf(h.app.deps, root.id)).toBeUndefined();
    expect(moneyWrites(since)).toEqual([]);

    await clickRoot(h, CHECKER, root, 'approval_approve');
    await sentOnce(root, since, slackSince);
  }, 30_000);

  test('cut between the creation and the approve: the approve is not sent while its intent cannot be recorded; restored, the tick approves it once, same correlationID, one “sent” reply', async () => {
    const root = await ask();
    // The creation is made at the service, and its answer held back while the store is cut away.
    await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
      lateAnswer: { count: 1, method: 'POST', pathPrefix: '/api/v1/payment', ms: 1_000 },
    });
    const since = h.sandbox.calls.length;
    const slackSince = h.slack.calls.length;
    // The creation's answer comes back; the intent of the approve cannot be written: the run stops.
    const told = await clickCutShort(root, () => writesTo(since, '/api/v1/payment')[0]);
    expect(told.join('\n')).not.toContain('nothing was done');
    expect(writesTo(since, '/api/v1/payment/approve')).toEqual([]);
    // A tick comes and goes while the store is away: still nothing more sent.
    const mark = h.logs.length;
    await waitFor('a tick skipped for the store', () => h.logs.slice(mark).some((l) => l.includes('poll tick skipped')), 5_000);
    expect(writesTo(since, '/api/v1/payment/approve')).toEqual([]);
    proxy.restore();

    // Its claim lapses, and the tick resumes it: the payment read (CREATED), then approved once.
    expect((await settled(root.id))?.state).toBe('done');
    expect(correlationIDs(writesTo(since, '/api/v1/payment'))).toEqual([root.id]);
    expect(correlationIDs(writesTo(since, '/api/v1/payment/approve'))).toEqual([root.id]);
    expect(h.sandbox.calls.slice(since).some((c) => c.method === 'GET' && c.path === `/api/v1/payment/${root.id}`)).toBe(true);
    expect((await moneyOutRecordOf(h.app.deps, root.id))?.stage).toBe('sent');
    await waitFor('the sent reply', () => sentReplies(root, slackSince)[0]);
    expect(sentReplies(root, slackSince)).toHaveLength(1);
    expect(messageText(rootUpdates(h, root, slackSince).at(-1)?.args)).toContain('*Sent*');
    // Later ticks: nothing more.
    const after = h.sandbox.calls.length;
    await h.app.poller.tick();
    expect(moneyWrites(after)).toEqual([]);
  }, 30_000);

  test('one write refused mid-flow (the approval’s row locked by another client past STORE_TIMEOUT_MS) after the creation: not ended as failed; the tick approves it once', async () => {
    const root = await ask();
    await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
      lateAnswer: { count: 1, method: 'POST', pathPrefix: '/api/v1/payment', ms: 500 },
    });
    const since = h.sandbox.calls.length;
    const slackSince = h.slack.calls.length;
    const locker = await otherClient();
    try {
      await clickRoot(h, CHECKER, root, 'approval_approve');
      await waitFor('the creation at the service', () => writesTo(since, '/api/v1/payment')[0]);
      // The intent `create` is written; the approve's intent will wait for this lock and time out.
      await locker.query(`SELECT 1 FROM "${schemaOf(namespace)}".approvals WHERE id = $1 FOR UPDATE`, [root.id]);
      // Then the store answers again for whatever the app writes next.
      await locker.outlastOneWrite('the approve’s intent');
    } finally {
      await locker.end();
    }
    // The approve was not sent while its intent could not be written; left `approving`, the tick reads the payment (CREATED) and approves it once.
    await sentOnce(root, since, slackSince);
  }, 30_000);

  test('the approval’s move to approving refused (its row locked past STORE_TIMEOUT_MS) after the day’s limit was reserved: nothing sent, still pending; cancelled, the day no longer counts it', async () => {
    const root = await ask();
    const day = saoPauloDay(new Date());
    const counted = () => dayLimitOf(h.app.deps).total(day);
    const before = await counted();
    const since = h.sandbox.calls.length;
    const locker = await otherClient();
    try {
      // The reservation (a record of its own) is written; the approval's own row waits for this lock and times out.
      await locker.query(`SELECT 1 FROM "${schemaOf(namespace)}".approvals WHERE id = $1 FOR UPDATE`, [root.id]);
      const click = await clickRoot(h, CHECKER, root, 'approval_approve');
      await locker.outlastOneWrite('the move to approving');
      expect(await answerTo(click)).toContain('storage is unavailable');
    } finally {
      await locker.end();
    }
    expect(moneyWrites(since)).toEqual([]);
    expect((await approval(root.id))?.state).toBe('pending');
    // As an instance dying at that moment leaves it: counted against the day, though nothing was sent.
    expect(await counted()).toBe(before + 12_345);

    await clickRoot(h, OPERATOR, root, 'approval_cancel');
    expect((await settled(root.id))?.state).toBe('cancelled');
    expect(await counted()).toBe(before);
    expect(moneyWrites(since)).toEqual([]);
  }, 30_000);

  test('a withdraw: approved while the store is away, not sent; restored, approved again: cut while its answer is held, it is never sent again (outcome unknown)', async () => {
    const { root, withdrawPath } = await askWithdraw();
    const since = h.sandbox.calls.length;
    const slackSince = h.slack.calls.length;

    proxy.cut();
    const first = await clickRoot(h, CHECKER, root, 'approval_approve');
    expect(await answerTo(first)).toContain('storage is unavailable');
    expect(writesTo(since, withdrawPath)).toEqual([]);
    proxy.restore();
    await waitFor('the store back', () => approval(root.id).catch(() => undefined), 10_000);
    expect((await approval(root.id))?.state).toBe('pending');

    // Approved again; the withdraw is made at the service and its answer held while the store is cut away.
    await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
      lateAnswer: { count: 1, method: 'POST', pathPrefix: withdrawPath, ms: 1_000 },
    });
    const told = await clickCutShort(root, () => writesTo(since, withdrawPath)[0]);
    expect(told.join('\n')).not.toContain('nothing was done');
    proxy.restore();

    // The intent `withdraw` was recorded before the call, and the service has no idempotency key for a
    // withdraw: the resumption cannot tell whether the call was carried out, so (the code's rule,
    // commands/withdraw-send.ts) it never sends it again — the outcome unknown, the balance shown.
    expect((await settled(root.id))?.state).toBe('done');
    const record = await moneyOutRecordOf(h.app.deps, root.id);
    expect(record).toMatchObject({ stage: 'unknown', balance: { available: 75_000 } });
    expect(messageText(rootUpdates(h, root, slackSince).at(-1)?.args)).toContain('its outcome is unknown');
    for (let i = 0; i < 2; i++) await h.app.poller.tick();
    expect(writesTo(since, withdrawPath)).toHaveLength(1);
  }, 30_000);

  test('a withdraw whose first write fails (its money-out record’s key held by another client past STORE_TIMEOUT_MS): not sent then; the tick sends it once', async () => {
    const { root, withdrawPath } = await askWithdraw();
    const since = h.sandbox.calls.length;
    const slackSince = h.slack.calls.length;
    const locker = await otherClient();
    try {
      // The same key inserted, not committed: the app's insert of the record waits for it, and times out.
      await locker.query(`INSERT INTO "${schemaOf(namespace)}".records (kind, key, value) VALUES ('money-out', $1, '{}')`, [root.id]);
      await clickRoot(h, CHECKER, root, 'approval_approve');
      await locker.outlastOneWrite('the record of the withdraw being sent');
    } finally {
      await locker.end();
    }
    // No intent was written and no call made: the tick's resumption sends it, once.
    expect((await settled(root.id))?.state).toBe('done');
    expect(await moneyOutRecordOf(h.app.deps, root.id)).toMatchObject({ stage: 'withdrawn', balance: { available: 75_000 } });
    expect(writesTo(since, withdrawPath)).toHaveLength(1);
    expect(threadPosts(h, root, slackSince).filter((c) => messageText(c.args).includes('Available balance after'))).toHaveLength(1);
    await h.app.poller.tick();
    expect(writesTo(since, withdrawPath)).toHaveLength(1);
  }, 30_000);
});
