import type { PayPayload } from '../../src/domain/money-out';
import { addDays, isoDateOf, saoPauloToday } from '../../src/domain/sao-paulo-date';
import { moneyOutRecordOf } from '../../src/payments/money-out';
import type { MoneyOutRecord } from '../../src/payments/records';
import type { SandboxCall } from '../../src/sandbox/context';
import { accountMadeElsewhere, buttonsOf, clickButton, sandboxApi, startHarnessWithMaster } from '../support/accounts-harness';
import { paymentFlows } from '../support/approval-flows';
import { answerOn, approvalRoots, clickRoot, type PendingRoot, pendingRoot, rootUpdates, threadPosts } from '../support/approvals';
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
 * Money out on one instance (sqlite): a payment asked with `/pix pay` waits for a checker whatever
 * APPROVALS says (it is empty here), is sent once on the last approval (created with PIX_APP_ID and
 * the approval's id as its correlationID, then approved), and each path that reaches the payment
 * endpoints is one a second person opened.
 */
describe('money out: a payment, on two people’s word (one instance)', () => {
  let h: Harness;
  let flows: ReturnType<typeof paymentFlows>;
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
    flows = paymentFlows(h, { channel: CHANNEL, operator: OPERATOR });
  });
  afterAll(() => h.close());
  afterEach(async () => {
    await sandboxApi(h, 'DELETE', '/sandbox/faults');
    await sandboxApi(h, 'POST', `/sandbox/accounts/${account}/balance`, undefined, { available: 1_500_000 });
  });

  /** The writes to the service (the form's key check is a look-up, not one). */
  const writes = (since: number): SandboxCall[] =>
    h.sandbox.calls.slice(since).filter((c) => c.method !== 'GET' && c.path.startsWith('/api/v1/') && c.path !== '/api/v1/pix-keys/check');
  const writeLines = (since: number) => writes(since).map((c) => `${c.method} ${c.path}`);
  const approval = (id: string) => h.app.deps.store.approvals.get(id);
  const moneyOut = (id: string) => moneyOutRecordOf(h.app.deps, id);
  const settled = (id: string) =>
    waitFor(`approval ${id} settled`, async () => ((await approval(id))?.settled ? approval(id) : undefined), 10_000);
  const stage = (id: string, wanted: MoneyOutRecord['stage']) =>
    waitFor(`money out ${id} ${wanted}`, async () => ((await moneyOut(id))?.stage === wanted ? moneyOut(id) : undefined), 10_000);
  const lastRoot = (root: PendingRoot, from = 0) => messageText(rootUpdates(h, root, from).at(-1)?.args);
  const ask = async (typed: Parameters<(typeof flows)['pay']>[0] = {}) => {
    const asked = await flows.pay(typed);
    await asked.shown();
    return asked.root;
  };

  test('the root says what is paid, to whom (masked) and from which balance; the approval sends it once, with PIX_APP_ID and the approval’s id', async () => {
    const since = h.sandbox.calls.length;
    const root = await ask({ comment: 'Invoice <42>' });
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
    const checked = ((await approval(root.id))!.payload as PayPayload).pixKeyEndToEndId;
    expect(checked).toEqual(expect.any(String));
    expect(create!.authorization).toBe(mainAppId);
    expect(create!.body).toEqual({
      type: 'PIX_KEY',
      value: 12_345,
      destinationAlias: KEY,
      destinationAliasType: 'EMAIL',
      correlationID: root.id,
      sourceAccountId: account,
      // The form's key check's, so the creation does not look the key up again.
      pixKeyEndToEndId: checked,
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
    const steps = await waitFor('the payment’s steps in the audit trail', async () => {
      const actions = (await h.app.deps.store.audit.page({ since: new Date(0), limit: 1_000 }))
        .filter((e) => e.target?.includes(`approval:${root.id}`))
        .map((e) => e.action);
      return actions.includes('payment:created') && actions.includes('payment:sent') ? actions : undefined;
    });
    expect(steps).toContain('action:approval_approve');
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
    const root = await ask({ value: '1500.00' });
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
    // The button's own entry, written once its delivery is over.
    const retried = await waitFor('the retry in the audit trail', async () =>
      (await h.app.deps.store.audit.page({ since: new Date(0), limit: 1_000 })).find(
        (e) => e.action === 'action:payment_retry' && e.user === CHECKER_2 && !e.pixMethod && e.target?.includes(`approval:${root.id}`),
      ),
    );
    expect(retried).toMatchObject({ outcome: 'approved', detail: 'retry', maker: OPERATOR });
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

  test.each([
    ['before the service approved it: approved again once', false, 2],
    ['after the service approved it: read APPROVED, not approved again', true, 1],
  ])('the Pix API answering the approve with a 503 %s', async (_what, afterWrite, approves) => {
    const root = await ask();
    await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
      fail: { status: 503, count: 1, method: 'POST', pathPrefix: '/api/v1/payment/approve', afterWrite },
    });
    const since = h.sandbox.calls.length;
    await clickRoot(h, CHECKER, root, 'approval_approve');
    await stage(root.id, 'sent');
    expect((await settled(root.id))?.state).toBe('done');
    expect(writes(since).filter((c) => c.path === '/api/v1/payment')).toHaveLength(1);
    expect(writes(since).filter((c) => c.path === '/api/v1/payment/approve')).toHaveLength(approves);
    // The resumption read the payment before approving anything again.
    expect(h.sandbox.calls.slice(since).some((c) => c.method === 'GET' && c.path === `/api/v1/payment/${root.id}`)).toBe(true);
  });

  test('the service refusing the creation: the approval fails with its words, nothing is approved, the day does not count it', async () => {
    // Without the key check (403), the form asks for the approval unverified: the creation looks the key up.
    await sandboxApi(h, 'POST', `/sandbox/companies/${h.sandbox.companies.main.companyId}/features`, undefined, {
      feature: 'CHECK_PIX_KEY',
      enabled: false,
    });
    const root = await ask({ key: 'ninguem@example.com' }).finally(() =>
      sandboxApi(h, 'POST', `/sandbox/companies/${h.sandbox.companies.main.companyId}/features`, undefined, {
        feature: 'CHECK_PIX_KEY',
        enabled: true,
      }),
    );
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

/**
 * `/pix withdraw` on the same kind of instance: refused at once when it cannot be sent, else a checker
 * is asked; approved, sent once with the account's own AppID; a call that may have been carried out is
 * never sent again.
 */
describe('money out: a withdraw, on two people’s word (one instance)', () => {
  let h: Harness;
  let n = 0;

  beforeAll(async () => {
    h = await startHarnessWithMaster({
      ACCESS_OPERATORS: `${OPERATOR},${CHECKER}`,
      ACCESS_VIEWERS: VIEWER,
      POLL_SCHEDULE: '* * * * * *',
      POLL_CLAIM_TTL_MS: '1500',
    });
  });
  afterAll(() => h.close());
  afterEach(() => sandboxApi(h, 'DELETE', '/sandbox/faults'));

  /** A campaign account made elsewhere (its AppID stored), 1,000.00 in it, and a withdraw key of its own in the DICT unless told. */
  async function campaign(withKey = true) {
    const made = await accountMadeElsewhere(h, `Campaign ${++n}`);
    await h.app.deps.store.accountApps.save({ ...made, name: `Campaign ${n}` });
    await sandboxApi(h, 'POST', `/sandbox/accounts/${made.accountId}/transactions`, undefined, { type: 'CREDIT', value: 100_000 });
    await sandboxApi(h, 'POST', `/sandbox/accounts/${made.accountId}/withdraw-key-api`, undefined, { enabled: true });
    const key = `saque-${n}@example.com`;
    if (withKey) {
      await sandboxApi(h, 'POST', '/sandbox/dict', undefined, { pixKey: key, type: 'EMAIL', holderTaxId: h.sandbox.companies.main.taxId });
      await sandboxApi(h, 'POST', '/api/v1/pix-keys/withdraw', made.appId, { pixKey: key });
    }
    return { ...made, key };
  }
  const writes = (since: number) => h.sandbox.calls.slice(since).filter((c) => c.method !== 'GET' && c.path.startsWith('/api/v1/'));
  const moneyOut = (id: string) => moneyOutRecordOf(h.app.deps, id);
  const settled = (id: string) =>
    waitFor(
      `approval ${id} settled`,
      async () => {
        const r = await h.app.deps.store.approvals.get(id);
        return r?.settled ? r : undefined;
      },
      10_000,
    );
  const balanceOf = async (accountId: string, appId: string) =>
    (await sandboxApi<{ account: { balance: { available: number } } }>(h, 'GET', `/api/v1/account/${accountId}`, appId)).account.balance
      .available;
  const ask = async (accountId: string, amount: string) => {
    const from = h.slack.calls.length;
    const res = await h.slash(OPERATOR, `withdraw ${accountId} ${amount}`, { channelId: CHANNEL });
    const answer = messageText(await answerOn(h, res.responseId));
    return { answer, roots: approvalRoots(h, from) };
  };

  test('refused at once, with why: no withdraw key, withdraw blocked, not an amount, above the balance, a viewer; nothing asked, nothing sent', async () => {
    const slackFrom = h.slack.calls.length;
    const keyless = await campaign(false);
    const from = h.sandbox.calls.length;
    expect((await ask(keyless.accountId, '10,00')).answer).toContain('has no withdraw key');
    const c = await campaign();
    await sandboxApi(h, 'POST', `/sandbox/accounts/${c.accountId}/withdraw-blocked`, undefined, { blocked: true });
    expect((await ask(c.accountId, '10,00')).answer).toContain('the DICT did not find its withdraw key');
    await sandboxApi(h, 'POST', `/sandbox/accounts/${c.accountId}/withdraw-blocked`, undefined, { blocked: false });
    expect((await ask(c.accountId, 'dez')).answer).toContain('Not an amount');
    expect((await ask(c.accountId, '0')).answer).toContain('above zero');
    const above = await ask(c.accountId, '1000,01');
    expect(above.answer).toContain('is above the available balance');
    expect(above.answer).toContain('R$1,000.00');
    const viewer = await h.slash(VIEWER, `withdraw ${c.accountId} 10,00`, { channelId: CHANNEL });
    expect(messageText(viewer.ack)).toMatch(/operator/);
    expect(approvalRoots(h, slackFrom)).toEqual([]);
    expect(writes(from).filter((c2) => c2.path.endsWith('/withdraw') && c2.path.startsWith('/api/v1/account/'))).toEqual([]);
  });

  test('the Pix API failing as the account is read: the reason, no approval asked', async () => {
    const c = await campaign();
    const from = h.slack.calls.length;
    const since = h.sandbox.calls.length;
    await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
      fail: { status: 500, count: 20, method: 'GET', pathPrefix: `/api/v1/account/${c.accountId}` },
    });
    expect((await ask(c.accountId, '10,00')).answer).toContain('Could not ask for a withdraw: “Sandbox fault”');
    expect(approvalRoots(h, from)).toEqual([]);
    expect(writes(since)).toEqual([]);
  });

  test('approved: sent once with the account’s own AppID; the thread gets the endToEndId and the balance after', async () => {
    const c = await campaign();
    const { answer, roots } = await ask(c.accountId, '400,00');
    expect(answer).toContain('is waiting for approval');
    const root = await pendingRoot(h, h.slack.calls.indexOf(roots[0]!));
    const text = messageText(root.call.args);
    expect(text).toContain('Amount: *R$400.00*');
    expect(text).toContain('available balance R$1,000.00');
    expect(text).toContain('withdraw key `s***@example.com` (e-mail)');
    const since = h.sandbox.calls.length;
    const slackSince = h.slack.calls.length;
    const maker = await clickRoot(h, OPERATOR, root, 'approval_approve');
    expect(messageText(await answerOn(h, maker.responseId))).toContain('You asked for this yourself');
    expect(writes(since)).toEqual([]);
    await clickRoot(h, CHECKER, root, 'approval_approve');
    await settled(root.id);
    const sent = writes(since);
    expect(sent.map((w) => `${w.method} ${w.path}`)).toEqual([`POST /api/v1/account/${c.accountId}/withdraw`]);
    expect(sent[0]).toMatchObject({ authorization: c.appId, body: { value: 40_000 } });
    const record = await moneyOut(root.id);
    expect(record).toMatchObject({ kind: 'withdraw', stage: 'withdrawn', balance: { available: 60_000 }, endToEndId: expect.any(String) });
    expect(await balanceOf(c.accountId, c.appId)).toBe(60_000);
    const reply = await waitFor('the withdrawn reply', () => threadPosts(h, root, slackSince)[0]);
    expect(messageText(reply.args)).toContain(record!.endToEndId!);
    expect(messageText(reply.args)).toContain('Available balance after: R$600.00');
    expect(messageText(rootUpdates(h, root, slackSince).at(-1)!.args)).toContain('*Withdrawn*');
    const step = await waitFor('the withdraw in the audit trail', async () =>
      (await h.app.deps.store.audit.page({ since: new Date(0), limit: 1_000 })).find(
        (e) => e.action === 'withdraw:sent' && e.target?.includes(`approval:${root.id}`),
      ),
    );
    expect(step).toMatchObject({
      user: CHECKER,
      maker: OPERATOR,
      detail: `endToEndId ${record!.endToEndId!.replace(/[^A-Za-z0-9]/g, '')}`,
    });
  });

  test('lost mid-answer (a 504 after the service did it): never sent again, the outcome unknown, balance and latest entries shown', async () => {
    const c = await campaign();
    const { roots } = await ask(c.accountId, '250,00');
    const root = await pendingRoot(h, h.slack.calls.indexOf(roots[0]!));
    await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
      fail: { status: 504, count: 1, method: 'POST', pathPrefix: `/api/v1/account/${c.accountId}/withdraw`, afterWrite: true },
    });
    const since = h.sandbox.calls.length;
    const slackSince = h.slack.calls.length;
    await clickRoot(h, CHECKER, root, 'approval_approve');
    await settled(root.id);
    const record = await moneyOut(root.id);
    expect(record).toMatchObject({ stage: 'unknown', balance: { available: 75_000 } });
    expect(record!.entries!.length).toBeGreaterThan(0);
    const root2 = messageText(rootUpdates(h, root, slackSince).at(-1)!.args);
    expect(root2).toContain('its outcome is unknown');
    expect(root2).toContain('Available balance: R$750.00');
    expect(root2).toContain('Latest statement entries');
    // Ticks come and go: nothing is sent again.
    for (let i = 0; i < 3; i++) await h.app.poller.tick();
    expect(writes(since).filter((w) => w.path === `/api/v1/account/${c.accountId}/withdraw`)).toHaveLength(1);
    expect(await balanceOf(c.accountId, c.appId)).toBe(75_000);
  });

  test('refused by the service (its key gone from the DICT): its words and why, the day released, nothing more sent', async () => {
    const c = await campaign();
    const { roots } = await ask(c.accountId, '100,00');
    const root = await pendingRoot(h, h.slack.calls.indexOf(roots[0]!));
    await sandboxApi(h, 'DELETE', `/sandbox/dict/${encodeURIComponent(c.key)}`);
    const slackSince = h.slack.calls.length;
    await clickRoot(h, CHECKER, root, 'approval_approve');
    const ended = await settled(root.id);
    expect(ended.state).toBe('failed');
    const reply = await waitFor('the failure in the thread', () => threadPosts(h, root, slackSince)[0]);
    expect(messageText(reply.args)).toContain('The service refused the withdraw: “Withdraw Pix key not found in DICT');
    expect(messageText(reply.args)).toContain('now blocked');
    const record = await moneyOut(root.id);
    expect(record?.stage).toBe('failed');
    expect(
      ((await h.app.deps.store.records.get('pay-day', record!.day)) as { entries: Record<string, number> }).entries[root.id],
    ).toBeUndefined();
    expect(await balanceOf(c.accountId, c.appId)).toBe(100_000);
  });
});

/** PAY_DAY_LIMIT on one instance: checked at the approval that would send, and again at a retry. */
describe('money out: the day’s limit (one instance)', () => {
  let h: Harness;
  let flows: ReturnType<typeof paymentFlows>;
  let account: string;

  beforeAll(async () => {
    h = await startHarnessWithMaster({ ACCESS_OPERATORS: `${OPERATOR},${CHECKER},${CHECKER_2}`, PAY_DAY_LIMIT: '300,00' });
    account = h.sandbox.companies.main.defaultAccountId;
    await sandboxApi(h, 'POST', '/sandbox/payments/confirm-delay', undefined, { ms: 3_600_000 });
    flows = paymentFlows(h, { channel: CHANNEL, operator: OPERATOR });
  });
  afterAll(() => h.close());

  const writes = (since: number) =>
    h.sandbox.calls.slice(since).filter((c) => c.method !== 'GET' && c.path.startsWith('/api/v1/') && c.path !== '/api/v1/pix-keys/check');
  const stageOf = async (id: string) => (await moneyOutRecordOf(h.app.deps, id))?.stage;
  const until = (id: string, stage: MoneyOutRecord['stage']) =>
    waitFor(`money out ${id} ${stage}`, async () => (await stageOf(id)) === stage, 10_000);
  const ask = async (cents: number) => {
    const asked = await flows.pay({ value: (cents / 100).toFixed(2) });
    await asked.shown();
    return asked.root;
  };
  const setBalance = (available: number) => sandboxApi(h, 'POST', `/sandbox/accounts/${account}/balance`, undefined, { available });

  test('an approval that would pass it is refused to that checker with the total, the amount and the limit; nothing sent; it stays pending; a retry is checked again', async () => {
    const first = await ask(20_000);
    await clickRoot(h, CHECKER, first, 'approval_approve');
    await until(first.id, 'sent');

    const over = await ask(15_000);
    const since = h.sandbox.calls.length;
    const click = await clickRoot(h, CHECKER, over, 'approval_approve');
    const told = messageText(await answerOn(h, click.responseId));
    expect(told).toContain('add up to R$200.00 so far');
    expect(told).toContain('this one (R$150.00)');
    expect(told).toContain('the day’s limit of R$300.00');
    expect(writes(since)).toEqual([]);
    expect((await h.app.deps.store.approvals.get(over.id))?.state).toBe('pending');
    expect(await stageOf(over.id)).toBeUndefined();
    const trail = await h.app.deps.store.audit.page({ since: new Date(0), limit: 1_000 });
    expect(trail.find((e) => e.target?.includes(`approval:${over.id}`) && e.outcome === 'refused')?.detail).toMatch(/^day limit/);

    // Not sent for want of balance: it does not count, until a retry would send it.
    await setBalance(5_000);
    const short = await ask(10_000);
    await clickRoot(h, CHECKER, short, 'approval_approve');
    await until(short.id, 'short');
    await setBalance(1_500_000);
    const filler = await ask(5_000);
    await clickRoot(h, CHECKER, filler, 'approval_approve');
    await until(filler.id, 'sent');
    const retrySince = h.sandbox.calls.length;
    const retry = await clickButton(h, {
      userId: CHECKER_2,
      actionId: 'payment_retry',
      value: short.id,
      channelId: short.channel,
      messageTs: short.ts,
      ephemeral: false,
    });
    const refused = messageText(await answerOn(h, retry.responseId));
    expect(refused).toContain('add up to R$250.00 so far');
    expect(refused).toContain('this one (R$100.00)');
    expect(refused).toContain('it can be retried later');
    expect(writes(retrySince)).toEqual([]);
    expect(await stageOf(short.id)).toBe('short');
  });
});

/**
 * With APPROVALS empty, payments still wait, so they are among what an approver away can hand over:
 * `/pix away` accepts an operator as delegate, who then approves a payment for the approver away.
 */
describe('money out: delegation while away (APPROVALS empty)', () => {
  const ABEL = 'U0ABEL001';
  const BRUNO = 'U0BRUNO01';
  let h: Harness;

  beforeAll(async () => {
    h = await startHarnessWithMaster({ ACCESS_OPERATORS: `${OPERATOR},${ABEL},${BRUNO}`, ACCESS_APPROVERS: ABEL });
    await sandboxApi(h, 'POST', '/sandbox/payments/confirm-delay', undefined, { ms: 3_600_000 });
  });
  afterAll(() => h.close());

  test('the approver away hands payments to a delegate, who approves one for them: sent once, the root says for whom', async () => {
    const until = isoDateOf(addDays(saoPauloToday(new Date()), 1));
    const away = await h.slash(ABEL, `away ${until} <@${BRUNO}|bruno>`, { channelId: CHANNEL });
    expect(messageText(away.ack ?? (await answerOn(h, away.responseId)))).toContain(`<@${BRUNO}> decides for you`);
    const asked = await paymentFlows(h, { channel: CHANNEL, operator: OPERATOR }).pay();
    await asked.shown();
    const since = h.sandbox.calls.length;
    // Not an approver on their own: the delegation lends them Abel's standing.
    await clickRoot(h, BRUNO, asked.root, 'approval_approve');
    await waitFor('the payment sent', async () => (await moneyOutRecordOf(h.app.deps, asked.root.id))?.stage === 'sent', 10_000);
    expect(
      h.sandbox.calls
        .slice(since)
        .filter((c) => c.method === 'POST')
        .map((c) => c.path),
    ).toEqual(['/api/v1/payment', '/api/v1/payment/approve']);
    const record = await h.app.deps.store.approvals.get(asked.root.id);
    expect(record?.approvedBy).toEqual([expect.objectContaining({ userId: BRUNO, forUserId: ABEL })]);
    const shown = await waitFor('the root showing it sent', () =>
      rootUpdates(h, asked.root).find((c) => messageText(c.args).includes('*Sent*')),
    );
    expect(messageText(shown.args)).toContain(`<@${BRUNO}> for <@${ABEL}>`);
  });
});
