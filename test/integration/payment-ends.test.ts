import { createHash } from 'node:crypto';
import { DayLimit } from '../../src/payments/day-limit';
import { openPayments } from '../../src/payments/indexes';
import { moneyOutRecords } from '../../src/payments/records';
import type { SlackApiCall } from '../../src/slack-standin/web-api';
import { clickButton, sandboxApi } from '../support/accounts-harness';
import { paymentFlows } from '../support/approval-flows';
import { clickRoot, type PendingRoot, threadPosts } from '../support/approvals';
import { type Harness, messageText, startHarness } from '../support/harness';
import { openHome } from '../support/interactions';
import { receiverUrl, sendSigned } from '../support/pix-events';
import { waitFor } from '../support/wait';

const CHANNEL = 'C0PAYMENTS';
const EVENTS = 'C0PIXEVENTS';
const OPERATOR = 'U0PAYMAKER';
const CHECKER = 'U0PAYCHECK';
const VIEWER = 'U0PAYVIEW';
/** Long enough that no payment settles before a test moves the sandbox's clock. */
const CONFIRM_DELAY_MS = 60 * 60_000;

type Flows = ReturnType<typeof paymentFlows>;

/** Cents as the payment form's amount (`123.45`). */
const reais = (cents: number) => (cents / 100).toFixed(2);

/** The reply a payment's end makes in its approval's thread (its notice metadata). */
const isEndReply = (c: SlackApiCall, id: string) => {
  const meta = c.args.metadata as { event_type?: string; event_payload?: Record<string, unknown> } | undefined;
  return (
    meta?.event_type === 'pix_approval_notice' && meta.event_payload?.approval_id === id && meta.event_payload.notice === 'payment-end'
  );
};
const endReplies = (h: Harness, root: PendingRoot) => threadPosts(h, root).filter((c) => isEndReply(c, root.id));

async function controlSandbox(h: Harness, path: string, body?: unknown) {
  return sandboxApi(h, 'POST', path, undefined, body);
}

/** A payment asked by OPERATOR, its approval recorded with its root (what a checker's click finds). */
async function askedPayment(flows: Flows, value: number) {
  const asked = await flows.pay({ value: reais(value) });
  await asked.shown();
  return asked;
}

/** A payment asked by OPERATOR and approved by CHECKER, sent at the service: its root and record. */
async function sentPayment(h: Harness, flows: Flows, value = 12_345): Promise<PendingRoot> {
  const asked = await askedPayment(flows, value);
  await clickRoot(h, CHECKER, asked.root, 'approval_approve');
  await waitFor(
    'the payment sent',
    async () => {
      const stage = (await moneyOutRecords(h.app.deps.store.records).get(asked.root.id))?.stage;
      if (stage && stage !== 'sending' && stage !== 'sent') throw new Error(`the payment is ${stage}`);
      return stage === 'sent';
    },
    10_000,
  ).catch((err: unknown) => {
    throw new Error(`${String(err)}\n${h.logs.slice(-40).join('\n')}`);
  });
  return asked.root;
}

const recordOf = (h: Harness, id: string) => moneyOutRecords(h.app.deps.store.records).get(id);

/** A payment-end webhook, as the service shapes it (pix-money-out.md §5). */
function movementBody(
  kind: 'MOVEMENT_CONFIRMED' | 'MOVEMENT_FAILED' | 'MOVEMENT_REMOVED',
  correlationID: string,
  extra: Record<string, unknown> = {},
) {
  return JSON.stringify({
    event: `OPENPIX:${kind}`,
    payment: { value: 12_345, status: kind.replace('MOVEMENT_', ''), correlationID },
    ...(kind === 'MOVEMENT_REMOVED'
      ? {}
      : {
          transaction: { value: 12_345, endToEndId: `E${correlationID.replace(/-/g, '').slice(0, 20)}X`, time: new Date().toISOString() },
        }),
    ...extra,
  });
}

const auditOf = async (h: Harness, action: string) =>
  (await h.app.deps.store.audit.page({ since: new Date(0), limit: 5_000 })).filter((e) => e.action === action);

describe('a sent payment’s end, by webhook, in its approval’s thread', () => {
  let h: Harness;
  let flows: Flows;
  const account = () => h.sandbox.companies.main.defaultAccountId;

  beforeAll(async () => {
    h = await startHarness({
      PIX_EVENTS_CHANNEL: EVENTS,
      ACCESS_OPERATORS: `${OPERATOR},${CHECKER}`,
      ACCESS_VIEWERS: VIEWER,
    });
    h.sandbox.webhooks.setTarget(receiverUrl(h));
    await controlSandbox(h, '/sandbox/payments/confirm-delay', { ms: CONFIRM_DELAY_MS });
    flows = paymentFlows(h, { channel: CHANNEL, operator: OPERATOR });
  });
  afterAll(() => h.close());
  afterEach(async () => {
    await sandboxApi(h, 'DELETE', '/sandbox/payments/fail', undefined);
  });

  const settleAtService = () => controlSandbox(h, '/sandbox/clock', { advanceMs: CONFIRM_DELAY_MS + 1_000 });
  const eventsPosts = () => h.slack.callsOf('chat.postMessage').filter((c) => c.args.channel === EVENTS);

  test('confirmed: one reply with the endToEndId, the root shows it, the day still counts it, one audit entry; nothing in the events channel', async () => {
    const root = await sentPayment(h, flows);
    const eventsBefore = eventsPosts().length;
    await settleAtService();
    const [reply] = await waitFor('the confirmed reply', () => (endReplies(h, root).length ? endReplies(h, root) : undefined), 10_000);
    const text = messageText(reply!.args);
    expect(text).toContain('Payment confirmed');
    expect(text).toContain('R$123.45');
    const record = await waitFor('replied', async () => ((await recordOf(h, root.id))?.replied ? recordOf(h, root.id) : undefined));
    expect(record.stage).toBe('confirmed');
    expect(text).toContain(record.endToEndId!);
    await waitFor('the root updated', () =>
      h.slack.callsOf('chat.update').some((c) => c.args.ts === root.ts && /confirmed/i.test(messageText(c.args))),
    );
    expect(await new DayLimit(h.app.deps.store.records, undefined).total(record.day)).toBeGreaterThanOrEqual(12_345);
    expect(await openPayments(h.app.deps.store.records).get(root.id)).toBeUndefined();
    const audits = (await auditOf(h, 'payment:confirmed')).filter((e) => e.target?.includes(root.id));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ outcome: 'ok', maker: OPERATOR });
    expect(eventsPosts().length).toBe(eventsBefore);
    expect(endReplies(h, root)).toHaveLength(1);
  });

  test('failed with a code: its meaning in words and the service’s text; released from the day; the audit entry names the code', async () => {
    await controlSandbox(h, '/sandbox/payments/fail', { code: 'PIX_KEY_INFO_NOT_FOUND', count: 1 });
    const root = await sentPayment(h, flows, 20_000);
    const day = (await recordOf(h, root.id))!.day;
    const before = await new DayLimit(h.app.deps.store.records, undefined).total(day);
    await settleAtService();
    const [reply] = await waitFor('the failed reply', () => (endReplies(h, root).length ? endReplies(h, root) : undefined), 10_000);
    const text = messageText(reply!.args);
    expect(text).toContain('Payment failed');
    expect(text).toContain('the key is not registered at any bank');
    expect(text).toContain('PIX_KEY_INFO_NOT_FOUND');
    expect(text).toContain('Chave Pix não encontrada');
    await waitFor('replied', async () => (await recordOf(h, root.id))?.replied === true);
    expect((await recordOf(h, root.id))!.stage).toBe('failed');
    expect(await new DayLimit(h.app.deps.store.records, undefined).total(day)).toBe(before - 20_000);
    const audits = (await auditOf(h, 'payment:failed')).filter((e) => e.target?.includes(root.id));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.detail).toContain('PIX_KEY_INFO_NOT_FOUND');
  });

  test('NOT_ENOUGH_BALANCE: the reply shows the account’s available balance as read then', async () => {
    await controlSandbox(h, '/sandbox/payments/fail', { code: 'NOT_ENOUGH_BALANCE', count: 1 });
    const root = await sentPayment(h, flows, 7_000);
    await settleAtService();
    const [reply] = await waitFor('the failed reply', () => (endReplies(h, root).length ? endReplies(h, root) : undefined), 10_000);
    const info = await sandboxApi<{ account: { balance: { available: number } } }>(
      h,
      'GET',
      `/api/v1/account/${account()}`,
      h.sandbox.companies.main.mainAppId,
    );
    const available = (info.account.balance.available / 100).toLocaleString('en-US', { minimumFractionDigits: 2 });
    expect(messageText(reply!.args)).toContain(`has R$${available} available now`);
    expect(messageText(reply!.args)).toContain('does not have enough balance');
  });

  test('REACH_TRANSFER_LIMIT: the reply’s button opens the limit form for the account paid from; a viewer is refused, nothing opened', async () => {
    await controlSandbox(h, '/sandbox/payments/fail', { code: 'REACH_TRANSFER_LIMIT', count: 1 });
    const root = await sentPayment(h, flows);
    await settleAtService();
    const [reply] = await waitFor('the failed reply', () => (endReplies(h, root).length ? endReplies(h, root) : undefined), 10_000);
    const button = (reply!.args.blocks as Array<{ accessory?: { action_id: string; value: string } }>)
      .map((b) => b.accessory)
      .find((a) => a?.action_id === 'payment_limit_request')!;
    expect(button).toBeDefined();
    expect(messageText(reply!.args)).toContain('daytime or night-time Pix limit');

    const refusedFrom = h.slack.calls.length;
    const refused = await clickButton(h, {
      userId: VIEWER,
      actionId: 'payment_limit_request',
      value: button.value,
      channelId: root.channel,
      messageTs: (reply!.response as { ts: string }).ts,
      ephemeral: false,
    });
    expect(refused.status).toBe(200);
    await waitFor('the refusal', () => h.slack.responsesTo(refused.responseId)[0]);
    expect(messageText(h.slack.responsesTo(refused.responseId)[0]!.body)).toMatch(/operator/);
    expect(h.slack.calls.slice(refusedFrom).filter((c) => c.method === 'views.open')).toHaveLength(0);

    const from = h.slack.calls.length;
    await clickButton(h, {
      userId: OPERATOR,
      actionId: 'payment_limit_request',
      value: button.value,
      channelId: root.channel,
      ephemeral: false,
    });
    const opened = await waitFor('the limit form', () => h.slack.calls.slice(from).find((c) => c.method === 'views.open'));
    const filled = await waitFor('the form filled in', () =>
      h.slack.calls
        .slice(from)
        .find((c) => c.method === 'views.update' && (c.args.view as { callback_id?: string }).callback_id === 'limit_request'),
    );
    expect(opened.args.trigger_id).toBeDefined();
    expect(JSON.parse((filled.args.view as { private_metadata: string }).private_metadata).accountId).toBe(account());
  });

  test('payment_limit_request: a value that is no account opens the form on the default account; the Pix API failing says so in the form', async () => {
    const click = () =>
      clickButton(h, {
        userId: OPERATOR,
        actionId: 'payment_limit_request',
        value: '{"accountId":"../x"}',
        channelId: CHANNEL,
        ephemeral: false,
      });
    const updated = async (from: number) =>
      (await waitFor('the form’s update', () => h.slack.calls.slice(from).find((c) => c.method === 'views.update'), 10_000)).args.view as {
        callback_id?: string;
        private_metadata?: string;
      };
    let from = h.slack.calls.length;
    await click();
    const form = await updated(from);
    expect(form.callback_id).toBe('limit_request');
    expect(JSON.parse(form.private_metadata!).accountId).toBe(account());

    await controlSandbox(h, '/sandbox/faults', { fail: { status: 503, count: 20, method: 'GET' } });
    from = h.slack.calls.length;
    await click();
    const failed = await updated(from);
    await sandboxApi(h, 'DELETE', '/sandbox/faults', undefined);
    expect(failed.callback_id).not.toBe('limit_request');
    expect(messageText(failed)).toMatch(/could not|503/i);
  });

  test('removed: a payment approved short of balance, removed in the web app, ends removed in its thread', async () => {
    const asked = await askedPayment(flows, 900_000_000);
    await clickRoot(h, CHECKER, asked.root, 'approval_approve');
    await waitFor('the payment short', async () => (await recordOf(h, asked.root.id))?.stage === 'short', 10_000);
    await controlSandbox(h, `/sandbox/payments/${asked.root.id}/remove`);
    const [reply] = await waitFor(
      'the removed reply',
      () => (endReplies(h, asked.root).length ? endReplies(h, asked.root) : undefined),
      10_000,
    );
    expect(messageText(reply!.args)).toContain('Payment removed');
    await waitFor('replied', async () => (await recordOf(h, asked.root.id))?.replied === true);
    expect((await recordOf(h, asked.root.id))!.stage).toBe('removed');
    expect((await auditOf(h, 'payment:removed')).filter((e) => e.target?.includes(asked.root.id))).toHaveLength(1);
  });

  test('a replayed webhook: answered 200, no second reply, no second audit entry', async () => {
    const root = await sentPayment(h, flows);
    const body = movementBody('MOVEMENT_CONFIRMED', root.id);
    expect((await sendSigned(h, body)).status).toBe(200);
    await waitFor('the reply', () => endReplies(h, root).length === 1, 10_000);
    await waitFor('replied', async () => (await recordOf(h, root.id))?.replied === true);
    await waitFor('nothing pending', async () => (await h.app.deps.store.pixEvents.pending()).length === 0, 10_000);
    const auditsBefore = (await auditOf(h, 'webhook:MOVEMENT_CONFIRMED')).length;
    for (let i = 0; i < 3; i++) expect((await sendSigned(h, body)).status).toBe(200);
    expect(await h.app.deps.store.pixEvents.pending()).toEqual([]);
    expect((await auditOf(h, 'webhook:MOVEMENT_CONFIRMED')).length).toBe(auditsBefore);
    // A later, different event of the same end (the service's own delivery): recorded, and still no second reply.
    await settleAtService();
    await waitFor('nothing pending', async () => (await h.app.deps.store.pixEvents.pending()).length === 0, 10_000);
    expect(endReplies(h, root)).toHaveLength(1);
    expect((await auditOf(h, 'payment:confirmed')).filter((e) => e.target?.includes(root.id))).toHaveLength(1);
  });

  test('an unknown correlationID is an event like any other: not listed in PIX_EVENTS, answered 200 and posted nowhere', async () => {
    const before = h.slack.callsOf('chat.postMessage').length;
    const body = movementBody('MOVEMENT_CONFIRMED', 'made-elsewhere-1');
    expect((await sendSigned(h, body)).status).toBe(200);
    const recorded = await h.app.deps.store.pixEvents.get(createHash('sha256').update(body).digest('hex'));
    expect(recorded).toMatchObject({ kind: 'MOVEMENT_CONFIRMED', dropped: 'not_listed' });
    expect(recorded?.movement).toBeUndefined();
    expect(h.slack.callsOf('chat.postMessage').length).toBe(before);
  });

  test('a webhook that comes while the approve’s answer is still on its way: settled once the payment is recorded sent', async () => {
    const asked = await askedPayment(flows, 1_111);
    await controlSandbox(h, '/sandbox/faults', {
      lateAnswer: { count: 1, ms: 1_500, method: 'POST', pathPrefix: '/api/v1/payment/approve' },
    });
    await clickRoot(h, CHECKER, asked.root, 'approval_approve');
    await waitFor('approved at the service', async () => {
      const read = await sandboxApi<{ payment: { status: string } }>(
        h,
        'GET',
        `/api/v1/payment/${asked.root.id}`,
        h.sandbox.companies.main.mainAppId,
      ).catch(() => undefined);
      return read?.payment.status === 'APPROVED';
    });
    expect((await recordOf(h, asked.root.id))?.stage).toBe('sending');
    expect((await sendSigned(h, movementBody('MOVEMENT_CONFIRMED', asked.root.id))).status).toBe(200);
    await waitFor('the reply', () => endReplies(h, asked.root).length > 0, 20_000);
    await waitFor('replied', async () => (await recordOf(h, asked.root.id))?.replied === true);
    expect((await recordOf(h, asked.root.id))!.stage).toBe('confirmed');
    expect(endReplies(h, asked.root)).toHaveLength(1);
    await sandboxApi(h, 'DELETE', '/sandbox/faults', undefined);
  });

  test('webhook and poll racing: one reply', async () => {
    const root = await sentPayment(h, flows);
    await settleAtService();
    await Promise.all([h.app.poller.tick(), h.app.poller.tick()]);
    await waitFor('the reply', () => endReplies(h, root).length > 0, 10_000);
    await waitFor('nothing pending', async () => (await h.app.deps.store.pixEvents.pending()).length === 0, 10_000);
    await h.app.poller.tick();
    expect(endReplies(h, root)).toHaveLength(1);
    expect((await auditOf(h, 'payment:confirmed')).filter((e) => e.target?.includes(root.id))).toHaveLength(1);
  });
});

describe('a sent payment’s end by the poll alone (no PIX_EVENTS_CHANNEL)', () => {
  let h: Harness;
  let flows: Flows;

  beforeAll(async () => {
    h = await startHarness({ ACCESS_OPERATORS: `${OPERATOR},${CHECKER}`, ACCESS_VIEWERS: VIEWER, DIGEST_CHANNEL: 'C0DIGEST' });
    await controlSandbox(h, '/sandbox/payments/confirm-delay', { ms: CONFIRM_DELAY_MS });
    flows = paymentFlows(h, { channel: CHANNEL, operator: OPERATOR });
  });
  afterAll(() => h.close());

  const reads = (id: string, since = 0) =>
    h.sandbox.calls.slice(since).filter((c) => c.method === 'GET' && c.path === `/api/v1/payment/${id}`);

  test('in progress: read with PIX_APP_ID, nothing posted; final: one reply, then no more reads', async () => {
    const root = await sentPayment(h, flows);
    const since = h.sandbox.calls.length;
    await h.app.poller.tick();
    expect(reads(root.id, since)).toHaveLength(1);
    expect(reads(root.id, since)[0]!.authorization).toBe(h.sandbox.companies.main.mainAppId);
    expect(endReplies(h, root)).toHaveLength(0);
    await controlSandbox(h, '/sandbox/clock', { advanceMs: CONFIRM_DELAY_MS + 1_000 });
    await h.app.poller.tick();
    expect(endReplies(h, root)).toHaveLength(1);
    expect(messageText(endReplies(h, root)[0]!.args)).toContain('Payment confirmed');
    const after = h.sandbox.calls.length;
    await h.app.poller.tick();
    expect(reads(root.id, after)).toHaveLength(0);
    expect(endReplies(h, root)).toHaveLength(1);
  });

  test('the Pix API failing during the poll: nothing lost, nothing posted; a later poll settles it', async () => {
    const root = await sentPayment(h, flows);
    await controlSandbox(h, '/sandbox/clock', { advanceMs: CONFIRM_DELAY_MS + 1_000 });
    await controlSandbox(h, '/sandbox/faults', { fail: { status: 503, count: 50, method: 'GET', pathPrefix: '/api/v1/payment/' } });
    await h.app.poller.tick();
    expect(endReplies(h, root)).toHaveLength(0);
    expect((await recordOf(h, root.id))!.stage).toBe('sent');
    expect(await openPayments(h.app.deps.store.records).get(root.id)).toBeDefined();
    await sandboxApi(h, 'DELETE', '/sandbox/faults', undefined);
    await h.app.poller.tick();
    expect(endReplies(h, root)).toHaveLength(1);
    expect((await recordOf(h, root.id))!.stage).toBe('confirmed');
  });

  test('/pix digest: sent since the last digest and the failures, in R$; the Home tab: what waits for the checker and the maker', async () => {
    await controlSandbox(h, '/sandbox/payments/fail', { code: 'INVALID_PIX_KEY', count: 1 });
    const failed = await sentPayment(h, flows, 5_000);
    await controlSandbox(h, '/sandbox/clock', { advanceMs: CONFIRM_DELAY_MS + 1_000 });
    await h.app.poller.tick();
    expect((await recordOf(h, failed.id))!.stage).toBe('failed');
    // Two sent by the tests before (R$ 123.45 each), and this one.
    const res = await h.slash(VIEWER, 'digest', { channelId: CHANNEL });
    const digest = messageText((await waitFor('the digest', () => h.slack.responsesTo(res.responseId)[0])).body);
    expect(digest).toContain('Sent: 3 payment(s) and withdrawal(s), R$296.90 in all');
    expect(digest).toContain('Failed: 1 payment(s), R$50.00 in all');

    // Waiting: one asked by the operator (R$ 10.00), for the checker to decide.
    await flows.pay({ value: reais(1_000) });
    const home = async (userId: string) => {
      const from = h.slack.calls.length;
      await openHome(h, userId);
      const call = await waitFor(
        'the Home tab',
        () => h.slack.calls.slice(from).find((c) => c.method === 'views.publish' && c.args.user_id === userId),
        10_000,
      );
      return messageText(call.args.view);
    };
    expect(await home(CHECKER)).toContain('Waiting for you: 1, R$10.00 in all');
    expect(await home(OPERATOR)).toContain('Yours, waiting for a checker: 1, R$10.00 in all');
  });
});
