import { moneyOutRecordOf } from '../../src/payments/money-out';
import type { MoneyOutRecord } from '../../src/payments/records';
import type { SandboxCall } from '../../src/sandbox/context';
import { buttonsOf, clickButton, sandboxApi, startHarnessWithMaster } from '../support/accounts-harness';
import { makerFlows } from '../support/approval-flows';
import { answerOn, clickRoot, type PendingRoot, rootUpdates, threadPosts } from '../support/approvals';
import { type Harness, messageText } from '../support/harness';
import { waitFor } from '../support/wait';

const OPERATOR = 'U0OPER001';
const CHECKER = 'U0OPER002';
const CHECKER_2 = 'U0OPER003';
const VIEWER = 'U0VIEWER1';
const NOBODY = 'U0NOBODY1';
const CHANNEL = 'C0PAYMENTS';
/** A key of the sandbox's DICT, and its holder as the key check finds them. */
const KEY = 'financeiro@graficarapida.com.br';
const HOLDER = { name: 'Gráfica Rápida Impressões Ltda', taxId: '19031824000157', bank: 'Itaú Unibanco S.A.' };

/** A payment's Pix writes, as the sandbox received them (`METHOD path`). */
const PAY_WRITES = ['POST /api/v1/payment', 'POST /api/v1/payment/approve'];

/**
 * Money out on one instance (sqlite): a payment waits for a checker whatever APPROVALS says (it is
 * empty here), is sent once on the last approval (created with PIX_APP_ID and the approval's id as
 * its correlationID, then approved), and each path that reaches the payment endpoints is one a
 * second person opened. Until `/pix pay` lands (another branch), payments are asked through
 * `askApproval`, the path its form takes (makerFlows.pay).
 */
describe('money out: a payment, on two people’s word (one instance)', () => {
  let h: Harness;
  let flows: ReturnType<typeof makerFlows>;
  let account: string;
  let mainAppId: string;

  beforeAll(async () => {
    h = await startHarnessWithMaster({
      ACCESS_OPERATORS: `${OPERATOR},${CHECKER},${CHECKER_2}`,
      ACCESS_VIEWERS: VIEWER,
      APPROVAL_QUORUM_ABOVE: '1.000,00',
      // A resumption (after a call with no clear answer) comes on the next tick, once the claim lapsed.
      POLL_SCHEDULE: '* * * * * *',
      POLL_CLAIM_TTL_MS: '1500',
    });
    account = h.sandbox.companies.main.defaultAccountId;
    mainAppId = h.sandbox.companies.main.mainAppId;
    // Settled only when a test moves the sandbox's clock: the settlement is another branch's.
    await sandboxApi(h, 'POST', '/sandbox/payments/confirm-delay', undefined, { ms: 3_600_000 });
    flows = makerFlows(h, {
      channel: CHANNEL,
      operator: OPERATOR,
      admin: OPERATOR,
      campaignAccountId: account,
      campaignAppId: mainAppId,
      rotateClientId: 'unused',
      accountId: account,
    });
  });
  afterAll(() => h.close());
  afterEach(async () => {
    await sandboxApi(h, 'DELETE', '/sandbox/faults');
    await sandboxApi(h, 'POST', `/sandbox/accounts/${account}/balance`, undefined, { available: 1_500_000 });
  });

  const writes = (since: number): SandboxCall[] =>
    h.sandbox.calls.slice(since).filter((c) => c.method !== 'GET' && c.path.startsWith('/api/v1/'));
  const writeLines = (since: number) => writes(since).map((c) => `${c.method} ${c.path}`);
  const approval = (id: string) => h.app.deps.store.approvals.get(id);
  const moneyOut = (id: string) => moneyOutRecordOf(h.app.deps, id);
  const settled = (id: string) =>
    waitFor(`approval ${id} settled`, async () => ((await approval(id))?.settled ? approval(id) : undefined), 10_000);
  const stage = (id: string, wanted: MoneyOutRecord['stage']) =>
    waitFor(`money out ${id} ${wanted}`, async () => ((await moneyOut(id))?.stage === wanted ? moneyOut(id) : undefined), 10_000);
  const lastRoot = (root: PendingRoot, from = 0) => messageText(rootUpdates(h, root, from).at(-1)?.args);
  const ask = async (payload: Parameters<(typeof flows)['pay']>[0] = {}) => {
    const asked = await flows.pay(payload);
    await asked.shown();
    return asked.root;
  };

  test('the root says what is paid, to whom (masked) and from which balance; the approval sends it once, with PIX_APP_ID and the approval’s id', async () => {
    const since = h.sandbox.calls.length;
    const root = await ask({ payload: { comment: 'Invoice <42>', pixKeyEndToEndId: 'E2E-CHECK-1' } });
    const text = messageText(root.call.args);
    expect(text).toContain('Pay a Pix key');
    expect(text).toContain('Amount: *R$123.45*');
    expect(text).toMatch(/From account `[0-9a-f]+`: available balance R\$15,000\.00/);
    expect(text).toContain(`Receiver: *${HOLDER.name}*, tax ID \`**.031.824/****-**\`, ${HOLDER.bank}`);
    expect(text).toContain('Pix key: `f***@graficarapida.com.br`');
    expect(text).toContain('Comment: Invoice &lt;42&gt;');
    expect(text).not.toContain('19031824000157');
    expect(text).not.toContain(KEY);
    // Nothing written while it waits.
    expect(writes(since)).toEqual([]);

    const slackSince = h.slack.calls.length;
    const paySince = h.sandbox.calls.length;
    await clickRoot(h, CHECKER, root, 'approval_approve');
    await settled(root.id);
    expect(writeLines(paySince)).toEqual(PAY_WRITES);
    const [create, approve] = writes(paySince);
    expect(create!.authorization).toBe(mainAppId);
    expect(create!.body).toEqual({
      type: 'PIX_KEY',
      value: 12_345,
      destinationAlias: KEY,
      destinationAliasType: 'EMAIL',
      correlationID: root.id,
      sourceAccountId: account,
      pixKeyEndToEndId: 'E2E-CHECK-1',
      comment: 'Invoice <42>',
    });
    expect(approve!.authorization).toBe(mainAppId);
    expect(approve!.body).toEqual({ correlationID: root.id });

    const record = await stage(root.id, 'sent');
    expect(record).toMatchObject({ kind: 'pay', value: 12_345, accountId: account, sentBy: CHECKER, endToEndId: expect.any(String) });
    const final = lastRoot(root, slackSince);
    expect(final).toContain('*Sent*');
    expect(final).toContain(`<@${CHECKER}>`);
    expect(JSON.stringify(rootUpdates(h, root, slackSince).at(-1)!.args.blocks)).not.toContain('approval_approve');
    const thread = await waitFor('the sent reply', () =>
      threadPosts(h, root, slackSince).find((c) => messageText(c.args).includes('Sent to')),
    );
    expect(messageText(thread.args)).toContain(`Sent to *${HOLDER.name}*, tax ID \`**.031.824/****-**\`, ${HOLDER.bank}`);
    expect(messageText(thread.args)).toContain(record!.endToEndId!);
    expect(messageText(thread.args)).toContain(`Asked by <@${OPERATOR}>, approved by <@${CHECKER}>`);

    // Another click: told who approved; nothing more reaches the service.
    const after = h.sandbox.calls.length;
    const again = await clickRoot(h, CHECKER_2, root, 'approval_approve');
    expect(messageText(await answerOn(h, again.responseId))).toContain(`Already approved by <@${CHECKER}>`);
    expect(writes(after)).toEqual([]);
    // The audit trail has the steps.
    const trail = await h.app.deps.store.audit.page({ since: new Date(0), limit: 1_000 });
    expect(trail.filter((e) => e.target?.includes(`approval:${root.id}`)).map((e) => e.action)).toEqual(
      expect.arrayContaining(['payment:created', 'payment:sent']),
    );
  });

  test('never on one person’s word: the maker, a viewer and someone without a role are refused, and nothing is sent', async () => {
    const root = await ask();
    const since = h.sandbox.calls.length;
    const maker = await clickRoot(h, OPERATOR, root, 'approval_approve');
    expect(messageText(await answerOn(h, maker.responseId))).toContain('You asked for this yourself');
    const viewer = await clickRoot(h, VIEWER, root, 'approval_approve');
    expect(messageText(await answerOn(h, viewer.responseId))).toMatch(/operator/);
    const nobody = await clickRoot(h, NOBODY, root, 'approval_approve');
    expect(messageText(await answerOn(h, nobody.responseId))).toMatch(/operator/);
    expect((await approval(root.id))?.state).toBe('pending');
    expect(writes(since)).toEqual([]);
  });

  test('above APPROVAL_QUORUM_ABOVE, two people: the first approval sends nothing, the second sends it once', async () => {
    const root = await ask({ payload: { value: 150_000 } });
    expect(messageText(root.call.args)).toContain('2 approvals');
    const since = h.sandbox.calls.length;
    const first = await clickRoot(h, CHECKER, root, 'approval_approve');
    expect(messageText(await answerOn(h, first.responseId))).toMatch(/1 of 2/);
    expect(writes(since)).toEqual([]);
    await clickRoot(h, CHECKER_2, root, 'approval_approve');
    await stage(root.id, 'sent');
    expect(writeLines(since)).toEqual(PAY_WRITES);
  });

  const retry = (userId: string, root: PendingRoot) =>
    clickButton(h, { userId, actionId: 'payment_retry', value: root.id, channelId: root.channel, messageTs: root.ts, ephemeral: false });

  test('not enough balance: approved and not sent, payment_retry offered (never the maker’s); a retry by another sends the same payment once', async () => {
    await sandboxApi(h, 'POST', `/sandbox/accounts/${account}/balance`, undefined, { available: 5_000 });
    const root = await ask();
    expect(messageText(root.call.args)).toContain('lower than the amount');
    const since = h.sandbox.calls.length;
    const slackSince = h.slack.calls.length;
    await clickRoot(h, CHECKER, root, 'approval_approve');
    const short = await stage(root.id, 'short');
    expect(short).toMatchObject({ balance: { available: 5_000 } });
    expect(writeLines(since)).toEqual(PAY_WRITES);
    await settled(root.id);
    const shown = rootUpdates(h, root, slackSince).at(-1)!.args;
    expect(messageText(shown)).toContain('*not sent*');
    expect(messageText(shown)).toContain('R$50.00');
    expect(buttonsOf(shown).map((b) => b.action_id)).toEqual(['payment_retry']);
    expect(messageText((await waitFor('the short reply', () => threadPosts(h, root, slackSince)[0])).args)).toContain('Not sent');
    // The day no longer counts it.
    expect(await h.app.deps.store.records.get('pay-day', short!.day)).toMatchObject({ entries: {} });

    const refusedSince = h.sandbox.calls.length;
    const maker = await retry(OPERATOR, root);
    expect(messageText(await answerOn(h, maker.responseId))).toContain('You asked for this yourself');
    const viewer = await retry(VIEWER, root);
    expect(messageText(await answerOn(h, viewer.responseId))).toMatch(/operator/);
    expect(writes(refusedSince)).toEqual([]);
    expect((await moneyOut(root.id))?.stage).toBe('short');

    await sandboxApi(h, 'POST', `/sandbox/accounts/${account}/balance`, undefined, { available: 1_500_000 });
    const retrySince = h.sandbox.calls.length;
    const retrySlack = h.slack.calls.length;
    await retry(CHECKER_2, root);
    const sent = await stage(root.id, 'sent');
    expect(sent).toMatchObject({ sentBy: CHECKER_2, retries: 1 });
    expect(writeLines(retrySince)).toEqual(['POST /api/v1/payment/approve']);
    expect(writes(retrySince)[0]!.body).toEqual({ correlationID: root.id });
    await settled(root.id);
    expect(lastRoot(root, retrySlack)).toContain(`on <@${CHECKER_2}>’s approval`);
    expect(buttonsOf(rootUpdates(h, root, retrySlack).at(-1)!.args)).toEqual([]);

    // Once sent, another retry does nothing.
    const after = h.sandbox.calls.length;
    const again = await retry(CHECKER, root);
    expect(messageText(await answerOn(h, again.responseId))).toContain('not waiting for a retry');
    expect(writes(after)).toEqual([]);
  });

  test('"already exists": the payment with this correlationID is the same payment, read and approved once', async () => {
    const root = await ask();
    // The creation made already (as by an instance that died before recording it).
    await sandboxApi(h, 'POST', '/api/v1/payment', mainAppId, {
      type: 'PIX_KEY',
      value: 12_345,
      destinationAlias: KEY,
      destinationAliasType: 'EMAIL',
      correlationID: root.id,
    });
    const since = h.sandbox.calls.length;
    await clickRoot(h, CHECKER, root, 'approval_approve');
    await stage(root.id, 'sent');
    expect(writeLines(since)).toEqual(PAY_WRITES);
    expect(h.sandbox.calls.slice(since).map((c) => `${c.method} ${c.path}`)).toContain(`GET /api/v1/payment/${root.id}`);
    const { payments } = await sandboxApi<{ payments: Array<{ payment: { correlationID: string } }> }>(
      h,
      'GET',
      '/api/v1/payment?limit=100',
      mainAppId,
    );
    expect(payments.filter((p) => p.payment.correlationID === root.id)).toHaveLength(1);
  });

  test('"already exists" and approved elsewhere: not approved again, and the root says what was read', async () => {
    const root = await ask();
    await sandboxApi(h, 'POST', '/api/v1/payment', mainAppId, {
      type: 'PIX_KEY',
      value: 12_345,
      destinationAlias: KEY,
      destinationAliasType: 'EMAIL',
      correlationID: root.id,
    });
    await sandboxApi(h, 'POST', '/api/v1/payment/approve', mainAppId, { correlationID: root.id });
    const since = h.sandbox.calls.length;
    const slackSince = h.slack.calls.length;
    await clickRoot(h, CHECKER, root, 'approval_approve');
    await stage(root.id, 'sent');
    await settled(root.id);
    expect(writeLines(since)).toEqual(['POST /api/v1/payment']);
    expect(lastRoot(root, slackSince)).toContain('already had this payment, with status `APPROVED`');
  });

  test('the Pix API failing without an answer on the creation: resumed by the tick with the same correlationID, created and approved once', async () => {
    const root = await ask();
    await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
      fail: { status: 503, count: 1, method: 'POST', pathPrefix: '/api/v1/payment' },
    });
    const since = h.sandbox.calls.length;
    await clickRoot(h, CHECKER, root, 'approval_approve');
    await stage(root.id, 'sent');
    const creations = writes(since).filter((c) => c.path === '/api/v1/payment');
    expect(creations).toHaveLength(2);
    expect(creations.map((c) => (c.body as { correlationID: string }).correlationID)).toEqual([root.id, root.id]);
    expect(writes(since).filter((c) => c.path === '/api/v1/payment/approve')).toHaveLength(1);
    expect((await settled(root.id))?.state).toBe('done');
  });

  test('the service refusing the creation: the approval fails with its words, nothing is approved, the day does not count it', async () => {
    const root = await ask({ payload: { destinationAlias: 'ninguem@example.com', receiver: { verified: false } } });
    expect(messageText(root.call.args)).toContain('could not be verified before sending');
    const since = h.sandbox.calls.length;
    const slackSince = h.slack.calls.length;
    await clickRoot(h, CHECKER, root, 'approval_approve');
    const ended = await settled(root.id);
    expect(ended?.state).toBe('failed');
    expect(writeLines(since)).toEqual(['POST /api/v1/payment']);
    const reply = await waitFor('the failure in the thread', () => threadPosts(h, root, slackSince)[0]);
    expect(messageText(reply.args)).toContain('The service refused to create the payment: “Pix key not found”');
    const record = await moneyOut(root.id);
    expect(record?.stage).toBe('failed');
    expect(
      ((await h.app.deps.store.records.get('pay-day', record!.day)) as { entries: Record<string, number> }).entries[root.id],
    ).toBeUndefined();
  });
});
