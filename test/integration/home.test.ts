import { refreshHomesAfterDecision } from '../../src/home';
import type { SlackApiCall } from '../../src/slack-standin/web-api';
import { type Harness, messageText, startHarness } from '../support/harness';
import { createAccount, decideLimitRequest, openHome, openLimitRequest } from '../support/interactions';
import { sendInteraction, viewBlockAction } from '../support/slack-payloads';
import { deliveriesDone, waitFor } from '../support/wait';

const OPERATOR = 'U0HOMEOP1';
const VIEWER = 'U0HOMEVW1';
const STRANGER = 'U0NOBODY1';
const CHANNEL = 'C0HOME001';

const publishesFor = (h: Harness, userId: string, since = 0) =>
  h.slack.calls.slice(since).filter((c: SlackApiCall) => c.method === 'views.publish' && c.args.user_id === userId);

async function homeOf(h: Harness, userId: string) {
  const before = h.slack.calls.length;
  const pixBefore = h.sandbox.calls.length;
  await openHome(h, userId);
  const call = await waitFor(`the Home tab of ${userId}`, () => publishesFor(h, userId, before)[0], 10_000);
  const view = call.args.view as { type: string; blocks: unknown[] };
  return { view, text: messageText(view), pixCalls: h.sandbox.calls.slice(pixBefore) };
}

type Elements = Array<{ action_id?: string; value?: string }>;
const actionIds = (view: { blocks: unknown[] }) =>
  (view.blocks as Array<{ elements?: Elements; accessory?: { action_id?: string } }>)
    .flatMap((b) => [...(b.elements ?? []).map((e) => e.action_id), ...(b.accessory ? [b.accessory.action_id] : [])])
    .filter(Boolean);

const homeView = { id: 'V0HOMEVIEW', type: 'home', blocks: [], hash: 'h0', private_metadata: '', callback_id: '' };
const clickHome = (h: Harness, userId: string, actionId: string, value: string) =>
  sendInteraction(h, viewBlockAction(userId, homeView, { type: 'button', action_id: actionId, block_id: 'home', value }));

describe('the Home tab, through the real app', () => {
  let h: Harness;
  let main: Harness['sandbox']['companies']['main'];
  let inReview: { id: string; accountId: string; rootTs: string };
  let decided: { id: string; accountId: string };

  beforeAll(async () => {
    h = await startHarness({ ACCESS_OPERATORS: OPERATOR, ACCESS_VIEWERS: VIEWER });
    main = h.sandbox.companies.main;

    // One request in review that the app follows (its root in CHANNEL), one decided.
    const reviewAccount = await createAccount(h, main.masterAppId);
    const request = await openLimitRequest(h, {
      appId: main.mainAppId,
      accountId: reviewAccount,
      limits: { pixDayLimit: 654_321, pixNightLimit: 100_000 },
    });
    const posted = await h.app.deps.slack.retried.chat.postMessage({ channel: CHANNEL, text: 'root' });
    await h.app.deps.store.trackedRequests.track({
      limitRequestId: request.id,
      accountId: reviewAccount,
      requesterId: OPERATOR,
      channel: CHANNEL,
      rootTs: posted.ts!,
      current: { pixDayLimit: 500_000, pixNightLimit: 100_000 },
      requested: { pixDayLimit: 654_321, pixNightLimit: 100_000 },
      documents: [],
      source: 'filed',
      createdAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
    });
    inReview = { id: request.id, accountId: reviewAccount, rootTs: posted.ts! };

    const decidedAccount = await createAccount(h, main.masterAppId);
    const other = await openLimitRequest(h, {
      appId: main.mainAppId,
      accountId: decidedAccount,
      limits: { pixDayLimit: 800_000, pixNightLimit: 100_000 },
    });
    await decideLimitRequest(h, other.id, 'approve', { pixDayLimit: 700_000, pixNightLimit: 100_000 });
    decided = { id: other.id, accountId: decidedAccount };
  });
  afterAll(() => h.close());

  test('an operator: requests in review with account, amounts, age and thread link; decisions; accounts with balances; buttons', async () => {
    const { view, text } = await homeOf(h, OPERATOR);
    expect(view.type).toBe('home');
    expect(text).toContain('You are *operator*');

    expect(text).toContain('Limit requests in review');
    expect(text).toContain(inReview.id);
    expect(text).toContain(inReview.accountId);
    expect(text).toContain('Pix day R$5,000.00 → *R$6,543.21*');
    expect(text).toContain('filed 3 h ago');
    expect(text).toContain(`<@${OPERATOR}>`);
    expect(text).toContain(`<https://fake.slack.test/archives/${CHANNEL}/p${inReview.rootTs.replace('.', '')}|thread>`);

    expect(text).toContain('Latest decisions');
    expect(text).toContain(decided.id);
    expect(text).toContain('Approved');
    expect(text).toMatch(/Pix day \*R\$7,000\.00\* \(asked R\$8,000\.00\)/);

    expect(text).toContain('Accounts');
    expect(text).toContain(`\`${main.defaultAccountId}\` (default)`);
    // Balances are cents, like every amount of the service: shown in R$.
    expect(text).toContain('Balance: total R$15,000.00 · available R$15,000.00 · blocked R$0.00');
    expect(text).toContain(decided.accountId);

    expect(actionIds(view)).toEqual(expect.arrayContaining(['home_limit_request', 'home_refresh', 'home_pix_keys']));
  });

  test('a viewer sees the same, without the limit-request button', async () => {
    const { view, text } = await homeOf(h, VIEWER);
    expect(text).toContain('You are *viewer*');
    expect(text).toContain(inReview.id);
    expect(actionIds(view)).not.toContain('home_limit_request');
    expect(actionIds(view)).toContain('home_refresh');
  });

  test('an unauthorized user sees only how to get access, and nothing reaches the Pix API', async () => {
    const { view, text, pixCalls } = await homeOf(h, STRANGER);
    expect(text).toContain(STRANGER);
    expect(text).toMatch(/ACCESS_VIEWERS, ACCESS_OPERATORS or ACCESS_ADMINS/);
    expect(text).not.toContain(inReview.id);
    expect(text).not.toContain(main.defaultAccountId);
    expect(text).not.toContain('R$');
    expect(actionIds(view)).toEqual([]);
    expect(pixCalls).toEqual([]);
  });

  test('the Messages tab opening publishes nothing', async () => {
    const before = h.slack.calls.length;
    const taken = h.app.inFlight.total;
    await openHome(h, OPERATOR, 'messages');
    await openHome(h, OPERATOR, 'home');
    // Both events handled: the Home tab's one publish is there (a publish is part of its delivery's work), the Messages tab's none.
    await deliveriesDone(h.app, taken + 2);
    expect(publishesFor(h, OPERATOR, before)).toHaveLength(1);
  });

  test('the Pix API failing: the tab is still published, each part saying what could not be read', async () => {
    await fetch(`${h.sandbox.url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fail: { status: 503, count: 50 } }),
    });
    try {
      const { text } = await homeOf(h, OPERATOR);
      expect(text).toContain(inReview.id); // from the store
      expect(text).toContain('Could not list the accounts');
      expect(text).toContain('Could not read the latest limit requests');
      expect(text).toContain('Sandbox fault');
    } finally {
      await fetch(`${h.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    }
  });

  test('Request a limit increase opens the limit-request form for an operator; a viewer is refused', async () => {
    const before = h.slack.calls.length;
    const res = await clickHome(h, OPERATOR, 'home_limit_request', 'default');
    expect(res.status).toBe(200);
    const open = await waitFor('views.open', () => h.slack.calls.slice(before).find((c) => c.method === 'views.open'));
    expect((open.args.view as { callback_id: string }).callback_id).toBe('limit_request');
    const form = await waitFor('the form', () =>
      h.slack.calls.slice(before).find((c) => c.method === 'views.update' && messageText(c.args.view).includes('Proof files')),
    );
    expect(JSON.parse((form.args.view as { private_metadata: string }).private_metadata)).toMatchObject({
      channelId: OPERATOR,
      accountId: main.defaultAccountId,
    });

    const refusedBefore = h.slack.calls.length;
    const pixBefore = h.sandbox.calls.length;
    await clickHome(h, VIEWER, 'home_limit_request', 'default');
    const refusal = await waitFor('the refusal', () =>
      h.slack.calls.slice(refusedBefore).find((c) => c.method === 'chat.postMessage' && c.args.channel === VIEWER),
    );
    expect(messageText(refusal.args)).toMatch(/need the \*operator\* role/);
    expect(h.slack.calls.slice(refusedBefore).filter((c) => c.method === 'views.open')).toEqual([]);
    expect(h.sandbox.calls.slice(pixBefore)).toEqual([]);
  });

  test('Pix keys of the default account, read with the main AppID; an account with no known AppID says so', async () => {
    await fetch(`${h.sandbox.url}/api/v1/pix-keys`, {
      method: 'POST',
      headers: { authorization: main.mainAppId, 'content-type': 'application/json' },
      body: JSON.stringify({ pixKey: 'home-test@example.com', type: 'EMAIL' }),
    });
    const before = h.slack.calls.length;
    await clickHome(h, VIEWER, 'home_pix_keys', JSON.stringify({ accountId: main.defaultAccountId, isDefault: true }));
    const keys = await waitFor('the keys', () =>
      h.slack.calls.slice(before).find((c) => c.method === 'views.update' && messageText(c.args.view).includes('home-test@example.com')),
    );
    expect(messageText(keys.args.view)).toContain('(EMAIL)');

    const other = h.slack.calls.length;
    const pixBefore = h.sandbox.calls.length;
    await clickHome(h, VIEWER, 'home_pix_keys', JSON.stringify({ accountId: decided.accountId, isDefault: false }));
    const none = await waitFor('the explanation', () => h.slack.calls.slice(other).find((c) => c.method === 'views.update'));
    expect(messageText(none.args.view)).toContain('has no AppID for this account');
    expect(h.sandbox.calls.slice(pixBefore)).toEqual([]);

    const strangerBefore = h.slack.calls.length;
    await clickHome(h, STRANGER, 'home_pix_keys', JSON.stringify({ accountId: main.defaultAccountId, isDefault: true }));
    const refusal = await waitFor('the refusal', () =>
      h.slack.calls.slice(strangerBefore).find((c) => c.method === 'chat.postMessage' && c.args.channel === STRANGER),
    );
    expect(messageText(refusal.args)).toMatch(/need the \*viewer\* role/);
  });

  test('Refresh republishes the tab, with what is true now', async () => {
    // Decided since the viewer's tab was last published: the refreshed tab shows it.
    const account = await createAccount(h, main.masterAppId);
    const fresh = await openLimitRequest(h, {
      appId: main.mainAppId,
      accountId: account,
      limits: { pixDayLimit: 900_000, pixNightLimit: 100_000 },
    });
    await decideLimitRequest(h, fresh.id, 'reject');
    const before = h.slack.calls.length;
    await clickHome(h, VIEWER, 'home_refresh', 'refresh');
    const tab = await waitFor('the republished tab', () => publishesFor(h, VIEWER, before)[0]);
    const text = messageText(tab.args.view);
    expect(text).toContain('You are *viewer*');
    expect(text).toContain('Latest decisions');
    expect(text).toContain(fresh.id);
    expect(text).toContain(inReview.id);
  });

  test('once a request is decided, refreshHomesAfterDecision republishes the tabs of recent viewers and of the requester', async () => {
    await decideLimitRequest(h, inReview.id, 'reject');
    await h.app.deps.store.trackedRequests.recordReply(inReview.id, {
      ts: '1700000999.000100',
      status: 'REJECTED',
      decidedAt: new Date().toISOString(),
    });
    await h.app.deps.store.trackedRequests.close(inReview.id);
    const before = h.slack.calls.length;
    const count = await refreshHomesAfterDecision(h.app.deps, { requesterId: 'U0REQUEST9' });
    expect(count).toBeGreaterThanOrEqual(3); // operator and viewer (opened before) and the requester
    const operatorTab = messageText(publishesFor(h, OPERATOR, before)[0]!.args.view);
    expect(operatorTab).toContain('None right now');
    expect(operatorTab).toMatch(new RegExp(`Rejected · \`${inReview.id}\``));
    expect(publishesFor(h, VIEWER, before)).toHaveLength(1);
    // The requester has no role: only how to get access.
    expect(messageText(publishesFor(h, 'U0REQUEST9', before)[0]!.args.view)).toContain('no role');
    expect(publishesFor(h, STRANGER, before)).toEqual([]); // not remembered: it saw no data
  });
});

describe('the Home tab in sandbox mode', () => {
  test('everyone is admin and the tab says SANDBOX', async () => {
    const h = await startHarness({}, { sandboxMode: true });
    try {
      const { text } = await homeOf(h, 'U0ANYONE1');
      expect(text).toContain('You are *admin*');
      expect(text).toContain('SANDBOX');
    } finally {
      await h.close();
    }
  });
});
