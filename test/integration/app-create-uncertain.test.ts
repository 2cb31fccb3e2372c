import {
  buttonsOf,
  clickButton,
  expectNoLeaks,
  openedModal,
  posts,
  sandboxApi,
  startHarnessWithMaster,
  submitModal,
  viewUpdates,
} from '../support/accounts-harness';
import { type Harness, messageText } from '../support/harness';
import { waitFor } from '../support/wait';

const ADMIN = 'U0ADMIN01';
const OPERATOR = 'U0OPER001';
const CHANNEL = 'C0UNSURE1';

type PortalApp = { name: string; clientId: string; appID: string };

/**
 * "Retry creating the application" after a create whose answer never came. The Pix API has no read of
 * an account's applications, so the app cannot look: it records the attempt before sending it, and
 * after an unclear outcome never creates again unless an admin, having looked, says there is none.
 */
describe('an application creation whose answer never came', () => {
  let h: Harness;
  const secrets: string[] = [];
  beforeAll(async () => {
    h = await startHarnessWithMaster({ ACCESS_ADMINS: ADMIN, ACCESS_OPERATORS: OPERATOR, PIX_TIMEOUT_MS: '2000' });
    secrets.push(h.sandbox.companies.main.masterAppId, h.sandbox.companies.main.mainAppId);
  });
  afterAll(() => h.close());

  const answerOf = async (responseId: string) =>
    (await waitFor(`an answer on ${responseId}`, () => h.slack.responsesTo(responseId)[0])).body;
  /** What the service's portal shows for the account (the interface itself cannot list it). */
  const portal = async (accountId: string) =>
    (await sandboxApi<{ applications: PortalApp[] }>(h, 'GET', `/sandbox/accounts/${accountId}/applications`)).applications;
  const creates = (since: number) => h.sandbox.calls.slice(since).filter((c) => c.method === 'POST' && c.path === '/api/v1/application');

  /** `/pix account create` with the application's answer held past PIX_TIMEOUT_MS: the account and the channel's message. */
  const createWithLostAnswer = async (name: string) => {
    await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
      lateAnswer: { ms: 3_000, count: 1, method: 'POST', pathPrefix: '/api/v1/application' },
    });
    const slackBefore = h.slack.calls.length;
    const pixBefore = h.sandbox.calls.length;
    await h.slash(ADMIN, 'account create', { channelId: CHANNEL });
    const modal = await openedModal(h, slackBefore, 'account_create');
    await submitModal(h, ADMIN, modal, { name: { name: { type: 'plain_text_input', value: name } } });
    const failure = await waitFor('the channel told', () => posts(h, slackBefore)[0], 10_000);
    const accountId = /campaign account `([0-9a-f]{24})`/.exec(messageText(failure.args))![1]!;
    const inModal = await waitFor('the admin told', () =>
      viewUpdates(h, slackBefore, modal.viewId).find((c) => messageText(c.args.view).includes('may exist')),
    );
    return { accountId, failure, inModal, modal, pixBefore, ts: (failure.response as { ts: string }).ts };
  };

  test('after a time-out no Retry is offered: it may exist, the app says why it cannot look, and a Retry from an older message creates nothing', async () => {
    const { accountId, failure, inModal, pixBefore, ts } = await createWithLostAnswer('Carnival');
    const text = messageText(failure.args);
    expect(text).toContain(
      `<@${ADMIN}> created the campaign account \`${accountId}\` (“Carnival”); whether its application was created is not known (the Pix service did not answer in time): it may exist.`,
    );
    expect(text).toContain('The Pix API offers no way to list an account’s applications');
    expect(text).toContain(`/pix account link ${accountId}`);
    // The way out sits behind Slack's own confirmation dialog, and is no Retry.
    const buttons = buttonsOf(failure.args) as Array<{ action_id: string; confirm?: { text: { text: string } } }>;
    expect(buttons.map((b) => b.action_id)).toEqual(['account_app_create_anyway']);
    expect(buttons[0]!.confirm?.text.text).toContain('if it has one, this creates a second one');
    expect(buttonsOf(inModal.args.view).map((b) => b.action_id)).toEqual(['account_app_create_anyway']);
    expect(messageText(inModal.args.view)).toContain('whether its application was is not known: the Pix service did not answer in time');
    expect(creates(pixBefore)).toHaveLength(1);
    // The service did create it, after the bot stopped waiting.
    await waitFor('the application in the portal', async () => (await portal(accountId)).length === 1 || undefined, 5_000);

    // The plain Retry (a button of an older message, the same value): nothing is sent.
    const value = buttonsOf(failure.args)[0]!.value!;
    const before = h.sandbox.calls.length;
    const retry = await clickButton(h, {
      userId: ADMIN,
      actionId: 'account_app_retry',
      value,
      channelId: CHANNEL,
      messageTs: ts,
      ephemeral: false,
    });
    const said = await answerOf(retry.responseId);
    expect(messageText(said)).toContain('got no clear answer: *it may exist*. Nothing was created.');
    expect(buttonsOf(said).map((b) => b.action_id)).toEqual(['account_app_create_anyway']);
    expect(creates(before)).toEqual([]);
    // /pix accounts says so too.
    const listed = await h.slash(ADMIN, 'accounts');
    expect(messageText(await answerOf(listed.responseId))).toContain('its application may exist (its creation got no clear answer)');

    // The admin looks in the portal, finds it, and links its AppID: the account is whole, and "create
    // anyway" now creates nothing.
    const [app] = await portal(accountId);
    secrets.push(app!.appID);
    const slackBefore = h.slack.calls.length;
    await h.slash(ADMIN, `account link ${accountId}`, { channelId: CHANNEL });
    const link = await openedModal(h, slackBefore, 'account_link');
    const linked = await submitModal(h, ADMIN, link, { app_id: { app_id: { type: 'plain_text_input', value: app!.appID } } });
    expect(messageText(linked.body)).toContain('checked with the Pix API and stored encrypted');
    const anyway = await clickButton(h, {
      userId: ADMIN,
      actionId: 'account_app_create_anyway',
      value,
      channelId: CHANNEL,
      messageTs: ts,
      ephemeral: false,
    });
    expect(messageText(await answerOf(anyway.responseId))).toContain('already has its application');
    expect(creates(before)).toEqual([]);
    expect(await portal(accountId)).toHaveLength(1);
  });

  test('the attempt is recorded in the store before the create is sent: a crash while waiting leaves it marked', async () => {
    await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
      lateAnswer: { ms: 3_000, count: 1, method: 'POST', pathPrefix: '/api/v1/application' },
    });
    const slackBefore = h.slack.calls.length;
    const pixBefore = h.sandbox.calls.length;
    await h.slash(ADMIN, 'account create', { channelId: CHANNEL });
    const modal = await openedModal(h, slackBefore, 'account_create');
    await submitModal(h, ADMIN, modal, { name: { name: { type: 'plain_text_input', value: 'Harvest' } } });
    // The create has reached the service and the bot is still waiting for its answer.
    const sent = await waitFor('the create sent', () => creates(pixBefore)[0]);
    const accountId = (sent.body as { accountId: string }).accountId;
    expect(await h.app.deps.store.accountApps.get(accountId)).toMatchObject({
      appId: '',
      name: 'Harvest',
      uncertainSince: expect.any(String),
    });
    expect(viewUpdates(h, slackBefore, modal.viewId).some((c) => messageText(c.args.view).includes('may exist'))).toBe(false);
    await waitFor('the admin told', () =>
      viewUpdates(h, slackBefore, modal.viewId).find((c) => messageText(c.args.view).includes('may exist')),
    );
  });

  test('a gateway’s 504 (no answer from the service): an admin who found no application in the portal creates it, once, behind the confirmation', async () => {
    await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
      fail: { status: 504, count: 1, method: 'POST', pathPrefix: '/api/v1/application' },
    });
    const slackBefore = h.slack.calls.length;
    await h.slash(ADMIN, 'account create', { channelId: CHANNEL });
    const modal = await openedModal(h, slackBefore, 'account_create');
    await submitModal(h, ADMIN, modal, { name: { name: { type: 'plain_text_input', value: 'Spring' } } });
    const failure = await waitFor('the channel told', () => posts(h, slackBefore)[0]);
    expect(messageText(failure.args)).toContain('(a gateway answered HTTP 504 instead of the Pix service): it may exist');
    const accountId = /campaign account `([0-9a-f]{24})`/.exec(messageText(failure.args))![1]!;
    const ts = (failure.response as { ts: string }).ts;
    const value = buttonsOf(failure.args)[0]!.value!;
    expect(await portal(accountId)).toEqual([]);

    const before = h.sandbox.calls.length;
    const refused = await clickButton(h, {
      userId: OPERATOR,
      actionId: 'account_app_create_anyway',
      value,
      channelId: CHANNEL,
      messageTs: ts,
      ephemeral: false,
    });
    expect(messageText(await answerOf(refused.responseId))).toContain('*admin* role');
    const slackAnyway = h.slack.calls.length;
    const anyway = await clickButton(h, {
      userId: ADMIN,
      actionId: 'account_app_create_anyway',
      value,
      channelId: CHANNEL,
      messageTs: ts,
      ephemeral: false,
    });
    const answer = await answerOf(anyway.responseId);
    const secret = /```([^`]+)```/.exec(messageText(answer))![1]!;
    const stored = await h.app.deps.store.accountApps.get(accountId);
    secrets.push(secret, stored!.appId);
    expect(stored).not.toHaveProperty('uncertainSince');
    expect(creates(before)).toHaveLength(1);
    // The channel's message is closed: its button is gone.
    const update = await waitFor('the message closed', () => h.slack.calls.slice(slackAnyway).find((c) => c.method === 'chat.update'));
    expect(update.args).toMatchObject({ channel: CHANNEL, ts });
    expect(buttonsOf(update.args)).toEqual([]);
    // A second click creates nothing more; the account has one application.
    const again = await clickButton(h, {
      userId: ADMIN,
      actionId: 'account_app_create_anyway',
      value,
      channelId: CHANNEL,
      messageTs: ts,
      ephemeral: false,
    });
    expect(messageText(await answerOf(again.responseId))).toContain('already has its application');
    expect(creates(before)).toHaveLength(1);
    expect(await portal(accountId)).toHaveLength(1);
  });

  test('no AppID or client secret in the logs, in channel messages, or in the store file', () => {
    expectNoLeaks(h, secrets);
  });
});
