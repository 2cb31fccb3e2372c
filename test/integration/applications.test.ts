import {
  buttonsOf,
  type CreatedCampaign,
  clickButton,
  createCampaign,
  expectNoLeaks,
  posts,
  startHarnessWithMaster,
} from '../support/accounts-harness';
import { type Harness, messageText, startHarness } from '../support/harness';
import { waitFor } from '../support/wait';

const ADMIN = 'U0ADMIN01';
const OPERATOR = 'U0OPER001';
const VIEWER = 'U0VIEWER1';
const STRANGER = 'U0NOBODY1';
const CHANNEL = 'C0APPS001';

const answerOf = async (h: Harness, responseId: string) =>
  (await waitFor(`an answer on ${responseId}`, () => h.slack.responsesTo(responseId)[0])).body;

describe('/pix scopes and /pix rotate-secret', () => {
  let h: Harness;
  let campaign: CreatedCampaign;
  const secrets: string[] = [];

  beforeAll(async () => {
    h = await startHarnessWithMaster({ ACCESS_ADMINS: ADMIN, ACCESS_OPERATORS: OPERATOR, ACCESS_VIEWERS: VIEWER });
    campaign = await createCampaign(h, ADMIN, 'Rotating', CHANNEL);
    secrets.push(h.sandbox.companies.main.masterAppId, h.sandbox.companies.main.mainAppId, campaign.appId, campaign.clientSecret);
  });
  afterAll(() => h.close());

  test('a viewer reads the scope groups, each with its scopes', async () => {
    const before = h.sandbox.calls.length;
    const res = await h.slash(VIEWER, 'scopes');
    const answer = await answerOf(h, res.responseId);
    expect(answer.response_type).toBe('ephemeral');
    const text = messageText(answer);
    expect(text).toContain('*FILE*: `FILE_POST`');
    expect(text).toContain('*PIX_KEY*: `PIX_KEY_WITHDRAW_POST`, `PIX_KEY_WITHDRAW_PUT`');
    expect(text).toContain('*APPLICATION*: `APPLICATION_ROTATE_POST`');
    expect(h.sandbox.calls.slice(before).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/v1/application/scopes']);
  });

  test('someone with no role is refused the scopes, and nothing reaches the Pix API', async () => {
    const before = h.sandbox.calls.length;
    const res = await h.slash(STRANGER, 'scopes');
    expect(messageText(res.ack)).toContain('*viewer* role');
    expect(h.sandbox.calls.length).toBe(before);
  });

  /** `/pix rotate-secret`, then its Confirm: the answer that replaced the confirmation. */
  const rotate = async (clientId: string) => {
    const res = await h.slash(ADMIN, `rotate-secret ${clientId}`, { channelId: CHANNEL });
    const ask = await answerOf(h, res.responseId);
    const confirm = buttonsOf(ask).find((b) => b.action_id === 'rotate_secret_confirm');
    if (!confirm) return ask;
    const click = await clickButton(h, { userId: ADMIN, actionId: confirm.action_id, value: confirm.value!, channelId: CHANNEL });
    return answerOf(h, click.responseId);
  };

  test('rotating asks first, saying the current secret stops at once; nothing is sent until Confirm; Cancel rotates nothing', async () => {
    const before = h.sandbox.calls.length;
    const res = await h.slash(ADMIN, `rotate-secret ${campaign.clientId}`, { channelId: CHANNEL });
    const ask = await answerOf(h, res.responseId);
    expect(ask.response_type).toBe('ephemeral');
    expect(messageText(ask)).toContain(`Rotate the client secret of application \`${campaign.clientId}\`?`);
    expect(messageText(ask)).toContain('The current secret stops working at once');
    expect(buttonsOf(ask).map((b) => [b.action_id, b.value])).toEqual([
      ['rotate_secret_confirm', campaign.clientId],
      ['rotate_secret_cancel', 'cancel'],
    ]);
    const cancel = await clickButton(h, { userId: ADMIN, actionId: 'rotate_secret_cancel', value: 'cancel', channelId: CHANNEL });
    expect(await answerOf(h, cancel.responseId)).toMatchObject({ replace_original: true });
    expect(messageText(await answerOf(h, cancel.responseId))).toContain('the secret was not rotated');
    const refused = await clickButton(h, {
      userId: OPERATOR,
      actionId: 'rotate_secret_confirm',
      value: campaign.clientId,
      channelId: CHANNEL,
    });
    expect(messageText(await answerOf(h, refused.responseId))).toContain('*admin* role');
    expect(h.sandbox.calls.length).toBe(before);
  });

  test('an admin rotates a secret with the MASTER AppID: the new secret only in their ephemeral answer; the channel sees who did it', async () => {
    const before = h.sandbox.calls.length;
    const slackBefore = h.slack.calls.length;
    const answer = await rotate(campaign.clientId);
    expect(answer).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    const fresh = /```([^`]+)```/.exec(messageText(answer))?.[1];
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(campaign.clientSecret);
    secrets.push(fresh!);
    expect(messageText(answer)).toContain(`New client secret of application \`${campaign.clientId}\``);

    const calls = h.sandbox.calls.slice(before);
    // Then the AppID the bot stores for that application is checked with a read: the interface does
    // not say whether an AppID outlives its secret.
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/v1/application/rotate-secret', 'GET /api/v1/pix-keys']);
    expect(calls[0]!.authorization).toBe(h.sandbox.companies.main.masterAppId);
    expect(calls[0]!.body).toEqual({ clientId: campaign.clientId });
    expect(calls[1]!.authorization).toBe(campaign.appId);
    expect(messageText(answer)).toContain(`The AppID the bot stores for account \`${campaign.accountId}\` still works`);

    const audit = await waitFor('the audit', () => posts(h, slackBefore)[0]);
    expect(audit.args.channel).toBe(CHANNEL);
    expect(messageText(audit.args)).toContain(`<@${ADMIN}> rotated the client secret of application \`${campaign.clientId}\``);
    expect(h.slack.calls.slice(slackBefore).some((c) => JSON.stringify(c.args).includes(fresh!))).toBe(false);
  });

  test('a stored AppID that the Pix API refuses after a rotation is marked stale: the admin is told to link the new one, and it is not used again', async () => {
    const res0 = await fetch(`${h.sandbox.url}/sandbox/applications/${encodeURIComponent(campaign.appId)}/active`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ active: false }),
    });
    expect(res0.status).toBe(200);
    const text = messageText(await rotate(campaign.clientId));
    secrets.push(/```([^`]+)```/.exec(text)![1]!);
    expect(text).toContain(`The AppID the bot stores for account \`${campaign.accountId}\` no longer works`);
    expect(text).toContain(`/pix account link ${campaign.accountId}`);

    const before = h.sandbox.calls.length;
    const keys = await h.slash(ADMIN, `keys ${campaign.accountId}`);
    expect(messageText(await answerOf(h, keys.responseId))).toContain(
      `link the account’s new AppID with \`/pix account link ${campaign.accountId}\``,
    );
    expect(h.sandbox.calls.slice(before).filter((c) => c.authorization === campaign.appId)).toEqual([]);
  });

  test('the store failing after a rotation: the new secret is still shown, with what could not be done to the stored AppID', async () => {
    const other = await createCampaign(h, ADMIN, 'Rotating, store down', CHANNEL);
    secrets.push(other.appId, other.clientSecret);
    await fetch(`${h.sandbox.url}/sandbox/applications/${encodeURIComponent(other.appId)}/active`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ active: false }),
    });
    // The store fails just where the refused AppID would be marked stale (after the rotation).
    const repo = h.app.deps.store.accountApps;
    const markStale = repo.markStale.bind(repo);
    repo.markStale = () => Promise.reject(new Error('store down'));
    try {
      const text = messageText(await rotate(other.clientId));
      const fresh = /```([^`]+)```/.exec(text)?.[1];
      expect(fresh).toBeDefined();
      secrets.push(fresh!);
      expect(text).toContain(`I could not check whether the AppID stored for account \`${other.accountId}\` still works`);
    } finally {
      repo.markStale = markStale;
    }
  });

  test('an unknown client id is not found; a malformed one gets the usage', async () => {
    expect(messageText(await rotate('Client_Id_nobody'))).toContain('Could not rotate the secret: not found');
    const before = h.sandbox.calls.length;
    for (const text of ['rotate-secret ../../x', 'rotate-secret ..', 'rotate-secret .']) {
      const bad = await h.slash(ADMIN, text);
      expect(messageText(await answerOf(h, bad.responseId))).toContain('That is not a client id.');
    }
    expect(h.sandbox.calls.length).toBe(before);
  });

  test('one confirmation rotates once: a second click on the same message does nothing', async () => {
    const res = await h.slash(ADMIN, `rotate-secret ${campaign.clientId}`, { channelId: CHANNEL });
    await answerOf(h, res.responseId);
    const before = h.sandbox.calls.length;
    const click = (n: number) =>
      clickButton(h, {
        userId: ADMIN,
        actionId: 'rotate_secret_confirm',
        value: campaign.clientId,
        channelId: CHANNEL,
        messageTs: `1700000777.00000${n}`,
      });
    const first = await click(1);
    const text = messageText(await answerOf(h, first.responseId));
    secrets.push(/```([^`]+)```/.exec(text)![1]!);
    const again = await click(1);
    expect(messageText(await answerOf(h, again.responseId))).toContain('This was already confirmed. Nothing more was done.');
    expect(h.sandbox.calls.slice(before).filter((c) => c.path === '/api/v1/application/rotate-secret')).toHaveLength(1);
  });

  test('an operator is refused, and nothing reaches the Pix API', async () => {
    const before = h.sandbox.calls.length;
    const res = await h.slash(OPERATOR, `rotate-secret ${campaign.clientId}`);
    expect(messageText(res.ack)).toContain('*admin* role');
    expect(h.sandbox.calls.length).toBe(before);
  });

  test('no AppID or client secret in the logs, in channel messages, or in the store file', () => {
    expectNoLeaks(h, secrets);
  });
});

describe('without PIX_MASTER_APP_ID', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ ACCESS_ADMINS: ADMIN });
  });
  afterAll(() => h.close());

  test('account creation and secret rotation are refused clearly, before any form or call', async () => {
    const before = h.sandbox.calls.length;
    const slackBefore = h.slack.calls.length;
    const create = await h.slash(ADMIN, 'account create');
    expect(messageText(await answerOf(h, create.responseId))).toContain('no `PIX_MASTER_APP_ID` is set');
    const rotate = await h.slash(ADMIN, 'rotate-secret Client_Id_someone');
    expect(messageText(await answerOf(h, rotate.responseId))).toContain('no `PIX_MASTER_APP_ID` is set');
    expect(h.slack.calls.slice(slackBefore).filter((c) => c.method === 'views.open')).toEqual([]);
    expect(h.sandbox.calls.length).toBe(before);
  });
});

describe('sandbox mode without PIX_MASTER_APP_ID', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({}, { sandboxMode: true });
  });
  afterAll(() => h.close());

  test('the sandbox’s own MASTER AppID is used: account creation works out of the box', async () => {
    const before = h.sandbox.calls.length;
    const campaign = await createCampaign(h, ADMIN, 'Out of the box');
    const calls = h.sandbox.calls.slice(before);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/v1/account', 'POST /api/v1/application']);
    expect(calls[0]!.authorization).toBe(h.sandbox.companies.main.masterAppId);
    expect((await h.app.deps.store.accountApps.get(campaign.accountId))?.appId).toBe(campaign.appId);
    expectNoLeaks(h, [h.sandbox.companies.main.masterAppId, campaign.appId, campaign.clientSecret]);
  });
});
