import {
  accountMadeElsewhere,
  buttonsOf,
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
import { sendInteraction, submittedView, viewBlockAction } from '../support/slack-payloads';
import { waitFor } from '../support/wait';

const ADMIN = 'U0ADMIN01';
const OPERATOR = 'U0OPER001';
const VIEWER = 'U0VIEWER1';
const STRANGER = 'U0NOBODY1';
const CHANNEL = 'C0CAMPAIGN';

describe('campaign accounts: /pix accounts, account, account create, account link', () => {
  let h: Harness;
  /** Every AppID and client secret these tests see: none may leak. */
  const secrets: string[] = [];

  beforeAll(async () => {
    h = await startHarnessWithMaster({ ACCESS_ADMINS: ADMIN, ACCESS_OPERATORS: OPERATOR, ACCESS_VIEWERS: VIEWER });
    const main = h.sandbox.companies.main;
    secrets.push(main.masterAppId, main.mainAppId);
  });
  afterAll(() => h.close());

  const answerOf = async (responseId: string) =>
    (await waitFor(`an answer on ${responseId}`, () => h.slack.responsesTo(responseId)[0])).body;

  describe('reading accounts', () => {
    let blocked: string;
    beforeAll(async () => {
      // An account with a random withdraw key, blocked: set up as the service's back office would.
      const made = await accountMadeElsewhere(h);
      secrets.push(made.appId);
      blocked = made.accountId;
      const evp = '0f5b9c1e-7a2d-4e8f-9b3c-5d6e7f8a9b0c';
      await sandboxApi(h, 'POST', `/sandbox/accounts/${blocked}/withdraw-key-api`, undefined, { enabled: true });
      await sandboxApi(h, 'POST', '/sandbox/dict', undefined, { pixKey: evp, type: 'EVP', holderTaxId: h.sandbox.companies.main.taxId });
      await sandboxApi(h, 'POST', '/api/v1/pix-keys/withdraw', made.appId, { pixKey: evp });
      await sandboxApi(h, 'POST', `/sandbox/accounts/${blocked}/withdraw-blocked`, undefined, { blocked: true });
    });

    test('a viewer lists the accounts: balance in R$ (cents), default flag, withdraw key (RANDOM as the random key it is), the block as a warning', async () => {
      const before = h.sandbox.calls.length;
      const res = await h.slash(VIEWER, 'accounts');
      const answer = await answerOf(res.responseId);
      expect(answer.response_type).toBe('ephemeral');
      const text = messageText(answer);
      const main = h.sandbox.companies.main;
      expect(text).toContain(`\`${main.defaultAccountId}\` (default account)`);
      expect(text).toContain('Balance: total R$15,000.00 · available R$15,000.00 · blocked R$0.00');
      expect(text).not.toContain('1500000');
      // The default account has no withdraw-key API: the field is absent, and that is fine.
      expect(text).toContain('not reported (withdraw-key API not enabled on this account)');
      expect(text).toContain('the main application (PIX_APP_ID)');
      expect(text).toContain(`\`${blocked}\``);
      expect(text).toContain('`0f5b9c1e-7a2d-4e8f-9b3c-5d6e7f8a9b0c` (random key (EVP))');
      expect(text).toMatch(/:warning: \*Withdrawals blocked\*/);
      expect(text).toContain(`no AppID known: an admin can register one with \`/pix account link ${blocked}\``);
      expect(h.sandbox.calls.slice(before).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/v1/account']);
    });

    test('a viewer reads one account', async () => {
      const res = await h.slash(VIEWER, `account ${blocked}`);
      const text = messageText(await answerOf(res.responseId));
      expect(text).toContain(`*Account \`${blocked}\`*`);
      expect(text).toContain('*Default account*\nno');
      expect(text).toContain('random key (EVP)');
      expect(text).toContain('Withdrawals blocked');
      expect(text).toContain('*Balance*\ntotal R$0.00 · available R$0.00 · blocked R$0.00');
    });

    test('another company’s account is not found; a malformed id gets the usage', async () => {
      const other = h.sandbox.companies.other.defaultAccountId;
      const res = await h.slash(VIEWER, `account ${other}`);
      expect(messageText(await answerOf(res.responseId))).toContain('Could not read the account: not found');
      const before = h.sandbox.calls.length;
      const bad = await h.slash(VIEWER, 'account ../limits');
      expect(messageText(await answerOf(bad.responseId))).toContain('That is not an account id.');
      expect(h.sandbox.calls.length).toBe(before);
    });

    test('someone with no role is refused, and nothing reaches the Pix API', async () => {
      const before = h.sandbox.calls.length;
      for (const text of ['accounts', `account ${blocked}`]) {
        const res = await h.slash(STRANGER, text);
        expect(res.ack?.response_type).toBe('ephemeral');
        expect(messageText(res.ack)).toContain('*viewer* role');
      }
      expect(h.sandbox.calls.length).toBe(before);
    });
  });

  describe('account create', () => {
    test('happy path: the modal opens at once; the account, then its application, with the MASTER AppID; the AppID stored encrypted; the channel sees the clientId, only the admin the secret', async () => {
      const pixBefore = h.sandbox.calls.length;
      const slackBefore = h.slack.calls.length;
      const created = await createCampaign(h, ADMIN, 'Black Friday <2026>', CHANNEL);
      secrets.push(created.appId, created.clientSecret);
      const master = h.sandbox.companies.main.masterAppId;

      const open = h.slack.calls.slice(slackBefore).find((c) => c.method === 'views.open')!;
      const calls = h.sandbox.calls.slice(pixBefore);
      expect(open.at).toBeLessThanOrEqual(calls[0]!.at);
      expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/v1/account', 'POST /api/v1/application']);
      expect(calls.every((c) => c.authorization === master)).toBe(true);
      expect(calls[1]!.body).toEqual({ accountId: created.accountId, application: { name: 'Black Friday <2026>', type: 'API' } });

      // The AppID works for that account: the application is bound to it.
      const keys = await sandboxApi<{ account: { accountId: string } }>(h, 'GET', '/api/v1/pix-keys', created.appId);
      expect(keys.account.accountId).toBe(created.accountId);

      const audit = posts(h, slackBefore);
      expect(audit).toHaveLength(1);
      expect(audit[0]!.args.channel).toBe(CHANNEL);
      const text = messageText(audit[0]!.args);
      expect(text).toContain(`<@${ADMIN}> created the campaign account \`${created.accountId}\``);
      expect(text).toContain('Black Friday &lt;2026&gt;');
      expect(text).toContain(`\`${created.clientId}\``);
      expect(text).not.toContain(created.clientSecret);

      // The secret: in the admin's modal, once, and nowhere else.
      const everywhere = h.slack.calls.slice(slackBefore).filter((c) => JSON.stringify(c.args).includes(created.clientSecret));
      expect(everywhere.map((c) => c.method)).toEqual(['views.update']);
      expect(h.slack.responses.some((r) => JSON.stringify(r.body).includes(created.clientSecret))).toBe(false);
      const stored = await h.app.deps.store.accountApps.get(created.accountId);
      expect(stored).toMatchObject({ accountId: created.accountId, clientId: created.clientId, name: 'Black Friday <2026>' });
    });

    test('an operator is refused the command and the submission; nothing reaches the Pix API', async () => {
      const pixBefore = h.sandbox.calls.length;
      const slackBefore = h.slack.calls.length;
      const res = await h.slash(OPERATOR, 'account create');
      expect(messageText(res.ack)).toContain('*admin* role');
      // A form opened by an admin, submitted by an operator.
      await h.slash(ADMIN, 'account create', { channelId: CHANNEL });
      const modal = await openedModal(h, slackBefore, 'account_create');
      const refused = await submitModal(h, OPERATOR, modal, { name: { name: { type: 'plain_text_input', value: 'Sneaky' } } });
      expect(refused.body).toMatchObject({ response_action: 'errors' });
      expect(String((refused.body!.errors as Record<string, string>).name)).toContain('You need the admin role');
      expect(h.slack.calls.slice(slackBefore).filter((c) => c.method === 'views.open')).toHaveLength(1);
      expect(h.sandbox.calls.length).toBe(pixBefore);
    });

    test('an empty name is refused inline, before anything is sent', async () => {
      const slackBefore = h.slack.calls.length;
      await h.slash(ADMIN, 'account create', { channelId: CHANNEL });
      const modal = await openedModal(h, slackBefore, 'account_create');
      const pixBefore = h.sandbox.calls.length;
      const res = await submitModal(h, ADMIN, modal, { name: { name: { type: 'plain_text_input', value: '   ' } } });
      expect(res.body).toEqual({ response_action: 'errors', errors: { name: 'Enter the campaign name.' } });
      expect(h.sandbox.calls.length).toBe(pixBefore);
    });

    test('the same form submitted again creates nothing more', async () => {
      const slackBefore = h.slack.calls.length;
      await h.slash(ADMIN, 'account create', { channelId: CHANNEL });
      const modal = await openedModal(h, slackBefore, 'account_create');
      const name = { name: { name: { type: 'plain_text_input', value: 'Twice' } } };
      const pixBefore = h.sandbox.calls.length;
      const [first, second] = await Promise.all([submitModal(h, ADMIN, modal, name), submitModal(h, ADMIN, modal, name)]);
      const texts = [messageText(first.body), messageText(second.body)];
      expect(texts.filter((t) => t.includes('already submitted'))).toHaveLength(1);
      const done = await waitFor('the secret', () =>
        viewUpdates(h, slackBefore, modal.viewId).find((c) => messageText(c.args.view).includes('Client secret')),
      );
      const text = messageText(done.args.view);
      secrets.push(/```([^`]+)```/.exec(text)![1]!);
      secrets.push((await h.app.deps.store.accountApps.get(/Account `([0-9a-f]{24})`/.exec(text)![1]!))!.appId);
      expect(h.sandbox.calls.slice(pixBefore).map((c) => `${c.method} ${c.path}`)).toEqual([
        'POST /api/v1/account',
        'POST /api/v1/application',
      ]);
    });

    test('the application step fails: what exists is said, the retry creates only the application, once', async () => {
      const master = h.sandbox.companies.main.masterAppId;
      await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
        fail: { status: 500, count: 1, method: 'POST', pathPrefix: '/api/v1/application' },
      });
      const slackBefore = h.slack.calls.length;
      const pixBefore = h.sandbox.calls.length;
      await h.slash(ADMIN, 'account create', { channelId: CHANNEL });
      const modal = await openedModal(h, slackBefore, 'account_create');
      await submitModal(h, ADMIN, modal, { name: { name: { type: 'plain_text_input', value: 'Christmas' } } });

      const failure = await waitFor('the failure in the channel', () => posts(h, slackBefore)[0]);
      const accountId = /campaign account `([0-9a-f]{24})`/.exec(messageText(failure.args))![1]!;
      expect(failure.args.channel).toBe(CHANNEL);
      expect(messageText(failure.args)).toContain('but its application could not be created');
      expect(messageText(failure.args)).toContain('The account exists, without an application');
      const [retry] = buttonsOf(failure.args);
      expect(retry).toMatchObject({ action_id: 'account_app_retry', text: { text: 'Retry creating the application' } });
      const inModal = await waitFor('the failure in the modal', () =>
        viewUpdates(h, slackBefore, modal.viewId).find((c) => messageText(c.args.view).includes('could not be')),
      );
      expect(messageText(inModal.args.view)).toContain(
        `The account \`${accountId}\` (“Christmas”) was created, but its application could not be`,
      );
      expect(buttonsOf(inModal.args.view).map((b) => b.action_id)).toEqual(['account_app_retry']);
      expect(h.sandbox.calls.slice(pixBefore).map((c) => `${c.method} ${c.path}`)).toEqual([
        'POST /api/v1/account',
        'POST /api/v1/application',
      ]);
      // Remembered as ours, waiting for its application; its keys say so.
      const keys = await h.slash(VIEWER, `keys ${accountId}`);
      expect(messageText(await answerOf(keys.responseId))).toContain('has no application yet');

      // An operator's click is refused; nothing is sent.
      const ts = (failure.response as { ts: string }).ts;
      const beforeRefused = h.sandbox.calls.length;
      const refused = await clickButton(h, {
        userId: OPERATOR,
        actionId: 'account_app_retry',
        value: retry!.value!,
        channelId: CHANNEL,
        messageTs: ts,
        ephemeral: false,
      });
      expect(messageText(await answerOf(refused.responseId))).toContain('*admin* role');
      expect(h.sandbox.calls.length).toBe(beforeRefused);

      // The admin retries from the channel message: only the application is created.
      const retryBefore = h.sandbox.calls.length;
      const slackRetry = h.slack.calls.length;
      const click = await clickButton(h, {
        userId: ADMIN,
        actionId: 'account_app_retry',
        value: retry!.value!,
        channelId: CHANNEL,
        messageTs: ts,
        ephemeral: false,
      });
      const answer = await answerOf(click.responseId);
      expect(answer.response_type).toBe('ephemeral');
      const secret = /```([^`]+)```/.exec(messageText(answer))![1]!;
      const stored = await h.app.deps.store.accountApps.get(accountId);
      secrets.push(secret, stored!.appId);
      expect(stored!.appId.length).toBeGreaterThan(8);
      const retried = h.sandbox.calls.slice(retryBefore);
      expect(retried.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/v1/application']);
      expect(retried[0]!.authorization).toBe(master);
      expect(retried[0]!.body).toEqual({ accountId, application: { name: 'Christmas', type: 'API' } });
      const audit = await waitFor('the audit of the retry', () => posts(h, slackRetry)[0]);
      expect(messageText(audit.args)).toContain(`<@${ADMIN}> created the application`);
      expect(messageText(audit.args)).toContain(`\`${accountId}\``);
      // The failure message is closed: its button is gone.
      const update = await waitFor('the failure message closed', () =>
        h.slack.calls.slice(slackRetry).find((c) => c.method === 'chat.update'),
      );
      expect(update.args).toMatchObject({ channel: CHANNEL, ts });
      expect(buttonsOf(update.args)).toEqual([]);
      expect(messageText(update.args)).toContain('now has its application');

      // A second click (the modal's button, or a double click) creates nothing.
      const againBefore = h.sandbox.calls.length;
      const again = await sendInteraction(
        h,
        viewBlockAction(ADMIN, submittedView(inModal.args.view as never, modal.viewId, {}), {
          type: 'button',
          action_id: 'account_app_retry',
          block_id: 'account_app_retry',
          value: retry!.value!,
        }),
      );
      expect(again.status).toBe(200);
      const said = await waitFor('the modal answer', () =>
        viewUpdates(h, slackRetry, modal.viewId).find((c) => messageText(c.args.view).includes('already has its application')),
      );
      expect(messageText(said.args.view)).toContain('Nothing was created.');
      expect(h.sandbox.calls.length).toBe(againBefore);
    });

    test('a retry from the modal that fails again keeps the button; the next one succeeds in the modal', async () => {
      await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
        fail: { status: 500, count: 2, method: 'POST', pathPrefix: '/api/v1/application' },
      });
      const slackBefore = h.slack.calls.length;
      await h.slash(ADMIN, 'account create', { channelId: CHANNEL });
      const modal = await openedModal(h, slackBefore, 'account_create');
      await submitModal(h, ADMIN, modal, { name: { name: { type: 'plain_text_input', value: 'Easter' } } });
      const first = await waitFor('the failure in the modal', () =>
        viewUpdates(h, slackBefore, modal.viewId).find((c) => buttonsOf(c.args.view).length > 0),
      );
      const click = async (view: unknown) => {
        const from = h.slack.calls.length;
        const value = buttonsOf(view)[0]!.value!;
        await sendInteraction(
          h,
          viewBlockAction(ADMIN, submittedView(view as never, modal.viewId, {}), {
            type: 'button',
            action_id: 'account_app_retry',
            block_id: 'account_app_retry',
            value,
          }),
        );
        return waitFor('the modal answer', () => viewUpdates(h, from, modal.viewId)[0]);
      };
      const second = await click(first.args.view);
      expect(messageText(second.args.view)).toContain('could still not be created');
      expect(buttonsOf(second.args.view).map((b) => b.action_id)).toEqual(['account_app_retry']);
      const third = await click(second.args.view);
      const text = messageText(third.args.view);
      expect(text).toContain('Client secret');
      secrets.push(/```([^`]+)```/.exec(text)![1]!);
      const accountId = /Account `([0-9a-f]{24})`/.exec(text)![1]!;
      secrets.push((await h.app.deps.store.accountApps.get(accountId))!.appId);
      // The channel's failure message was closed too (the modal's button knew it).
      const closed = h.slack.calls.slice(slackBefore).filter((c) => c.method === 'chat.update');
      expect(closed).toHaveLength(1);
      expect(messageText(closed[0]!.args)).toContain('now has its application');
    });
  });

  describe('account link', () => {
    test('the AppID is checked with a read, must belong to that account, is stored encrypted and never echoed', async () => {
      const made = await accountMadeElsewhere(h, 'Legacy campaign');
      secrets.push(made.appId);
      const slackBefore = h.slack.calls.length;
      const pixBefore = h.sandbox.calls.length;
      await h.slash(ADMIN, `account link ${made.accountId}`, { channelId: CHANNEL });
      const modal = await openedModal(h, slackBefore, 'account_link');
      expect(h.sandbox.calls.length).toBe(pixBefore);
      const submit = (appId: string, userId = ADMIN) =>
        submitModal(h, userId, modal, { app_id: { app_id: { type: 'plain_text_input', value: appId } } });

      // The AppID of another account (the main application's: the default account).
      const wrong = await submit(h.sandbox.companies.main.mainAppId);
      expect(wrong.body?.response_action).toBe('errors');
      expect(String((wrong.body!.errors as Record<string, string>).app_id)).toContain(
        `belongs to another account (${h.sandbox.companies.main.defaultAccountId}), not ${made.accountId}`,
      );
      const unknown = await submit('Tm90QW5BcHBJZEF0QWxsOnJlYWxseQ==');
      expect(String((unknown.body!.errors as Record<string, string>).app_id)).toContain(
        'The Pix API does not accept this AppID (“Invalid appID”)',
      );
      const spaced = await submit('two words');
      expect(String((spaced.body!.errors as Record<string, string>).app_id)).toContain('no spaces');
      expect(await h.app.deps.store.accountApps.get(made.accountId)).toBeUndefined();

      // A viewer's submission is refused before any read.
      const checksBefore = h.sandbox.calls.length;
      const refused = await submit(made.appId, VIEWER);
      expect(String((refused.body!.errors as Record<string, string>).app_id)).toContain('You need the admin role');
      expect(h.sandbox.calls.length).toBe(checksBefore);

      const ok = await submit(made.appId);
      expect(ok.body).toMatchObject({ response_action: 'update' });
      expect(messageText(ok.body)).toContain('checked with the Pix API and stored encrypted');
      const check = h.sandbox.calls.slice(checksBefore);
      expect(check.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/v1/pix-keys']);
      expect(check[0]!.authorization).toBe(made.appId);
      expect(await h.app.deps.store.accountApps.get(made.accountId)).toMatchObject({ appId: made.appId });

      const audit = await waitFor('the audit', () => posts(h, slackBefore)[0]);
      expect(messageText(audit.args)).toContain(`<@${ADMIN}> registered an AppID for the account \`${made.accountId}\``);
      // Never echoed: not in any Slack call or answer since.
      expect(h.slack.calls.slice(slackBefore).some((c) => JSON.stringify(c.args).includes(made.appId))).toBe(false);
      expect(JSON.stringify(ok.body)).not.toContain(made.appId);

      // Its keys are now reachable, with that AppID.
      const keysBefore = h.sandbox.calls.length;
      const keys = await h.slash(VIEWER, `keys ${made.accountId}`);
      expect(messageText(await answerOf(keys.responseId))).toContain(`Pix keys of account \`${made.accountId}\``);
      expect(h.sandbox.calls.slice(keysBefore).map((c) => c.authorization)).toEqual([made.appId]);
    });

    test('an operator is refused the command, and nothing reaches the Pix API', async () => {
      const before = h.sandbox.calls.length;
      const slackBefore = h.slack.calls.length;
      const res = await h.slash(OPERATOR, `account link ${h.sandbox.companies.main.defaultAccountId}`);
      expect(messageText(res.ack)).toContain('*admin* role');
      expect(h.slack.calls.slice(slackBefore).filter((c) => c.method === 'views.open')).toEqual([]);
      expect(h.sandbox.calls.length).toBe(before);
    });
  });

  test('no AppID or client secret in the logs, in channel messages, or in the store file', () => {
    expect(secrets.length).toBeGreaterThanOrEqual(10); // after the runs above
    expectNoLeaks(h, secrets);
  });
});
