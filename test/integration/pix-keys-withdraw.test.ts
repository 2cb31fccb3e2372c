import { setWithdrawKey } from '../../commands/withdraw-key';
import type { AccountAnswer } from '../sandbox/helpers';
import {
  buttonsOf,
  type CreatedCampaign,
  clickButton,
  createCampaign,
  expectNoLeaks,
  posts,
  sandboxApi,
  startHarnessWithMaster,
} from '../support/accounts-harness';
import { type Harness, messageText } from '../support/harness';
import { waitFor } from '../support/wait';

const ADMIN = 'U0ADMIN01';
const OPERATOR = 'U0OPER001';
const CHANNEL = 'C0WITHDRAW';

describe('/pix withdraw-key: POST, PUT when the company has the key, 403 when not enabled', () => {
  let h: Harness;
  let main: Harness['sandbox']['companies']['main'];
  let second: CreatedCampaign;
  let disabled: CreatedCampaign;
  const secrets: string[] = [];

  const dict = (pixKey: string, type: string, holderTaxId = main.taxId) =>
    sandboxApi(h, 'POST', '/sandbox/dict', undefined, { pixKey, type, holderTaxId });
  const enable = (accountId: string) =>
    sandboxApi(h, 'POST', `/sandbox/accounts/${accountId}/withdraw-key-api`, undefined, { enabled: true });

  beforeAll(async () => {
    h = await startHarnessWithMaster({ ACCESS_ADMINS: ADMIN, ACCESS_OPERATORS: OPERATOR });
    main = h.sandbox.companies.main;
    second = await createCampaign(h, ADMIN, 'Second', CHANNEL);
    disabled = await createCampaign(h, ADMIN, 'Not enabled', CHANNEL);
    secrets.push(main.masterAppId, main.mainAppId, second.appId, second.clientSecret, disabled.appId, disabled.clientSecret);
    await enable(main.defaultAccountId);
    await enable(second.accountId);
    await dict('treasury@example.com', 'EMAIL');
    await dict('7d444840-9dc0-41a2-8f6b-3b3f1c0e5a11', 'EVP');
    await dict('someone@example.com', 'EMAIL', '52998224725');
  });
  afterAll(() => h.close());

  const answerOf = async (responseId: string) =>
    (await waitFor(`an answer on ${responseId}`, () => h.slack.responsesTo(responseId)[0])).body;
  /** The command, and when it asks for a confirmation, the admin's Confirm: what the admin saw last. */
  const run = async (text: string, userId = ADMIN) => {
    const pixBefore = h.sandbox.calls.length;
    const slackBefore = h.slack.calls.length;
    const res = await h.slash(userId, text, { channelId: CHANNEL });
    let answer = res.ack?.text ? res.ack : await answerOf(res.responseId);
    const confirm = buttonsOf(answer).find((b) => b.action_id === 'withdraw_key_confirm');
    if (confirm) {
      const click = await clickButton(h, { userId, actionId: confirm.action_id, value: confirm.value!, channelId: CHANNEL });
      answer = await answerOf(click.responseId);
    }
    return { answer, text: messageText(answer), calls: h.sandbox.calls.slice(pixBefore), posted: () => posts(h, slackBefore) };
  };

  test('it asks first, saying withdrawals go to the key; nothing is sent until Confirm; Cancel changes nothing', async () => {
    const pixBefore = h.sandbox.calls.length;
    const res = await h.slash(ADMIN, `withdraw-key ${second.accountId} treasury@example.com`, { channelId: CHANNEL });
    const ask = await answerOf(res.responseId);
    expect(ask.response_type).toBe('ephemeral');
    expect(messageText(ask)).toContain(`Set \`treasury@example.com\` as the withdraw key of account \`${second.accountId}\`?`);
    expect(messageText(ask)).toContain('withdrawals from this account go to this key');
    expect(buttonsOf(ask).map((b) => [b.action_id, b.value])).toEqual([
      ['withdraw_key_confirm', JSON.stringify({ accountId: second.accountId, pixKey: 'treasury@example.com' })],
      ['withdraw_key_cancel', 'cancel'],
    ]);
    const cancel = await clickButton(h, { userId: ADMIN, actionId: 'withdraw_key_cancel', value: 'cancel', channelId: CHANNEL });
    expect(await answerOf(cancel.responseId)).toMatchObject({ replace_original: true });
    expect(messageText(await answerOf(cancel.responseId))).toContain('the withdraw key was not changed');
    // Only the stored AppID was looked up: no withdraw-key call, so no DICT lookup.
    expect(h.sandbox.calls.slice(pixBefore).filter((c) => c.path.startsWith('/api/v1/pix-keys'))).toEqual([]);
    // An operator's Confirm is refused.
    const refused = await clickButton(h, {
      userId: OPERATOR,
      actionId: 'withdraw_key_confirm',
      value: buttonsOf(ask)[0]!.value!,
      channelId: CHANNEL,
    });
    expect(messageText(await answerOf(refused.responseId))).toContain('*admin* role');
    expect(h.sandbox.calls.slice(pixBefore).filter((c) => c.path.startsWith('/api/v1/pix-keys'))).toEqual([]);
  });

  test('POST registers and selects the key (default account: PIX_APP_ID); the result shows pixKeyWithdraw; the channel sees it', async () => {
    const r = await run(`withdraw-key ${main.defaultAccountId} treasury@example.com`);
    expect(r.answer.response_type).toBe('ephemeral');
    expect(r.text).toContain(`Withdraw key of account \`${main.defaultAccountId}\`: \`treasury@example.com\` (e-mail)`);
    expect(r.text).toContain('Registered and selected (POST)');
    // The account's AppID found when asking, and again on Confirm (it may have changed in between).
    expect(r.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /api/v1/account',
      'GET /api/v1/account',
      'POST /api/v1/pix-keys/withdraw',
    ]);
    expect(r.calls[2]!.authorization).toBe(main.mainAppId);
    expect(r.calls[2]!.body).toEqual({ pixKey: 'treasury@example.com' });
    const audit = await waitFor('the audit', () => r.posted()[0]);
    expect(audit.args.channel).toBe(CHANNEL);
    // The channel's record masks the e-mail; the admin who typed it sees it whole (above).
    expect(messageText(audit.args)).toContain(
      `<@${ADMIN}> set the withdraw key of account \`${main.defaultAccountId}\` to \`t***@example.com\` (e-mail)`,
    );
    expect(JSON.stringify(audit.args)).not.toContain('treasury@example.com');
  });

  test('the company already has the key (400 "already exists"): PUT selects it, with the account’s own AppID', async () => {
    const r = await run(`withdraw-key ${second.accountId} treasury@example.com`);
    expect(r.calls.map((c) => `${c.method} ${c.path} ${c.authorization === second.appId}`)).toEqual([
      'POST /api/v1/pix-keys/withdraw true',
      'PUT /api/v1/pix-keys/withdraw true',
    ]);
    expect(r.text).toContain('`treasury@example.com` (e-mail)');
    expect(r.text).toContain('The company already had this key, so it was selected (PUT).');
    const account = await sandboxApi<AccountAnswer>(h, 'GET', `/api/v1/account/${second.accountId}`, main.mainAppId);
    expect(account.account.pixKeyWithdraw).toEqual({ pixKey: 'treasury@example.com', type: 'EMAIL' });
  });

  test('a random key is shown as the random (EVP) key it is', async () => {
    const r = await run(`withdraw-key ${main.defaultAccountId} 7D444840-9DC0-41A2-8F6B-3B3F1C0E5A11`);
    expect(r.calls.at(-1)!.body).toEqual({ pixKey: '7d444840-9dc0-41a2-8f6b-3b3f1c0e5a11' });
    expect(r.text).toContain('`7d444840-9dc0-41a2-8f6b-3b3f1c0e5a11` (random key (EVP))');
  });

  test('a phone key: the admin who typed it sees it whole, the channel masked', async () => {
    await dict('+5511987654321', 'PHONE');
    const r = await run(`withdraw-key ${main.defaultAccountId} +5511987654321`);
    expect(r.text).toContain('`+5511987654321`');
    const audit = await waitFor('the audit', () => r.posted()[0]);
    expect(messageText(audit.args)).toContain(`set the withdraw key of account \`${main.defaultAccountId}\` to \`+5511*****4321\``);
    expect(JSON.stringify(audit.args)).not.toContain('987654321');
  });

  test('403: the withdraw-key API is not enabled on this account; nothing else is tried', async () => {
    const r = await run(`withdraw-key ${disabled.accountId} treasury@example.com`);
    expect(r.text).toContain('the withdraw-key API is not enabled on this account');
    expect(r.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/v1/pix-keys/withdraw']);
    expect(r.posted()).toEqual([]);
  });

  test('another 400 (the DICT says another holder) is the API’s own text, and no PUT follows', async () => {
    const r = await run(`withdraw-key ${second.accountId} someone@example.com`);
    expect(r.text).toContain('Could not set the withdraw key: “Pix key holder does not match the account holder”');
    expect(r.calls.map((c) => c.method)).toEqual(['POST']);
  });

  test('a malformed key is refused before any call (no DICT lookup of a key that cannot exist)', async () => {
    for (const key of ['not-a-key', '529.982.247-24', '11987654321x']) {
      const r = await run(`withdraw-key ${second.accountId} ${key}`);
      expect(r.text).toMatch(/Usage: `\/pix withdraw-key/);
      expect(r.calls).toEqual([]);
    }
  });

  test('an operator is refused, and nothing reaches the Pix API', async () => {
    const r = await run(`withdraw-key ${second.accountId} treasury@example.com`, OPERATOR);
    expect(r.text).toContain('*admin* role');
    expect(r.calls).toEqual([]);
  });

  test('a 404 on PUT (the company does not have the key) falls back to POST', async () => {
    await dict('fresh@example.com', 'EMAIL');
    const before = h.sandbox.calls.length;
    const result = await setWithdrawKey(h.app.deps.pix, second.appId, 'fresh@example.com', 'PUT');
    expect(result.via).toEqual(['PUT', 'POST']);
    expect(result.account.pixKeyWithdraw).toEqual({ pixKey: 'fresh@example.com', type: 'EMAIL' });
    expect(h.sandbox.calls.slice(before).map((c) => c.method)).toEqual(['PUT', 'POST']);
  });

  test('one confirmation sets the key once: a second click on the same message does nothing', async () => {
    await dict('once@example.com', 'EMAIL');
    const res = await h.slash(ADMIN, `withdraw-key ${second.accountId} once@example.com`, { channelId: CHANNEL });
    const value = buttonsOf(await answerOf(res.responseId))[0]!.value!;
    const pixBefore = h.sandbox.calls.length;
    const first = await clickButton(h, {
      userId: ADMIN,
      actionId: 'withdraw_key_confirm',
      value,
      channelId: CHANNEL,
      messageTs: '1700000555.000001',
    });
    expect(messageText(await answerOf(first.responseId))).toContain('Withdraw key of account');
    const again = await clickButton(h, {
      userId: ADMIN,
      actionId: 'withdraw_key_confirm',
      value,
      channelId: CHANNEL,
      messageTs: '1700000555.000001',
    });
    expect(messageText(await answerOf(again.responseId))).toContain('This was already confirmed. Nothing more was done.');
    expect(h.sandbox.calls.slice(pixBefore).filter((c) => c.path === '/api/v1/pix-keys/withdraw')).toHaveLength(1);
  });

  test('no AppID or client secret in the logs, in channel messages, or in the store file', () => {
    expectNoLeaks(h, secrets);
  });
});
