import { StoreUnavailableError } from '../../src/store';
import { control } from '../sandbox/helpers';
import { type Harness, messageText, startHarness } from '../support/harness';
import { addProof, modalTexts, openLimitForm, requestsOf, rootsIn, submitLimitForm } from '../support/limit-form';
import { approve, decisionReplies, newAccount } from '../support/limit-requests';
import { waitFor } from '../support/wait';

const OPERATOR = 'U0OPER001';
/** The operator's DM with the bot, as the fake Slack's conversations.open names it. */
const OPERATOR_DM = 'D0OPER001';

/**
 * once `POST /limits/request` is sent, the request is followed whatever fails after
 * it (the store, Slack, the Pix API's answer), and the person is never told it was not filed when it
 * was. The kills of the process at each step are in limit-request-kill.test.ts.
 */
describe('a filed limit request is always followed', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ ACCESS_OPERATORS: OPERATOR });
  });
  afterAll(() => h.close());
  afterEach(async () => {
    jest.restoreAllMocks();
    h.slack.off('views.update');
    h.slack.closedChannels.clear();
    await control(h.sandbox, 'DELETE', '/faults');
  });

  const repo = () => h.app.deps.store.trackedRequests;
  const dmDecisions = () => h.slack.messages.filter((m) => m.channel === OPERATOR_DM && m.metadata?.event_type === 'pix_limit_decision');

  test('the store failing as the request is tracked: told its id and that it is filed; the next tick follows it and the decision reaches its thread', async () => {
    const channel = 'C0FOLLOW01';
    const account = await newAccount(h.sandbox);
    const form = await openLimitForm(h, { userId: OPERATOR, accountId: account, channelId: channel });
    jest.spyOn(repo(), 'track').mockRejectedValueOnce(new StoreUnavailableError('set', new Error('injected: Redis went away')));
    const from = h.slack.calls.length;
    await submitLimitForm(h, form, { userId: OPERATOR, dayLimit: '7000', files: [addProof(h.slack)] });

    const shown = await waitFor('the outcome in the modal', () => modalTexts(h.slack, form.viewId, from).find((t) => !t.includes('…')));
    const [filed] = await requestsOf(h.sandbox, account);
    expect(shown).toContain(`Request \`${filed!.id}\` filed and in review`);
    expect(shown).toContain('Do not file it again');
    expect(shown).not.toContain('No request message was posted');
    const [root] = rootsIn(h.slack, channel);
    expect(root?.metadata?.event_payload.limit_request_id).toBe(filed!.id);
    expect(await repo().get(filed!.id)).toBeUndefined(); // the store failed: not followed yet

    // The next tick reconciles the filing intent: tracked, with the root already posted (not a second one).
    await h.app.poller.tick();
    expect(await repo().get(filed!.id)).toMatchObject({ channel, rootTs: root!.ts, closed: false });
    expect(rootsIn(h.slack, channel)).toHaveLength(1);

    await approve(h.sandbox, filed!.id);
    await h.app.poller.tick();
    expect(decisionReplies(h.slack.messages, { channel, rootTs: root!.ts })).toHaveLength(1);
    expect(await repo().get(filed!.id)).toMatchObject({ closed: true });
  });

  test('neither the channel nor a DM takes the root: the request is still followed, and its decision goes to the DM once Slack takes it', async () => {
    const channel = 'C0FOLLOW02';
    h.slack.closedChannels.add(channel);
    h.slack.closedChannels.add(OPERATOR_DM);
    const account = await newAccount(h.sandbox);
    const form = await openLimitForm(h, { userId: OPERATOR, accountId: account, channelId: channel });
    const from = h.slack.calls.length;
    await submitLimitForm(h, form, { userId: OPERATOR, dayLimit: '7000', files: [addProof(h.slack)] });

    const shown = await waitFor('the outcome in the modal', () => modalTexts(h.slack, form.viewId, from).find((t) => !t.includes('…')));
    const [filed] = await requestsOf(h.sandbox, account);
    expect(shown).toContain(`Request \`${filed!.id}\` filed and in review`);
    expect(shown).toContain('its decision will be sent to you in a direct message');
    expect(await repo().openIds()).toContain(filed!.id);
    expect((await repo().get(filed!.id))?.rootTs).toBeUndefined();

    h.slack.closedChannels.clear();
    await approve(h.sandbox, filed!.id);
    const report = await h.app.poller.tick();
    expect(report.failed).toBe(0);
    const [dm] = dmDecisions().filter((m) => m.metadata?.event_payload.limit_request_id === filed!.id);
    expect(messageText(dm)).toContain(`<@${OPERATOR}>`);
    expect(messageText(dm)).toContain('could not be posted in a channel, so the decision comes here');
    expect(await repo().get(filed!.id)).toMatchObject({ closed: true, reply: { ts: dm!.ts, channel: OPERATOR_DM, status: 'APPROVED' } });
    await h.app.poller.tick();
    expect(dmDecisions().filter((m) => m.metadata?.event_payload.limit_request_id === filed!.id)).toHaveLength(1);
  });

  test('no answer from the Pix API while it filed the request anyway: told it may have been filed; the next tick finds it, posts its root and follows it', async () => {
    const channel = 'C0FOLLOW03';
    const account = await newAccount(h.sandbox);
    const form = await openLimitForm(h, { userId: OPERATOR, accountId: account, channelId: channel });
    // Hold the "Filing the request…" update (sent just before the request) until the Pix API is slow.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    h.slack.on('views.update', async (args) => {
      if (messageText(args.view).includes('Filing the request')) await held;
      return h.slack.answerByDefault('views.update', args);
    });
    const from = h.slack.calls.length;
    await submitLimitForm(h, form, { userId: OPERATOR, dayLimit: '7000', files: [addProof(h.slack)] });
    await waitFor('the filing step', () => modalTexts(h.slack, form.viewId, from).some((t) => t.includes('Filing the request')));
    // Longer than PIX_TIMEOUT_MS (3 s): the app gives up on the answer; the sandbox files it anyway.
    await control(h.sandbox, 'POST', '/faults', { latencyMs: 3_500 });
    release();

    const shown = await waitFor(
      'the outcome in the modal',
      () => modalTexts(h.slack, form.viewId, from).find((t) => t.includes('did not answer')),
      8_000,
    );
    expect(shown).toContain('it may or may not have been done');
    expect(shown).toContain('If it was filed, its message will be posted');
    expect(rootsIn(h.slack, channel)).toEqual([]);
    await control(h.sandbox, 'DELETE', '/faults');
    const [filed] = await waitFor('the request filed by the sandbox', async () => {
      const list = await requestsOf(h.sandbox, account);
      return list.length ? list : undefined;
    });

    await h.app.poller.tick();
    const roots = rootsIn(h.slack, channel);
    expect(roots).toHaveLength(1);
    expect(roots[0]!.metadata?.event_payload.limit_request_id).toBe(filed!.id);
    expect(messageText(roots[0])).toContain(`<@${OPERATOR}>`);
    expect(await repo().get(filed!.id)).toMatchObject({ channel, rootTs: roots[0]!.ts, requested: { pixDayLimit: 700000 } });

    await approve(h.sandbox, filed!.id);
    await h.app.poller.tick();
    expect(decisionReplies(h.slack.messages, { channel, rootTs: roots[0]!.ts })).toHaveLength(1);
  });

  test('a filing cut short before the request was sent: once it has settled, its requester is told it was not filed (once)', async () => {
    const account = await newAccount(h.sandbox);
    const intents = h.app.deps.store.filingIntents;
    const base = {
      requesterId: OPERATOR,
      channel: 'C0FOLLOW04',
      accountId: account,
      current: { pixDayLimit: 500000 },
      requested: { pixDayLimit: 700000 },
      documents: [],
    };
    await intents.record({ ...base, intentId: 'settled-intent', createdAt: new Date(Date.now() - 3 * 60_000).toISOString() });
    await intents.record({ ...base, intentId: 'recent-intent', createdAt: new Date().toISOString() });

    await h.app.poller.tick();
    const notices = () => h.slack.messages.filter((m) => m.channel === OPERATOR_DM && m.metadata?.event_type === 'pix_limit_not_filed');
    expect(notices()).toHaveLength(1);
    expect(notices()[0]!.metadata?.event_payload).toEqual({ intent_id: 'settled-intent' });
    expect(messageText(notices()[0])).toContain(`account \`${account}\``);
    expect(messageText(notices()[0])).toContain('it was not filed');
    // The recent one may still be on its way to the Pix API: left for a later tick.
    expect((await intents.list()).map((i) => i.intentId)).toEqual(['recent-intent']);
    await intents.delete('recent-intent');
    await h.app.poller.tick();
    expect(notices()).toHaveLength(1);
  });
});
