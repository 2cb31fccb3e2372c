import { APPROVAL_KINDS } from '../../commands';
import { type RunningApp, startPixOps } from '../../src/app';
import { runApprovalTick } from '../../src/approvals/tick';
import { loadConfig } from '../../src/runtime/config';
import { createLogger, SecretRegistry } from '../../src/runtime/logger';
import { slackSignatureHeaders } from '../../src/slack-standin/signing';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { openStore } from '../../src/store';
import {
  accountMadeElsewhere,
  clickButton,
  openedModal,
  sandboxApi,
  startHarnessWithMaster,
  submitModal,
} from '../support/accounts-harness';
import { makerFlows } from '../support/approval-flows';
import { answerOn, clickRoot, type PendingRoot, rootUpdates, threadPosts } from '../support/approvals';
import { BOT_TOKEN, type Harness, messageText, SIGNING_SECRET } from '../support/harness';
import { addProof, openLimitForm, submitLimitForm } from '../support/limit-form';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { waitFor } from '../support/wait';

// Reminders, the threshold of limit requests, the maker's standing, and the review's
// findings, each driven as Slack drives the app, asserting on what reached Slack and the Pix API.

const OPERATOR = 'U0OPER001';
const OPERATOR_CHECKER = 'U0OPER002';
/** An admin through the group S0ADMINS only: removing them from it takes their role away. */
const GROUP_ADMIN = 'U0ADMIN01';
const ADMIN_CHECKER = 'U0ADMIN02';
const CHANNEL = 'C0RULES';
const ALL = 'limit-request,key-add,key-delete,withdraw-key,account-create,rotate-secret';

type Flows = ReturnType<typeof makerFlows>;

/** A maker's flow to its end: the root posted and recorded (the maker told). */
const asked = async (flows: Flows, action: 'key-add' | 'rotate-secret' | 'account-create') => {
  const a = await flows[action]();
  await a.shown();
  return a;
};

async function setUp(env: Record<string, string>): Promise<{ h: Harness; flows: Flows; rotateClientId: string }> {
  const h = await startHarnessWithMaster({
    ACCESS_ADMINS: `S0ADMINS,${ADMIN_CHECKER}`,
    ACCESS_OPERATORS: `${OPERATOR},${OPERATOR_CHECKER}`,
    APPROVALS: ALL,
    ...env,
  });
  h.slack.userGroups.set('S0ADMINS', [GROUP_ADMIN]);
  const campaign = await accountMadeElsewhere(h, 'Rules campaign');
  await h.app.deps.store.accountApps.save({ ...campaign, name: 'Rules campaign' });
  const rotated = await accountMadeElsewhere(h, 'Rotated');
  const flows = makerFlows(h, {
    channel: CHANNEL,
    operator: OPERATOR,
    admin: GROUP_ADMIN,
    campaignAccountId: campaign.accountId,
    campaignAppId: campaign.appId,
    rotateClientId: rotated.clientId,
    accountId: h.sandbox.companies.main.defaultAccountId,
  });
  return { h, flows, rotateClientId: rotated.clientId };
}

const writesSince = (h: Harness, since: number) => h.sandbox.calls.slice(since).filter((c) => c.method !== 'GET');
const isReminder = (c: { args: Record<string, unknown> }) => messageText(c.args).includes('still waits for approval');

describe('approval reminders', () => {
  let h: Harness;
  let flows: Flows;
  let second: RunningApp | undefined;
  beforeAll(async () => {
    ({ h, flows } = await setUp({ ACCESS_APPROVERS: `${OPERATOR},${OPERATOR_CHECKER},S0CHECKERS` }));
  });
  afterAll(async () => {
    await second?.stop();
    await h.close();
  });

  /** The reminder's time comes (the record's clock moved back rather than the test waiting hours). */
  const remindNow = (id: string) =>
    h.app.deps.store.approvals.update(id, (r) => ({ ...r, remindAt: new Date(Date.now() - 1_000).toISOString() }));

  test('each reminder is posted once in the thread, mentioning the approvers (users and group) but never the maker; at most 3', async () => {
    const { root } = await asked(flows, 'key-add');
    const record = await h.app.deps.store.approvals.get(root.id);
    // APPROVAL_REMIND_AFTER's default: 4 hours after it was asked.
    expect(Date.parse(record!.remindAt!) - Date.parse(record!.createdAt)).toBe(4 * 3_600_000);
    await h.app.poller.tick();
    expect(threadPosts(h, root).filter(isReminder)).toEqual([]);
    for (let n = 1; n <= 4; n++) {
      await remindNow(root.id).catch(() => undefined);
      await h.app.poller.tick();
      await h.app.poller.tick();
    }
    const reminders = threadPosts(h, root).filter(isReminder);
    expect(reminders.map((c) => messageText(c.args).match(/reminder (\d) of 3/)?.[1])).toEqual(['1', '2', '3']);
    // Who is called on, before the colon: the approvers, but not the maker (an approver too).
    const who = /:bell: (.*?): \*/.exec(messageText(reminders[0]!.args))![1]!.split(', ');
    expect(who).toEqual([`<@${OPERATOR_CHECKER}>`, '<!subteam^S0CHECKERS>']);
    expect((await h.app.deps.store.approvals.get(root.id))?.remindAt).toBeUndefined();
  });

  test('two instances on one store, ticking at the same moment: each reminder posted once', async () => {
    const { root } = await asked(flows, 'key-add');
    const result = loadConfig({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      PORT: '0',
      SLACK_API_URL: h.slack.apiUrl,
      PIX_API_URL: h.sandbox.url,
      PIX_APP_ID: h.sandbox.companies.main.mainAppId,
      STORE_URL: `sqlite://${h.dataDir}/pix-ops.sqlite`,
      POLL_SCHEDULE: '0 0 1 1 *',
      APPROVALS: ALL,
      ACCESS_OPERATORS: `${OPERATOR},${OPERATOR_CHECKER}`,
    });
    if (!result.ok) throw new Error(result.problems.join('; '));
    second = await startPixOps(result.config, {
      logger: createLogger({ level: 'silent', secrets: new SecretRegistry() }),
      secrets: new SecretRegistry(),
    });
    for (let n = 1; n <= 3; n++) {
      await remindNow(root.id);
      await Promise.all([h.app.poller.tick(), second.poller.tick(), h.app.poller.tick(), second.poller.tick()]);
      expect(threadPosts(h, root).filter(isReminder)).toHaveLength(n);
    }
  });

  test('a reminder whose answer is lost is looked for, not posted again', async () => {
    const { root } = await asked(flows, 'key-add');
    await remindNow(root.id);
    h.slack.loseAnswers('chat.postMessage', 1);
    await h.app.poller.tick();
    await h.app.poller.tick();
    expect(threadPosts(h, root).filter(isReminder)).toHaveLength(1);
    expect((await h.app.deps.store.approvals.get(root.id))?.reminders).toBe(1);
  });

  test('the Home tab of an approver lists what waits for them, oldest first', async () => {
    const from = h.slack.calls.length;
    const body = JSON.stringify({
      token: 'legacy-verification-token',
      team_id: 'T0FAKE',
      api_app_id: 'A0PIXOPS',
      type: 'event_callback',
      event_id: 'Ev0RULESHOME',
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: 'T0FAKE', user_id: 'U0BOT', is_bot: true }],
      event: {
        type: 'app_home_opened',
        user: OPERATOR_CHECKER,
        channel: 'D0OPER002',
        tab: 'home',
        event_ts: `${Math.floor(Date.now() / 1000)}.1`,
      },
    });
    await h.post(body, { 'content-type': 'application/json', ...slackSignatureHeaders(body, SIGNING_SECRET) });
    const view = await waitFor('the Home tab', () => h.slack.calls.slice(from).find((c) => c.method === 'views.publish'));
    const ids = (view.args.view as { blocks: Array<{ block_id?: string }> }).blocks
      .map((b) => b.block_id)
      .filter((id) => id?.startsWith('approval_') && id !== 'approval_actions');
    const records = await Promise.all(ids.map((id) => h.app.deps.store.approvals.get(id!.slice('approval_'.length))));
    const created = records.map((r) => r!.createdAt);
    expect(created.length).toBeGreaterThan(1);
    expect([...created].sort()).toEqual(created);
  });
});

describe('reminders name the role when no approvers are listed, never the maker alone', () => {
  let h: Harness;
  let flows: Flows;
  beforeAll(async () => {
    ({ h, flows } = await setUp({ ACCESS_OPERATORS: OPERATOR, ACCESS_ADMINS: '' }));
  });
  afterAll(() => h.close());

  test('the maker is the only operator: the reminder names the role, not them', async () => {
    const { root } = await asked(flows, 'key-add');
    await h.app.deps.store.approvals.update(root.id, (r) => ({ ...r, remindAt: new Date(Date.now() - 1_000).toISOString() }));
    await h.app.poller.tick();
    const [reminder] = threadPosts(h, root).filter(isReminder);
    expect(messageText(reminder!.args)).toContain('anyone with the operator role');
    expect(/:bell: (.*?): \*/.exec(messageText(reminder!.args))![1]).toBe('anyone with the operator role');
  });
});

describe('APPROVAL_LIMIT_ABOVE', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarnessWithMaster({
      ACCESS_OPERATORS: `${OPERATOR},${OPERATOR_CHECKER}`,
      APPROVALS: 'limit-request',
      APPROVAL_LIMIT_ABOVE: '10.000,00',
    });
  });
  afterAll(() => h.close());

  const ask = async (dayLimit: string) => {
    const accountId = h.sandbox.companies.main.defaultAccountId;
    const form = await openLimitForm(h, { userId: OPERATOR, accountId, channelId: CHANNEL });
    return submitLimitForm(h, form, { userId: OPERATOR, dayLimit, files: [addProof(h.slack, 'statement.pdf')] });
  };

  test('above it, the request waits for approval; at or below it, it is filed at once and the audit entry says why', async () => {
    const since = h.sandbox.calls.length;
    const from = h.slack.calls.length;
    await ask('12000');
    await waitFor('the pending root', () =>
      h.slack.calls.slice(from).find((c) => (c.args.metadata as { event_type?: string } | undefined)?.event_type === 'pix_approval'),
    );
    expect(writesSince(h, since)).toEqual([]);

    await ask('10000');
    const filed = await waitFor('the filing', () =>
      h.sandbox.calls.slice(since).find((c) => c.method === 'POST' && c.path === '/api/v1/limits/request'),
    );
    expect(filed.body).toMatchObject({ pixDayLimit: 1_000_000 });
    const entry = await waitFor('the audit entry', async () =>
      (await h.app.deps.store.audit.page({ since: new Date(0), limit: 1_000 })).find(
        (e) => e.action === 'view:limit_request' && e.detail === 'no approval: below APPROVAL_LIMIT_ABOVE',
      ),
    );
    expect(entry.user).toBe(OPERATOR);
  });
});

describe('the maker’s standing and the secret’s delivery', () => {
  let h: Harness;
  let flows: Flows;
  beforeAll(async () => {
    ({ h, flows } = await setUp({}));
  });
  afterAll(() => h.close());
  beforeEach(() => {
    h.slack.userGroups.set('S0ADMINS', [GROUP_ADMIN]);
    h.slack.off('conversations.open');
    h.slack.off('chat.postMessage');
  });

  const rotations = (since: number) => writesSince(h, since).filter((c) => c.path === '/api/v1/application/rotate-secret');

  test('a maker whose direct message cannot be opened: nothing is rotated, the thread says why', async () => {
    const { root } = await asked(flows, 'rotate-secret');
    h.slack.on('conversations.open', (args) =>
      args.users === GROUP_ADMIN ? { ok: false, error: 'user_disabled' } : h.slack.answerByDefault('conversations.open', args),
    );
    const since = h.sandbox.calls.length;
    await clickRoot(h, ADMIN_CHECKER, root, 'approval_approve');
    await waitFor('settled', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
    expect(rotations(since)).toEqual([]);
    expect(messageText(threadPosts(h, root).at(-1)!.args)).toContain(`I could not open a direct message with <@${GROUP_ADMIN}>`);
  });

  test('a rotated secret whose direct message fails is not lost silently: the thread says so and what to do', async () => {
    const { root } = await asked(flows, 'rotate-secret');
    h.slack.on('chat.postMessage', (args) =>
      String(args.channel).startsWith('D') ? { ok: false, error: 'channel_not_found' } : h.slack.answerByDefault('chat.postMessage', args),
    );
    const since = h.sandbox.calls.length;
    await clickRoot(h, ADMIN_CHECKER, root, 'approval_approve');
    await waitFor('settled', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
    expect(rotations(since)).toHaveLength(1);
    const thread = threadPosts(h, root).map((c) => messageText(c.args));
    expect(thread.some((t) => t.includes('could not be delivered') && t.includes('/pix rotate-secret'))).toBe(true);
  });
  test('a campaign account whose client secret cannot reach the maker’s DM: created, and the thread says the secret was not delivered', async () => {
    const { root } = await asked(flows, 'account-create');
    h.slack.on('chat.postMessage', (args) =>
      String(args.channel).startsWith('D') ? { ok: false, error: 'channel_not_found' } : h.slack.answerByDefault('chat.postMessage', args),
    );
    const since = h.sandbox.calls.length;
    await clickRoot(h, ADMIN_CHECKER, root, 'approval_approve');
    await waitFor('settled', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
    expect(writesSince(h, since).map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/v1/account', 'POST /api/v1/application']);
    const thread = threadPosts(h, root).map((c) => messageText(c.args));
    expect(thread.some((t) => t.includes('could not be delivered') && t.includes('/pix rotate-secret'))).toBe(true);
  });

  test('without ACCESS_APPROVERS, a reminder mentions the lists of the roles that may approve (not the maker) and names the role', async () => {
    const { root } = await asked(flows, 'key-add');
    await h.app.deps.store.approvals.update(root.id, (r) => ({ ...r, remindAt: new Date(Date.now() - 1_000).toISOString() }));
    await h.app.poller.tick();
    const [reminder] = threadPosts(h, root).filter(isReminder);
    expect(/:bell: (.*?): \*/.exec(messageText(reminder!.args))![1]).toBe(
      `<!subteam^S0ADMINS>, <@${ADMIN_CHECKER}>, <@${OPERATOR_CHECKER}> (anyone with the operator role)`,
    );
  });

  // Last: the group's members, once looked up afresh, stay cached as they are now.
  test('a maker removed from the admins’ group before the approval: nothing is written, the root and the thread say why', async () => {
    const { root } = await asked(flows, 'rotate-secret');
    h.slack.userGroups.set('S0ADMINS', []);
    const since = h.sandbox.calls.length;
    const from = h.slack.calls.length;
    await clickRoot(h, ADMIN_CHECKER, root, 'approval_approve');
    await waitFor('settled', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
    expect(rotations(since)).toEqual([]);
    expect(writesSince(h, since)).toEqual([]);
    expect(messageText(rootUpdates(h, root).at(-1)!.args)).toContain('did not go through');
    expect(messageText(threadPosts(h, root).at(-1)!.args)).toContain(`<@${GROUP_ADMIN}> no longer has the *admin* role`);
    // No secret went to the maker.
    expect(
      h.slack.calls
        .slice(from)
        .filter(
          (c) =>
            c.method === 'chat.postMessage' && String(c.args.channel).startsWith('D') && messageText(c.args).includes('only you see this'),
        ),
    ).toEqual([]);
  });
});

describe('the review’s findings', () => {
  let h: Harness;
  let flows: Flows;
  beforeAll(async () => {
    ({ h, flows } = await setUp({ APPROVAL_TTL: '1h' }));
  });
  afterAll(() => h.close());
  afterEach(() => {
    h.slack.off('chat.update');
  });

  const expire = (root: PendingRoot) =>
    h.app.deps.store.approvals.update(root.id, (r) => ({ ...r, expiresAt: new Date(Date.now() - 1_000).toISOString() }));

  test('a settling reply is posted once, even when the root’s update fails and a tick settles it again', async () => {
    const { root } = await asked(flows, 'key-add');
    let updates = 0;
    h.slack.on('chat.update', (args) =>
      args.ts === root.ts && ++updates === 1 ? { ok: false, error: 'internal_error' } : h.slack.answerByDefault('chat.update', args),
    );
    const from = h.slack.calls.length;
    await clickRoot(h, OPERATOR_CHECKER, root, 'approval_reject');
    const modal = await openedModal(h, from, 'approval_reject_reason');
    await submitModal(h, OPERATOR_CHECKER, modal, { reason: { reason: { type: 'plain_text_input', value: 'not this one' } } });
    await waitFor('the root update tried', () => updates >= 1);
    await waitFor('the reply', () => threadPosts(h, root).find((c) => messageText(c.args).includes('rejected this')));
    await h.app.poller.tick();
    await waitFor('settled', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
    expect(threadPosts(h, root).filter((c) => messageText(c.args).includes('rejected this'))).toHaveLength(1);
  });

  test('a rejection whose root was deleted meanwhile is settled all the same, not retried on every tick', async () => {
    const { root } = await asked(flows, 'key-add');
    h.slack.messages.splice(
      h.slack.messages.findIndex((m) => m.channel === root.channel && m.ts === root.ts),
      1,
    );
    const from = h.slack.calls.length;
    await clickRoot(h, OPERATOR_CHECKER, root, 'approval_reject');
    const modal = await openedModal(h, from, 'approval_reject_reason');
    await submitModal(h, OPERATOR_CHECKER, modal, { reason: { reason: { type: 'plain_text_input', value: 'gone' } } });
    // Settled, then no longer listed: on sqlite the record and its index are two writes, the record first.
    expect(await waitFor('settled', async () => (await h.app.deps.store.approvals.get(root.id))?.settled)).toBe(true);
    await waitFor('no longer listed', async () => !(await h.app.deps.store.approvals.openIds()).includes(root.id));
  });

  test('cancel past the expiry: told it expired, the root says expired; nothing is cancelled', async () => {
    const { root } = await asked(flows, 'key-add');
    await expire(root);
    const click = await clickRoot(h, OPERATOR, root, 'approval_cancel');
    expect(messageText(await answerOn(h, click.responseId))).toContain('Already expired');
    expect((await h.app.deps.store.approvals.get(root.id))?.state).toBe('expired');
  });

  test('reject past the expiry: no form opens; told it expired', async () => {
    const { root } = await asked(flows, 'key-add');
    await expire(root);
    const from = h.slack.calls.length;
    const click = await clickRoot(h, OPERATOR_CHECKER, root, 'approval_reject');
    expect(messageText(await answerOn(h, click.responseId))).toContain('Already expired');
    expect(h.slack.calls.slice(from).filter((c) => c.method === 'views.open')).toEqual([]);
    expect((await h.app.deps.store.approvals.get(root.id))?.state).toBe('expired');
  });

  test('the reject form, while someone else holds the approval, is answered within Slack’s 3 seconds', async () => {
    const { root } = await asked(flows, 'key-add');
    const from = h.slack.calls.length;
    await clickRoot(h, OPERATOR_CHECKER, root, 'approval_reject');
    const modal = await openedModal(h, from, 'approval_reject_reason');
    // Another instance holds the approval (as while it posts a reminder): same file, same claims.
    const other = await openStore({ url: `sqlite://${h.dataDir}/pix-ops.sqlite`, secret: undefined });
    try {
      expect(await other.claim(`approval:${root.id}`, 60_000)).toBe(true);
      const started = Date.now();
      const res = await submitModal(h, OPERATOR_CHECKER, modal, { reason: { reason: { type: 'plain_text_input', value: 'no' } } });
      // Slack gives a view submission 3 seconds (https://docs.slack.dev/interactivity/handling-user-interaction#acknowledgment_response):
      // a protocol limit, not a speed target.
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(JSON.stringify(res.body)).toContain('deciding this right now');
      await other.release(`approval:${root.id}`);
    } finally {
      await other.close();
    }
    expect((await h.app.deps.store.approvals.get(root.id))?.state).toBe('pending');
  });

  test('APPROVALS empty: the tick touches no approval', async () => {
    const { root } = await asked(flows, 'key-add');
    await expire(root);
    const quiet = { ...h.app.deps, approvals: { ...h.app.deps.approvals, actions: new Set<never>() } };
    const from = h.slack.calls.length;
    expect(await runApprovalTick(quiet, APPROVAL_KINDS, { stopping: () => false })).toEqual({
      expired: 0,
      escalated: 0,
      reminded: 0,
      resumed: 0,
      settled: 0,
      orphans: 0,
    });
    expect(h.slack.calls.slice(from)).toEqual([]);
    expect((await h.app.deps.store.approvals.get(root.id))?.state).toBe('pending');
  });
});

describe('a failure once the pending root is posted', () => {
  let h: Harness;
  beforeAll(async () => {
    ({ h } = await setUp({}));
  });
  afterAll(() => h.close());

  test('the store failing as the root is recorded: the root loses its buttons and says it was not registered; the maker is told nothing was done', async () => {
    h.slack.on('chat.postMessage', async (args) => {
      const answer = h.slack.answerByDefault('chat.postMessage', args);
      if ((args.metadata as { event_type?: string } | undefined)?.event_type === 'pix_approval') await h.app.deps.store.close();
      return answer;
    });
    const res = await h.slash(GROUP_ADMIN, `rotate-secret ${(await accountMadeElsewhere(h, 'Doomed')).clientId}`, { channelId: CHANNEL });
    const ask = await answerOn(h, res.responseId);
    const button = (ask.blocks as Array<{ elements?: Array<{ action_id: string; value: string }> }>)
      .flatMap((b) => b.elements ?? [])
      .find((e) => e.action_id === 'rotate_secret_confirm')!;
    const from = h.slack.calls.length;
    const click = await clickButton(h, { userId: GROUP_ADMIN, actionId: 'rotate_secret_confirm', value: button.value, channelId: CHANNEL });
    expect(messageText(await answerOn(h, click.responseId))).toMatch(/storage is unavailable|nothing was done/i);
    const root = h.slack.calls
      .slice(from)
      .find(
        (c) => c.method === 'chat.postMessage' && (c.args.metadata as { event_type?: string } | undefined)?.event_type === 'pix_approval',
      )!;
    const ts = (root.response as { ts: string }).ts;
    const update = await waitFor('the root disowned', () =>
      h.slack.calls.slice(from).find((c) => c.method === 'chat.update' && c.args.ts === ts),
    );
    expect(JSON.stringify(update.args.blocks)).not.toContain('approval_approve');
    expect(messageText(update.args)).toContain('was not registered');
  });
});

describe('a lapsed claim', () => {
  let h: Harness;
  let flows: Flows;
  beforeAll(async () => {
    ({ h, flows } = await setUp({ POLL_CLAIM_TTL_MS: '1000' }));
  });
  afterAll(() => h.close());

  test('the claim lapses while the proofs upload and another instance takes it: the run stops before the filing', async () => {
    const a = await flows['limit-request']();
    await a.shown();
    // The proof's upload is held back (the sandbox answers it 1.5 s late).
    await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
      lateAnswer: { count: 1, method: 'POST', pathPrefix: '/api/v1/files', ms: 1_500 },
    });
    const since = h.sandbox.calls.length;
    await clickRoot(h, OPERATOR_CHECKER, a.root, 'approval_approve');
    await waitFor('the upload', () => h.sandbox.calls.slice(since).find((c) => c.path === '/api/v1/files'));
    // The instance stalls past its claim's life (a long pause, as a stopped VM makes), and another takes it.
    const stalledUntil = Date.now() + 1_200;
    while (Date.now() < stalledUntil);
    const other = await openStore({ url: `sqlite://${h.dataDir}/pix-ops.sqlite` });
    try {
      expect(await other.claim(`approval:${a.root.id}`, 60_000)).toBe(true);
      await waitFor(
        'the approval given up',
        async () =>
          (await h.app.deps.store.audit.page({ since: new Date(0), limit: 1_000 })).find(
            (e) => e.action === 'action:approval_approve' && e.outcome === 'approved' && e.detail === 'in doubt',
          ),
        10_000,
      );
      expect(h.sandbox.calls.slice(since).filter((c) => c.path === '/api/v1/limits/request')).toEqual([]);
      // Left `approving` for the instance that holds it now, which resumes it.
      expect((await h.app.deps.store.approvals.get(a.root.id))?.state).toBe('approving');
    } finally {
      await other.release(`approval:${a.root.id}`);
      await other.close();
    }
  });
});

describe('/pix accounts and a stale AppID', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarnessWithMaster({ ACCESS_VIEWERS: 'U0VIEWER1' });
  });
  afterAll(() => h.close());

  test('an AppID the Pix API refused after a rotation is shown as stale, not as stored', async () => {
    const fresh = await accountMadeElsewhere(h, 'Fresh');
    const stale = await accountMadeElsewhere(h, 'Stale');
    await h.app.deps.store.accountApps.save({ ...fresh, name: 'Fresh' });
    await h.app.deps.store.accountApps.save({ ...stale, name: 'Stale' });
    await h.app.deps.store.accountApps.markStale(stale.accountId);
    const res = await h.slash('U0VIEWER1', 'accounts');
    const text = messageText(res.ack ?? (await answerOn(h, res.responseId)));
    expect(text).toMatch(new RegExp(`${stale.accountId}[\\s\\S]*AppID stored \\(application \`${stale.clientId}\`\\) but \\*stale\\*`));
    expect(text).toContain(`AppID stored (encrypted), application \`${fresh.clientId}\``);
  });
});

describe('reminders on one Redis: two instances, and a run cut short after its post', () => {
  const namespace = testNamespace('reminders');
  const slack = new SlackStandIn();
  const apps: RunningApp[] = [];
  const secrets = new SecretRegistry();

  beforeAll(async () => {
    await slack.start();
    for (let i = 0; i < 2; i++) {
      const result = loadConfig({
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        PORT: '0',
        SLACK_API_URL: slack.apiUrl,
        STORE_URL: SHARED_REDIS_URL,
        STORE_SECRET: 'r'.repeat(40),
        STORE_NAMESPACE: namespace,
        POLL_SCHEDULE: '0 0 1 1 *',
        APPROVALS: 'key-add',
        ACCESS_APPROVERS: 'S0CHECKERS',
      });
      if (!result.ok) throw new Error(result.problems.join('; '));
      apps.push(await startPixOps(result.config, { logger: createLogger({ level: 'silent', secrets }), secrets }));
    }
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await slack.close();
    await deleteKeys(SHARED_REDIS_URL, namespace);
  });

  /** A pending approval with its root in the channel, as a maker's flow leaves it. */
  async function pending(n: number): Promise<{ id: string; ts: string }> {
    const store = apps[0]!.deps.store;
    const id = `${n}`.padStart(16, 'a');
    await store.approvals.create({
      id,
      makerId: OPERATOR,
      makerLocale: 'en',
      channel: CHANNEL,
      payload: { action: 'key-add', accountId: '6840aeca23c0d1fe48c856a3', pixKey: `reminded-${n}@example.com`, type: 'EMAIL' },
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const root = slack.addMessage({ channel: CHANNEL, text: 'approval root', bot_id: 'B0BOT', user: 'U0BOT' });
    await store.approvals.update(id, (r) => ({ ...r, rootTs: root.ts }));
    return { id, ts: root.ts };
  }
  const remindersIn = (ts: string) => slack.messages.filter((m) => m.thread_ts === ts && m.metadata?.event_type === 'pix_approval_notice');
  const tickBoth = () =>
    Promise.all(apps.flatMap((a) => [a.deps, a.deps]).map((deps) => runApprovalTick(deps, APPROVAL_KINDS, { stopping: () => false })));

  test('20 approvals, both instances ticking twice at once for each reminder: every reminder posted once', async () => {
    const approvals = await Promise.all(Array.from({ length: 20 }, (_, i) => pending(i + 1)));
    for (let round = 1; round <= 3; round++) {
      const due = new Date(Date.now() - 1_000).toISOString();
      for (const a of approvals) await apps[0]!.deps.store.approvals.update(a.id, (r) => ({ ...r, remindAt: due }));
      await tickBoth();
      for (const a of approvals)
        expect(remindersIn(a.ts).map((m) => m.metadata?.event_payload?.notice)).toEqual(
          Array.from({ length: round }, (_, i) => `reminder-${i + 1}`),
        );
    }
    expect(messageText(remindersIn(approvals[0]!.ts)[0])).toContain('<!subteam^S0CHECKERS>');
  });

  test('an instance that died after posting a reminder, before recording it: the next tick finds it and does not post it again', async () => {
    const a = await pending(99);
    // What the dead instance left: the reminder's number recorded as about to be posted, and the post made.
    await apps[0]!.deps.store.approvals.update(a.id, (r) => ({ ...r, reminding: 1, remindAt: new Date(Date.now() - 1_000).toISOString() }));
    slack.addMessage({
      channel: CHANNEL,
      thread_ts: a.ts,
      text: 'reminder',
      bot_id: 'B0BOT',
      user: 'U0BOT',
      metadata: { event_type: 'pix_approval_notice', event_payload: { approval_id: a.id, notice: 'reminder-1' } },
    });
    await tickBoth();
    expect(remindersIn(a.ts)).toHaveLength(1);
    expect(await apps[1]!.deps.store.approvals.get(a.id)).toMatchObject({ reminders: 1 });
    expect((await apps[1]!.deps.store.approvals.get(a.id))?.reminding).toBeUndefined();
  });
});

describe('approvers through a user group that changes while the approval waits', () => {
  let h: Harness;
  let flows: Flows;
  beforeAll(async () => {
    ({ h, flows } = await setUp({ ACCESS_APPROVERS: 'S0CHECKERS' }));
    h.slack.userGroups.set('S0CHECKERS', [OPERATOR_CHECKER]);
  });
  afterAll(() => h.close());

  test('a checker taken out of the group is refused at once (no cached membership); put back, they approve', async () => {
    const { root } = await asked(flows, 'key-add');
    // The checker's membership is looked up (and cached) by a first click.
    const from = h.slack.calls.length;
    await clickRoot(h, OPERATOR_CHECKER, root, 'approval_reject');
    await openedModal(h, from, 'approval_reject_reason');
    h.slack.userGroups.set('S0CHECKERS', []);
    const since = h.sandbox.calls.length;
    const refused = await clickRoot(h, OPERATOR_CHECKER, root, 'approval_approve');
    expect(messageText(await answerOn(h, refused.responseId))).toContain('Only the approvers listed in `ACCESS_APPROVERS`');
    expect(writesSince(h, since)).toEqual([]);
    h.slack.userGroups.set('S0CHECKERS', [OPERATOR_CHECKER]);
    await clickRoot(h, OPERATOR_CHECKER, root, 'approval_approve');
    await waitFor('settled', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
    expect((await h.app.deps.store.approvals.get(root.id))?.state).toBe('done');
  });
});
