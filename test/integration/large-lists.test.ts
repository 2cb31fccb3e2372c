import { slackSignatureHeaders } from '../../src/slack-standin/signing';
import { type LimitRequestAnswer, SAMPLES } from '../sandbox/helpers';
import { buttonsOf, clickButton, sandboxApi } from '../support/accounts-harness';
import { type Harness, messageText, SIGNING_SECRET, startHarness } from '../support/harness';
import { clearFaults, failPixApi } from '../support/interactions';
import { blockSuggestion, sendInteraction, submittedView, viewBlockAction, viewSubmission } from '../support/slack-payloads';
import { waitFor } from '../support/wait';

// The company at the size the Pix API allows: 150 accounts, 100 Pix keys on one, 100 limit requests
// with 10 documents of 255-character names and descriptions of 2,000 characters. Every answer goes
// through the fake Slack's Block Kit checks (a refusal fails the test); these tests add that the
// lists page instead of stopping, and that the limit form searches the accounts a select cannot hold.

const OPERATOR = 'U0OPERLG1';
const VIEWER = 'U0VIEWLG1';
const CHANNEL = 'C0LARGE01';

type Block = {
  type: string;
  block_id?: string;
  text?: { text: string };
  element?: Record<string, unknown>;
  accessory?: Record<string, unknown>;
};
type View = { blocks: Block[]; private_metadata: string; callback_id: string };
type Answer = { blocks: Block[]; text: string; replace_original?: boolean; response_type?: string };

const DESCRIPTION = 'More sales in December & January, see <the attached statements>. '.repeat(40).slice(0, 2000);
const FILE_NAMES = Array.from({ length: 10 }, (_, i) => `${`statement-${i}-`.padEnd(251, 'x')}.pdf`);

/** A limit request filed straight on the sandbox (as from the Pix dashboard), with these documents. */
async function fileRequest(h: Harness, accountId: string, names: string[]): Promise<string> {
  const { mainAppId } = h.sandbox.companies.main;
  const documents: Array<{ fileId: string }> = [];
  for (const name of names) {
    const form = new FormData();
    form.append('purpose', 'ACCOUNT_LIMIT_REQUEST');
    form.append('file', new Blob([SAMPLES.pdf], { type: 'application/pdf' }), name);
    const res = await fetch(`${h.sandbox.url}/api/v1/files`, { method: 'POST', headers: { authorization: mainAppId }, body: form });
    documents.push({ fileId: ((await res.json()) as { file: { id: string } }).file.id });
  }
  const { limitRequest } = await sandboxApi<LimitRequestAnswer>(h, 'POST', '/api/v1/limits/request', mainAppId, {
    companyBankAccountId: accountId,
    pixDayLimit: Number.MAX_SAFE_INTEGER,
    pixNightLimit: Number.MAX_SAFE_INTEGER,
    documents,
    description: DESCRIPTION,
  });
  return limitRequest.id as string;
}

let events = 0;
/** Slack's `app_home_opened` event, signed as Slack signs it. */
async function openHome(h: Harness, userId: string) {
  const n = ++events;
  const body = JSON.stringify({
    token: 'legacy-verification-token',
    team_id: 'T0FAKE',
    api_app_id: 'A0PIXOPS',
    type: 'event_callback',
    event_id: `Ev0LARGE${n}`,
    event_time: Math.floor(Date.now() / 1000),
    event: {
      type: 'app_home_opened',
      user: userId,
      channel: `D0${userId.slice(2)}`,
      tab: 'home',
      event_ts: `${Math.floor(Date.now() / 1000)}.${n}`,
    },
  });
  const res = await h.post(body, { 'content-type': 'application/json', ...slackSignatureHeaders(body, SIGNING_SECRET) });
  expect(res.status).toBe(200);
}

describe('150 accounts and 100 Pix keys', () => {
  let h: Harness;
  let accountIds: string[];
  let keys: string[];
  let requestIds: string[];

  beforeAll(async () => {
    h = await startHarness({ ACCESS_OPERATORS: OPERATOR, ACCESS_VIEWERS: VIEWER });
    const { masterAppId, mainAppId } = h.sandbox.companies.main;
    for (let i = 0; i < 149; i++) await sandboxApi(h, 'POST', '/api/v1/account', masterAppId);
    accountIds = (await sandboxApi<{ accounts: Array<{ accountId: string }> }>(h, 'GET', '/api/v1/account', mainAppId)).accounts.map(
      (a) => a.accountId,
    );
    keys = Array.from({ length: 100 }, (_, i) => `finance.${String(i).padStart(3, '0')}@example.com`);
    for (const key of keys) await sandboxApi(h, 'POST', '/api/v1/pix-keys', mainAppId, { pixKey: key, type: 'EMAIL' });
    requestIds = [];
    for (const [i, accountId] of accountIds.slice(0, 100).entries())
      requestIds.push(await fileRequest(h, accountId, i === 0 ? FILE_NAMES : FILE_NAMES.slice(0, 1)));
  }, 60_000);
  afterAll(() => h.close());

  const answerOf = async (responseId: string) =>
    (await waitFor(`an answer on ${responseId}`, () => h.slack.responsesTo(responseId)[0])).body as Answer;
  const nav = (answer: Answer) => buttonsOf(answer).filter((b) => /_(prev|next)$/.test(b.action_id));

  /** Follows Next from the first page to the last; every page as Slack received it. */
  async function walk(first: Answer, userId: string): Promise<Answer[]> {
    const pages = [first];
    for (;;) {
      const next = nav(pages[pages.length - 1]!).find((b) => b.action_id.endsWith('_next'));
      if (!next) return pages;
      const click = await clickButton(h, { userId, actionId: next.action_id, value: next.value!, channelId: CHANNEL });
      const page = await answerOf(click.responseId);
      expect(page.replace_original).toBe(true);
      pages.push(page);
    }
  }

  test('/pix accounts pages through all 150 accounts, 20 a page, each account once, with Previous and Next', async () => {
    expect(accountIds).toHaveLength(150);
    const res = await h.slash(VIEWER, 'accounts', { channelId: CHANNEL });
    const first = await answerOf(res.responseId);
    expect(messageText(first)).toContain('Accounts 1–20 of 150 · page 1 of 8');
    expect(nav(first).map((b) => [b.action_id, b.value])).toEqual([['accounts_next', '2']]);

    const pages = await walk(first, VIEWER);
    expect(pages).toHaveLength(8);
    expect(nav(pages[3]!).map((b) => [b.action_id, b.value])).toEqual([
      ['accounts_prev', '3'],
      ['accounts_next', '5'],
    ]);
    expect(nav(pages[7]!).map((b) => b.action_id)).toEqual(['accounts_prev']);
    expect(messageText(pages[7]!)).toContain('Accounts 141–150 of 150 · page 8 of 8');
    const shown = pages.flatMap((p) => [...messageText(p).matchAll(/\*`([0-9a-f]{24})`/g)].map((m) => m[1]));
    expect(shown).toEqual(accountIds);
  });

  test('/pix keys pages through all 100 keys, 20 a page, each with its Delete button, Add on every page', async () => {
    const { defaultAccountId } = h.sandbox.companies.main;
    const res = await h.slash(VIEWER, `keys ${defaultAccountId}`, { channelId: CHANNEL });
    const first = await answerOf(res.responseId);
    expect(messageText(first)).toContain('Keys 1–20 of 100 · page 1 of 5');
    const pages = await walk(first, VIEWER);
    expect(pages).toHaveLength(5);
    const deletes = pages.flatMap((p) =>
      buttonsOf(p)
        .filter((b) => b.action_id === 'pix_key_delete_ask')
        .map((b) => JSON.parse(b.value!).pixKey as string),
    );
    expect(deletes).toEqual(keys);
    for (const page of pages) expect(buttonsOf(page).filter((b) => b.action_id === 'pix_key_add_open')).toHaveLength(1);
  });

  test('/pix limit list pages through all 100 requests, newest first, 10 a page', async () => {
    const res = await h.slash(VIEWER, 'limit list', { channelId: CHANNEL });
    const pages = await walk(await answerOf(res.responseId), VIEWER);
    expect(pages).toHaveLength(10);
    const shown = pages.flatMap((p) => [...messageText(p).matchAll(/^`([0-9a-f]{24})`/gm)].map((m) => m[1]));
    expect(new Set(shown)).toEqual(new Set(requestIds));
  });

  test('/pix limit status of a request with 10 documents of 255-character names and a 2,000-character description', async () => {
    const res = await h.slash(VIEWER, `limit status ${requestIds[0]}`, { channelId: CHANNEL });
    const text = messageText(await answerOf(res.responseId));
    for (const name of FILE_NAMES) expect(text).toContain(name.slice(0, 100));
    expect(text).toContain('More sales in December &amp; January, see &lt;the attached statements&gt;.');
    expect(text).toContain('…');
  });

  test('the Home tab: the latest decisions and 15 of the 150 accounts, and how many more', async () => {
    const before = h.slack.calls.length;
    await openHome(h, OPERATOR);
    const publish = await waitFor('the Home tab', () =>
      h.slack.calls.slice(before).find((c) => c.method === 'views.publish' && c.args.user_id === OPERATOR),
    );
    const text = messageText(publish.args.view);
    expect(text).toContain('And 135 more');
    expect(buttonsOf(publish.args.view).filter((b) => b.action_id === 'home_pix_keys')).toHaveLength(15);
  });

  test('a page turn the Pix API fails: said in a message of its own, the list left as it was', async () => {
    await failPixApi(h, 503, 20);
    try {
      const click = await clickButton(h, { userId: VIEWER, actionId: 'accounts_next', value: '2', channelId: CHANNEL });
      const answer = await answerOf(click.responseId);
      expect(answer.replace_original).toBe(false);
      expect(messageText(answer)).toContain('read the accounts');
    } finally {
      await clearFaults(h);
    }
  });

  test('a paging button that names no page: told so, nothing read', async () => {
    const before = h.sandbox.calls.length;
    const click = await clickButton(h, {
      userId: VIEWER,
      actionId: 'pix_keys_next',
      value: '{"accountId":"x","page":"two"}',
      channelId: CHANNEL,
    });
    expect(messageText(await answerOf(click.responseId))).toContain('This button does not name a page');
    expect(h.sandbox.calls.slice(before)).toEqual([]);
  });

  describe('the limit form with more accounts than a select holds', () => {
    async function openForm() {
      const before = h.slack.calls.length;
      await h.slash(OPERATOR, 'limit request', { channelId: CHANNEL });
      const update = await waitFor('the form', () =>
        h.slack.calls
          .slice(before)
          .find((c) => c.method === 'views.update' && (c.args.view as View).blocks.some((b) => b.type === 'input')),
      );
      return { view: update.args.view as View, viewId: String(update.args.view_id) };
    }
    const accountElement = (view: View) => view.blocks.find((b) => b.block_id === 'companyBankAccountId')!.element!;

    test('the account select searches the accounts, the default one chosen', async () => {
      const { view } = await openForm();
      expect(accountElement(view)).toMatchObject({
        type: 'external_select',
        action_id: 'limit_request_account',
        min_query_length: 0,
        initial_option: { value: h.sandbox.companies.main.defaultAccountId },
      });
    });

    test('its options: the first 100 for nothing typed, the matching ones for part of an id', async () => {
      const { view, viewId } = await openForm();
      const suggest = (value: string) =>
        sendInteraction(
          h,
          blockSuggestion(OPERATOR, {
            actionId: 'limit_request_account',
            blockId: 'companyBankAccountId',
            value,
            view: { id: viewId, ...view },
          }),
        );
      const all = await suggest('');
      expect((all.body!.options as Array<{ value: string }>).map((o) => o.value)).toEqual(accountIds.slice(0, 100));
      const last = accountIds[149]!;
      const found = await suggest(last.slice(-6));
      expect((found.body!.options as Array<{ value: string }>).map((o) => o.value)).toEqual([last]);
      expect(await suggest('zzz-no-such-account')).toMatchObject({ body: { options: [] } });
    });

    test('choosing an account found by the search re-reads its limits', async () => {
      const { view, viewId } = await openForm();
      const chosen = accountIds[149]!;
      const before = h.slack.calls.length;
      const pixBefore = h.sandbox.calls.length;
      await sendInteraction(
        h,
        viewBlockAction(OPERATOR, submittedView(view as never, viewId, {}), {
          type: 'external_select',
          action_id: 'limit_request_account',
          block_id: 'companyBankAccountId',
          selected_option: { text: { type: 'plain_text', text: chosen }, value: chosen },
        }),
      );
      const update = await waitFor('the rebuilt form', () =>
        h.slack.calls.slice(before).find((c) => c.method === 'views.update' && c.args.view_id === viewId),
      );
      expect(h.sandbox.calls.slice(pixBefore).map((c) => c.path)).toContain(`/api/v1/limits/${chosen}`);
      expect(accountElement(update.args.view as View)).toMatchObject({ type: 'external_select', initial_option: { value: chosen } });
      expect(JSON.parse((update.args.view as View).private_metadata).accountId).toBe(chosen);
    });

    test('the options when the Pix API fails: none', async () => {
      await failPixApi(h, 503, 20);
      try {
        const pixBefore = h.sandbox.calls.length;
        const res = await sendInteraction(h, blockSuggestion(OPERATOR, { actionId: 'limit_request_account', value: '' }));
        expect(res.body).toEqual({ options: [] });
        // The answer came after the Pix API's failures (Slack's three seconds are kept by the router's
        // deadline, not measured here: a clock bound flakes on a busy machine).
        expect(h.sandbox.calls.slice(pixBefore).map((c) => c.path)).toContain('/api/v1/account');
      } finally {
        await clearFaults(h);
      }
    });

    test('a viewer is offered no accounts, and the Pix API is not asked', async () => {
      const before = h.sandbox.calls.length;
      const res = await sendInteraction(h, blockSuggestion(VIEWER, { actionId: 'limit_request_account', value: '' }));
      expect(res.body).toEqual({ options: [] });
      expect(h.sandbox.calls.slice(before)).toEqual([]);
    });
  });

  describe('the payment form with more accounts than a select holds', () => {
    test('the source account is searched, the default one chosen; a found one is the payment’s', async () => {
      const before = h.slack.calls.length;
      await h.slash(OPERATOR, 'pay', { channelId: CHANNEL });
      const update = await waitFor('the payment form', () =>
        h.slack.calls
          .slice(before)
          .find((c) => c.method === 'views.update' && (c.args.view as View).blocks.some((b) => b.type === 'input')),
      );
      const view = update.args.view as View;
      const viewId = String(update.args.view_id);
      expect(view.blocks.find((b) => b.block_id === 'sourceAccountId')!.element).toMatchObject({
        type: 'external_select',
        action_id: 'pay_source_account',
        initial_option: { value: h.sandbox.companies.main.defaultAccountId },
      });
      const suggest = (userId: string, value: string) =>
        sendInteraction(
          h,
          blockSuggestion(userId, { actionId: 'pay_source_account', blockId: 'sourceAccountId', value, view: { id: viewId, ...view } }),
        );
      const all = await suggest(OPERATOR, '');
      expect((all.body!.options as Array<{ value: string }>).map((o) => o.value)).toEqual(accountIds.slice(0, 100));
      const last = accountIds[149]!;
      expect(((await suggest(OPERATOR, last.slice(-6))).body!.options as Array<{ value: string }>).map((o) => o.value)).toEqual([last]);
      const pixBefore = h.sandbox.calls.length;
      expect((await suggest(VIEWER, '')).body).toEqual({ options: [] });
      expect(h.sandbox.calls.slice(pixBefore)).toEqual([]);

      // Sent with the account found by the search: the approval is for that account.
      const state = {
        sourceAccountId: { pay_source_account: { type: 'external_select', selected_option: { value: last } } },
        destinationAlias: { destinationAlias: { type: 'plain_text_input', value: 'financeiro@graficarapida.com.br' } },
        destinationAliasType: { destinationAliasType: { type: 'static_select', selected_option: null } },
        value: { value: { type: 'plain_text_input', value: '10' } },
        comment: { comment: { type: 'plain_text_input', value: null } },
      };
      const slackFrom = h.slack.calls.length;
      await sendInteraction(h, viewSubmission(OPERATOR, submittedView(view as never, viewId, state)));
      const root = await waitFor('the approval root', () =>
        h.slack.calls.slice(slackFrom).find((c) => c.method === 'chat.postMessage' && (c.response as { ok?: boolean }).ok),
      );
      const id = (root.args.metadata as { event_payload: { approval_id: string } }).event_payload.approval_id;
      expect((await h.app.deps.store.approvals.get(id))?.payload).toMatchObject({ action: 'pay', sourceAccountId: last });
    });
  });
});
