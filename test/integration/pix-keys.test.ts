import type { AccountAnswer, PixKeysAnswer } from '../sandbox/helpers';
import {
  buttonsOf,
  type CreatedCampaign,
  clickButton,
  createCampaign,
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
const VIEWER = 'U0VIEWER1';
const CHANNEL = 'C0KEYS001';

describe('Pix keys: /pix keys, key add, key delete, with the AppID of the account that owns them', () => {
  let h: Harness;
  let campaign: CreatedCampaign;
  const secrets: string[] = [];

  beforeAll(async () => {
    h = await startHarnessWithMaster({ ACCESS_ADMINS: ADMIN, ACCESS_OPERATORS: OPERATOR, ACCESS_VIEWERS: VIEWER });
    campaign = await createCampaign(h, ADMIN, 'Keys campaign', CHANNEL);
    secrets.push(campaign.appId, campaign.clientSecret, h.sandbox.companies.main.masterAppId, h.sandbox.companies.main.mainAppId);
  });
  afterAll(() => h.close());

  const answerOf = async (responseId: string) =>
    (await waitFor(`an answer on ${responseId}`, () => h.slack.responsesTo(responseId)[0])).body;
  const keysOnSandbox = async () => (await sandboxApi<PixKeysAnswer>(h, 'GET', '/api/v1/pix-keys', campaign.appId)).pixKeys;

  /** `/pix key add` by `userId`: the modal Slack was asked to open. */
  const openAddForm = async (userId = OPERATOR) => {
    const from = h.slack.calls.length;
    await h.slash(userId, `key add ${campaign.accountId}`, { channelId: CHANNEL });
    return openedModal(h, from, 'pix_key_add');
  };
  const values = (type: string | null, value: string | null) => ({
    type: { type: { type: 'static_select', selected_option: type === null ? null : { value: type } } },
    pixKey: { value: { type: 'plain_text_input', value } },
  });

  test('an empty list, with an Add button; read with the campaign account’s AppID', async () => {
    const before = h.sandbox.calls.length;
    const res = await h.slash(VIEWER, `keys ${campaign.accountId}`);
    const answer = await answerOf(res.responseId);
    expect(messageText(answer)).toContain(`Pix keys of account \`${campaign.accountId}\` · campaign “Keys campaign”`);
    expect(messageText(answer)).toContain('No Pix keys yet');
    expect(buttonsOf(answer)).toEqual([expect.objectContaining({ action_id: 'pix_key_add_open', value: campaign.accountId })]);
    const calls = h.sandbox.calls.slice(before);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/v1/pix-keys']);
    expect(calls[0]!.authorization).toBe(campaign.appId);
  });

  test.each([
    ['CPF', '529.982.247-24', /check digits/],
    ['CPF', '123', /11 digits/],
    ['CNPJ', '11.222.333/0001-82', /check digits/],
    ['EMAIL', 'finance.example.com', /Not an e-mail/],
    ['PHONE', '11987654321', /\+55/],
    ['EVP', 'not-a-uuid', /UUID/],
    ['EMAIL', null, /Enter the e-mail/],
  ])('an invalid %s key (%p) is refused inline, and nothing is sent', async (type, value, problem) => {
    const form = await openAddForm();
    const before = h.sandbox.calls.length;
    const res = await submitModal(h, OPERATOR, form, values(type, value));
    expect(res.body?.response_action).toBe('errors');
    expect(Object.keys(res.body!.errors as object)).toEqual(['pixKey']);
    expect((res.body!.errors as Record<string, string>).pixKey).toMatch(problem);
    expect(h.sandbox.calls.length).toBe(before);
  });

  test('no type chosen is refused inline', async () => {
    const form = await openAddForm();
    const res = await submitModal(h, OPERATOR, form, values(null, 'a@b.com'));
    expect(res.body).toEqual({ response_action: 'errors', errors: { type: 'Choose the type of the key.' } });
  });

  test('an operator adds an e-mail key and a random key the service creates; the channel sees each', async () => {
    const slackBefore = h.slack.calls.length;
    const before = h.sandbox.calls.length;
    const form = await openAddForm();
    expect(form.view.blocks.some((b) => b.block_id === 'type')).toBe(true);
    const res = await submitModal(h, OPERATOR, form, values('EMAIL', ' Finance@Example.com '));
    expect(res.body).toMatchObject({ response_action: 'update' });
    const done = await waitFor('the key added', () =>
      viewUpdates(h, slackBefore, form.viewId).find((c) => messageText(c.args.view).includes('was added')),
    );
    expect(messageText(done.args.view)).toContain('`finance@example.com`');
    const calls = h.sandbox.calls.slice(before);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/v1/pix-keys']);
    expect(calls[0]!.authorization).toBe(campaign.appId);
    expect(calls[0]!.body).toEqual({ pixKey: 'finance@example.com', type: 'EMAIL' });
    const audit = await waitFor('the audit', () => posts(h, slackBefore)[0]);
    expect(audit.args.channel).toBe(CHANNEL);
    // The whole channel reads it: the e-mail is masked (the operator saw it whole in the modal).
    expect(messageText(audit.args)).toContain(
      `<@${OPERATOR}> added the Pix key \`f***@example.com\` (e-mail) to account \`${campaign.accountId}\``,
    );
    expect(JSON.stringify(audit.args)).not.toContain('finance@example.com');

    const evpForm = await openAddForm();
    const evpBefore = h.sandbox.calls.length;
    await submitModal(h, OPERATOR, evpForm, values('EVP', null));
    await waitFor('the random key added', () =>
      viewUpdates(h, slackBefore, evpForm.viewId).find((c) => messageText(c.args.view).includes('was added')),
    );
    expect(h.sandbox.calls.slice(evpBefore).map((c) => [c.authorization, c.body])).toEqual([[campaign.appId, { pixKey: '', type: 'EVP' }]]);
    expect((await keysOnSandbox()).map((k) => k.type)).toEqual(['EMAIL', 'EVP']);
  });

  test('the API’s own refusal is shown in the modal', async () => {
    const slackBefore = h.slack.calls.length;
    const form = await openAddForm();
    await submitModal(h, OPERATOR, form, values('EMAIL', 'finance@example.com'));
    const shown = await waitFor('the refusal', () =>
      viewUpdates(h, slackBefore, form.viewId).find((c) => messageText(c.args.view).includes('Could not')),
    );
    expect(messageText(shown.args.view)).toContain('Could not add the Pix key: “Pix key already exists”');
  });

  test.each([
    ['CPF', '529.982.247-25', '52998224725', '***.982.247-**'],
    ['PHONE', '+55 (11) 98765-4321', '+5511987654321', '+5511*****4321'],
  ])('a %s key: the operator sees it whole in the form, the channel only masked', async (type, typed, canonical, masked) => {
    const slackBefore = h.slack.calls.length;
    const form = await openAddForm();
    await submitModal(h, OPERATOR, form, values(type, typed));
    const done = await waitFor('the key added', () =>
      viewUpdates(h, slackBefore, form.viewId).find((c) => messageText(c.args.view).includes('was added')),
    );
    expect(messageText(done.args.view)).toContain(`\`${canonical}\``);
    const audit = await waitFor('the announcement', () => posts(h, slackBefore)[0]);
    expect(audit.args.channel).toBe(CHANNEL);
    expect(messageText(audit.args)).toContain(`added the Pix key \`${masked}\``);
    expect(JSON.stringify(audit.args)).not.toContain(canonical);
    expect(JSON.stringify(audit.args)).not.toContain(canonical.slice(-9));
  });

  test('a viewer is refused the command and the submission; nothing reaches the Pix API', async () => {
    const before = h.sandbox.calls.length;
    const slackBefore = h.slack.calls.length;
    const res = await h.slash(VIEWER, `key add ${campaign.accountId}`);
    expect(messageText(res.ack)).toContain('*operator* role');
    expect(h.slack.calls.slice(slackBefore).filter((c) => c.method === 'views.open')).toEqual([]);
    const form = await openAddForm();
    const refused = await submitModal(h, VIEWER, form, values('EMAIL', 'viewer@example.com'));
    expect(String((refused.body!.errors as Record<string, string>).pixKey)).toContain('You need the operator role');
    expect(h.sandbox.calls.length).toBe(before);
  });

  test('the list shows each key with a Delete button; the Add button opens the form', async () => {
    const res = await h.slash(VIEWER, `keys ${campaign.accountId}`);
    const answer = await answerOf(res.responseId);
    const keys = await keysOnSandbox();
    const buttons = buttonsOf(answer);
    expect(buttons.filter((b) => b.action_id === 'pix_key_delete_ask').map((b) => JSON.parse(b.value!))).toEqual(
      keys.map((k) => ({ accountId: campaign.accountId, pixKey: k.key })),
    );
    expect(messageText(answer)).toContain('random key (EVP)');

    const from = h.slack.calls.length;
    const click = await clickButton(h, { userId: OPERATOR, actionId: 'pix_key_add_open', value: campaign.accountId, channelId: CHANNEL });
    expect(click.status).toBe(200);
    const form = await openedModal(h, from, 'pix_key_add');
    expect(JSON.parse(form.view.private_metadata!)).toEqual({ channelId: CHANNEL, accountId: campaign.accountId });
    const refused = await clickButton(h, { userId: VIEWER, actionId: 'pix_key_add_open', value: campaign.accountId, channelId: CHANNEL });
    expect(messageText(await answerOf(refused.responseId))).toContain('*operator* role');
  });

  test('deleting asks first, saying no money can be sent to the key; only the admin’s confirmation deletes', async () => {
    const value = JSON.stringify({ accountId: campaign.accountId, pixKey: 'finance@example.com' });
    const isDelete = (c: { method: string }) => c.method === 'DELETE';
    const before = h.sandbox.calls.length;

    const ask = await h.slash(ADMIN, `key delete ${campaign.accountId} finance@example.com`, { channelId: CHANNEL });
    const confirm = await answerOf(ask.responseId);
    expect(confirm.response_type).toBe('ephemeral');
    expect(messageText(confirm)).toContain('no money can be sent to this key');
    expect(buttonsOf(confirm).map((b) => [b.action_id, b.value])).toEqual([
      ['pix_key_delete_confirm', value],
      ['pix_key_delete_cancel', 'cancel'],
    ]);
    // The list's Delete button asks the same.
    const fromList = await clickButton(h, { userId: ADMIN, actionId: 'pix_key_delete_ask', value, channelId: CHANNEL });
    expect(messageText(await answerOf(fromList.responseId))).toContain('no money can be sent to this key');

    // Refused: an operator's command, an operator's Delete and Confirm clicks.
    expect(messageText((await h.slash(OPERATOR, `key delete ${campaign.accountId} finance@example.com`)).ack)).toContain('*admin* role');
    for (const actionId of ['pix_key_delete_ask', 'pix_key_delete_confirm']) {
      const click = await clickButton(h, { userId: OPERATOR, actionId, value, channelId: CHANNEL });
      expect(messageText(await answerOf(click.responseId))).toContain('*admin* role');
    }
    // Cancel deletes nothing.
    const cancel = await clickButton(h, { userId: ADMIN, actionId: 'pix_key_delete_cancel', value: 'cancel', channelId: CHANNEL });
    expect(await answerOf(cancel.responseId)).toMatchObject({ replace_original: true });
    expect(h.sandbox.calls.slice(before).filter(isDelete)).toEqual([]);
    expect((await keysOnSandbox()).map((k) => k.key)).toContain('finance@example.com');

    const slackBefore = h.slack.calls.length;
    const done = await clickButton(h, { userId: ADMIN, actionId: 'pix_key_delete_confirm', value, channelId: CHANNEL });
    const answer = await answerOf(done.responseId);
    expect(answer).toMatchObject({ response_type: 'ephemeral', replace_original: true });
    expect(messageText(answer)).toContain('was deleted; no money can be sent to it any more');
    const deletes = h.sandbox.calls.slice(before).filter(isDelete);
    expect(deletes.map((c) => [c.path, c.authorization])).toEqual([['/api/v1/pix-keys/finance%40example.com', campaign.appId]]);
    expect((await keysOnSandbox()).map((k) => k.key)).not.toContain('finance@example.com');
    const audit = await waitFor('the audit', () => posts(h, slackBefore)[0]);
    expect(messageText(audit.args)).toContain(`<@${ADMIN}> deleted the Pix key \`f***@example.com\` of account \`${campaign.accountId}\``);
    expect(JSON.stringify(audit.args)).not.toContain('finance@example.com');

    // A second confirmation: the key is gone, and the API says so.
    const again = await clickButton(h, { userId: ADMIN, actionId: 'pix_key_delete_confirm', value, channelId: CHANNEL });
    expect(messageText(await answerOf(again.responseId))).toContain('not found');
  });

  test('a key deleted by its eleven digits as typed (a CPF or a phone: its type not known): the channel and the audit trail show at most its last four', async () => {
    // Added as a CPF (the channel shows it as one), then deleted by its digits alone.
    const addBefore = h.slack.calls.length;
    const form = await openAddForm();
    await submitModal(h, OPERATOR, form, values('CPF', '111.444.777-35'));
    await waitFor('the key added', () =>
      viewUpdates(h, addBefore, form.viewId).find((c) => messageText(c.args.view).includes('was added')),
    );
    const ask = await h.slash(ADMIN, `key delete ${campaign.accountId} 11144477735`, { channelId: CHANNEL });
    const value = buttonsOf(await answerOf(ask.responseId)).find((b) => b.action_id === 'pix_key_delete_confirm')!.value!;
    const slackBefore = h.slack.calls.length;
    const done = await clickButton(h, { userId: ADMIN, actionId: 'pix_key_delete_confirm', value, channelId: CHANNEL });
    expect(messageText(await answerOf(done.responseId))).toContain('was deleted');
    const audit = await waitFor('the announcement', () => posts(h, slackBefore)[0]);
    expect(messageText(audit.args)).toContain('deleted the Pix key `***35`');
    expect(JSON.stringify(audit.args)).not.toContain('444.777');
    await h.app.deps.store.audit.flush();
    const [call] = (await h.app.deps.store.audit.page({ since: new Date(Date.now() - 600_000), limit: 500 })).filter(
      (e) => e.action === 'action:pix_key_delete_confirm' && e.pixMethod === 'DELETE',
    );
    expect(call).toMatchObject({ target: `account:${campaign.accountId} key:***35`, pixPath: '/api/v1/pix-keys/***35', pixStatus: 204 });
  });

  test('a key that is only dots (`.`, `..`: path syntax in its URL) is refused before any URL is built, typed or in a button', async () => {
    const before = h.sandbox.calls.length;
    for (const key of ['..', '.']) {
      const res = await h.slash(ADMIN, `key delete ${campaign.accountId} ${key}`, { channelId: CHANNEL });
      const answer = messageText(await answerOf(res.responseId));
      expect(answer).toContain('That is not a Pix key.');
      expect(answer).not.toContain('no money can be sent to this key');
    }
    // A Confirm button carrying one anyway (a forged or stale payload): nothing reaches the Pix API.
    const click = await clickButton(h, {
      userId: ADMIN,
      actionId: 'pix_key_delete_confirm',
      value: JSON.stringify({ accountId: campaign.accountId, pixKey: '..' }),
      channelId: CHANNEL,
    });
    expect(messageText(await answerOf(click.responseId))).toContain('This button does not name a Pix key. Nothing was done.');
    expect(h.sandbox.calls.slice(before).filter((c) => c.method === 'DELETE')).toEqual([]);
  });

  test('the default account uses PIX_APP_ID; an account with no known AppID is told to link one', async () => {
    const main = h.sandbox.companies.main;
    const before = h.sandbox.calls.length;
    const res = await h.slash(VIEWER, `keys ${main.defaultAccountId}`);
    const listed = messageText(await answerOf(res.responseId));
    expect(listed).toContain(`Pix keys of account \`${main.defaultAccountId}\` (default account)`);
    // The balance the key list carries, in R$ (cents, as every amount of the service).
    expect(listed).toContain('Balance: total R$15,000.00 · available R$15,000.00 · blocked R$0.00');
    expect(listed).not.toContain('1500000');
    expect(h.sandbox.calls.slice(before).map((c) => `${c.method} ${c.path} ${c.authorization === main.mainAppId}`)).toEqual([
      'GET /api/v1/account true',
      'GET /api/v1/pix-keys true',
    ]);

    const { account } = await sandboxApi<AccountAnswer>(h, 'POST', '/api/v1/account', main.masterAppId);
    const unknownBefore = h.sandbox.calls.length;
    for (const text of [`keys ${account.accountId}`, `key delete ${account.accountId} a@b.com`]) {
      const r = await h.slash(ADMIN, text);
      expect(messageText(await answerOf(r.responseId))).toContain(`No AppID is known for account \`${account.accountId}\``);
      expect(messageText(await answerOf(r.responseId))).toContain(`/pix account link ${account.accountId}`);
    }
    // Only the account list was read to find out; no key endpoint was called.
    expect([...new Set(h.sandbox.calls.slice(unknownBefore).map((c) => c.path))]).toEqual(['/api/v1/account']);

    const from = h.slack.calls.length;
    await h.slash(OPERATOR, `key add ${account.accountId}`);
    const form = await openedModal(h, from, 'pix_key_add');
    const told = await waitFor('the form replaced', () => viewUpdates(h, from, form.viewId)[0]);
    expect(messageText(told.args.view)).toContain('No AppID is known');
  });

  test('no AppID or client secret in the logs, in channel messages, or in the store file', () => {
    expectNoLeaks(h, secrets);
  });
});
