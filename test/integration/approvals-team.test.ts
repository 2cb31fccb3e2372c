import { APPROVAL_KINDS } from '../../commands';
import { runApprovalTick } from '../../src/approvals/tick';
import { addDays, isoDateOf, saoPauloToday } from '../../src/domain/sao-paulo-date';
import { slackSignatureHeaders } from '../../src/slack-standin/signing';
import { accountMadeElsewhere, sandboxApi, startHarnessWithMaster } from '../support/accounts-harness';
import { makerFlows } from '../support/approval-flows';
import { answerOn, clickRoot, type PendingRoot, pendingRoot, rejectWithReason, rootUpdates, threadPosts } from '../support/approvals';
import { type Harness, messageText, SIGNING_SECRET } from '../support/harness';
import { addProof, openLimitForm, requestsOf, submitLimitForm } from '../support/limit-form';
import { deliveriesDone, waitFor } from '../support/wait';

// Approvals at team scale, driven as Slack drives the app: two checkers, escalation, delegation while
// away; each asserted on what reached Slack, the Pix API and the audit trail.

const MAKER = 'U0MAKER01';
const CHECKER_A = 'U0CHECKA1';
const CHECKER_B = 'U0CHECKB1';
/** An operator outside ACCESS_APPROVERS: decides only as someone's delegate, or once escalated as a manager. */
const BRUNO = 'U0BRUNO01';
const ABEL = 'U0ABEL001';
const MANAGER = 'U0MANAGER';
const HEAD_1 = 'U0HEAD001';
const HEAD_2 = 'U0HEAD002';
const VIEWER = 'U0VIEWER1';
const NOBODY = 'U0NOBODY1';
/** An operator through the user group DESK alone, while Slack says they are in it. */
const DORA = 'U0DORA001';
const DESK = 'S0DESK';
const CHANNEL = 'C0TEAM';
const OPERATORS = [MAKER, CHECKER_A, CHECKER_B, BRUNO, ABEL, MANAGER, HEAD_1];

type Flows = ReturnType<typeof makerFlows>;

async function setUp(env: Record<string, string>): Promise<{ h: Harness; flows: Flows; campaignAccountId: string }> {
  const h = await startHarnessWithMaster({
    ACCESS_OPERATORS: OPERATORS.join(','),
    ACCESS_VIEWERS: [VIEWER, HEAD_2].join(','),
    ACCESS_APPROVERS: [CHECKER_A, CHECKER_B, ABEL].join(','),
    APPROVALS: 'limit-request,key-add,rotate-secret',
    ...env,
  });
  const campaign = await accountMadeElsewhere(h, 'Team campaign');
  await h.app.deps.store.accountApps.save({ ...campaign, name: 'Team campaign' });
  const flows = makerFlows(h, {
    channel: CHANNEL,
    operator: MAKER,
    admin: MAKER,
    campaignAccountId: campaign.accountId,
    campaignAppId: campaign.appId,
    rotateClientId: '',
    accountId: h.sandbox.companies.main.defaultAccountId,
  });
  return { h, flows, campaignAccountId: campaign.accountId };
}

const writesSince = (h: Harness, since: number) => h.sandbox.calls.slice(since).filter((c) => c.method !== 'GET');
const keyWrites = (h: Harness, since: number) => writesSince(h, since).filter((c) => c.path === '/api/v1/pix-keys');
const lastRoot = (h: Harness, root: PendingRoot) => messageText(rootUpdates(h, root).at(-1)?.args);
const auditEntries = async (h: Harness) => h.app.deps.store.audit.page({ since: new Date(0), limit: 1_000 });

/** A key to add, asked by the maker: the root posted and recorded. */
async function askKey(flows: Flows): Promise<PendingRoot> {
  const asked = await flows['key-add']();
  await asked.shown();
  return asked.root;
}

/** Clicks Approve and waits until the click's work is over: what the clicker was told, if anything. */
async function approveAs(h: Harness, user: string, root: PendingRoot): Promise<string> {
  const taken = h.app.inFlight.total;
  const click = await clickRoot(h, user, root, 'approval_approve');
  await deliveriesDone(h.app, taken + 1);
  return h.slack
    .responsesTo(click.responseId)
    .map((r) => messageText(r.body))
    .join('\n');
}

async function slash(h: Harness, user: string, text: string): Promise<string> {
  const res = await h.slash(user, text, { channelId: CHANNEL });
  return messageText(res.ack ?? (await answerOn(h, res.responseId)));
}

/** The Home tab as `user` opens it: the view the app publishes. */
async function homeOf(h: Harness, user: string): Promise<string> {
  const from = h.slack.calls.length;
  const body = JSON.stringify({
    token: 'legacy-verification-token',
    team_id: 'T0FAKE',
    api_app_id: 'A0PIXOPS',
    type: 'event_callback',
    event_id: `Ev0${user}${from}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: 'T0FAKE', user_id: 'U0BOT', is_bot: true }],
    event: { type: 'app_home_opened', user, channel: `D${user.slice(1)}`, tab: 'home', event_ts: `${Math.floor(Date.now() / 1000)}.1` },
  });
  await h.post(body, { 'content-type': 'application/json', ...slackSignatureHeaders(body, SIGNING_SECRET) });
  const view = await waitFor('the Home tab', () =>
    h.slack.calls.slice(from).find((c) => c.method === 'views.publish' && c.args.user_id === user),
  );
  return messageText(view.args.view);
}

describe('two checkers', () => {
  let h: Harness;
  let flows: Flows;
  beforeAll(async () => {
    ({ h, flows } = await setUp({ APPROVAL_QUORUM_ACTIONS: 'key-add', APPROVAL_QUORUM_ABOVE: '10.000,00' }));
  });
  afterAll(() => h.close());

  test('the first approval is recorded and shown, nothing sent; the same checker again is told; the second distinct checker runs it once, the root naming both', async () => {
    const root = await askKey(flows);
    expect(messageText(root.call.args)).toContain('Needs 2 approvals, by distinct checkers: none yet.');
    const since = h.sandbox.calls.length;
    expect(await approveAs(h, CHECKER_A, root)).toContain('Your approval is recorded: 1 of 2 approvals');
    expect(writesSince(h, since)).toEqual([]);
    expect(lastRoot(h, root)).toContain(`1 of 2 approvals: <@${CHECKER_A}>`);
    expect((await h.app.deps.store.approvals.get(root.id))?.state).toBe('pending');

    expect(await approveAs(h, CHECKER_A, root)).toContain('You already approved this (1 of 2 approvals)');
    expect(writesSince(h, since)).toEqual([]);

    await approveAs(h, CHECKER_B, root);
    await waitFor('done', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
    expect(keyWrites(h, since)).toHaveLength(1);
    expect(lastRoot(h, root)).toContain(`Approved by <@${CHECKER_A}> and <@${CHECKER_B}>`);
    const entries = await auditEntries(h);
    const steps = entries.filter((e) => e.action === 'action:approval_approve' && e.target?.includes(root.id));
    expect(steps.map((e) => [e.user, e.outcome, e.detail])).toEqual(
      expect.arrayContaining([
        [CHECKER_A, 'approved', '1 of 2 approvals'],
        [CHECKER_A, 'refused', 'already approved'],
        [CHECKER_B, 'approved', '2 of 2 approvals'],
      ]),
    );
    expect(steps.filter((e) => e.outcome === 'approved').map((e) => e.checker)).toEqual(expect.arrayContaining([CHECKER_A, CHECKER_B]));
  });

  test('a reject by either checker ends it, after a first approval: nothing is sent', async () => {
    const root = await askKey(flows);
    const since = h.sandbox.calls.length;
    await approveAs(h, CHECKER_A, root);
    await rejectWithReason(h, CHECKER_A, root, 'changed my mind');
    await waitFor('rejected', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
    expect((await h.app.deps.store.approvals.get(root.id))?.state).toBe('rejected');
    expect(writesSince(h, since)).toEqual([]);
    expect(await approveAs(h, CHECKER_B, root)).toContain('Already rejected');
    expect(writesSince(h, since)).toEqual([]);
  });

  test('the maker, a user without the role and a user with no role at all are refused, and nothing is recorded for them', async () => {
    const root = await askKey(flows);
    const since = h.sandbox.calls.length;
    expect(await approveAs(h, MAKER, root)).toContain('You asked for this yourself');
    expect(await approveAs(h, VIEWER, root)).toContain('operator');
    expect(await approveAs(h, NOBODY, root)).toMatch(/You need the \*operator\* role/);
    expect((await h.app.deps.store.approvals.get(root.id))?.approvedBy).toBeUndefined();
    expect(writesSince(h, since)).toEqual([]);
  });

  test('the Pix API failing once both approved: it fails, the root naming both checkers and the thread saying why', async () => {
    const root = await askKey(flows);
    await approveAs(h, CHECKER_A, root);
    await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
      fail: { count: 1, method: 'POST', pathPrefix: '/api/v1/pix-keys', status: 500 },
    });
    await approveAs(h, CHECKER_B, root);
    await waitFor('settled', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
    expect((await h.app.deps.store.approvals.get(root.id))?.state).toBe('failed');
    expect(lastRoot(h, root)).toContain(`Approved by <@${CHECKER_A}> and <@${CHECKER_B}>`);
    expect(lastRoot(h, root)).toContain('did not go through');
    expect(messageText(threadPosts(h, root).at(-1)?.args)).toContain(`<@${MAKER}>`);
  });

  test('APPROVAL_QUORUM_ABOVE: a limit request above it needs two checkers, one at it needs one', async () => {
    const accountId = h.sandbox.companies.main.defaultAccountId;
    const ask = async (dayLimit: string) => {
      const from = h.slack.calls.length;
      const form = await openLimitForm(h, { userId: MAKER, accountId, channelId: CHANNEL });
      await submitLimitForm(h, form, { userId: MAKER, dayLimit, files: [addProof(h.slack, 'statement.pdf')] });
      const root = await pendingRoot(h, from);
      // Recorded a moment after the post: a click before that is told to look again.
      await waitFor('the recorded root', async () => (await h.app.deps.store.approvals.get(root.id))?.rootTs === root.ts);
      return root;
    };
    const root = await ask('10001');
    expect(messageText(root.call.args)).toContain('Needs 2 approvals');
    // Filed once both approved: the approval's root becomes the request's, naming both.
    const id = root.id;
    const since = h.sandbox.calls.length;
    await approveAs(h, CHECKER_A, root);
    await approveAs(h, CHECKER_B, root);
    await waitFor('done', async () => (await h.app.deps.store.approvals.get(id))?.settled);
    expect(writesSince(h, since).filter((c) => c.path === '/api/v1/limits/request')).toHaveLength(1);
    expect(lastRoot(h, root)).toContain(`Filed once <@${CHECKER_A}> and <@${CHECKER_B}> approved it`);
    for (const r of await requestsOf(h.sandbox, accountId))
      if (r.status === 'IN_REVIEW') await sandboxApi(h, 'POST', `/sandbox/limit-requests/${r.id}/reject`);

    expect(messageText((await ask('10000')).call.args)).not.toContain('Needs 2 approvals');
  });
});

describe('escalation', () => {
  let h: Harness;
  let flows: Flows;
  beforeAll(async () => {
    ({ h, flows } = await setUp({ APPROVAL_ESCALATE_AFTER: '2h', ACCESS_ESCALATION: `${MANAGER},S0HEADS` }));
    h.slack.userGroups.set('S0HEADS', [HEAD_1, HEAD_2]);
  });
  afterAll(() => h.close());

  const escalateNow = (root: PendingRoot) =>
    h.app.deps.store.approvals.update(root.id, (r) => ({ ...r, escalateAt: new Date(Date.now() - 1_000).toISOString() }));
  const isEscalation = (c: { args: Record<string, unknown> }) => messageText(c.args).includes('is escalated to');
  const dmsAbout = (root: PendingRoot, from = 0) =>
    h.slack.calls
      .slice(from)
      .filter(
        (c) =>
          c.method === 'chat.postMessage' &&
          String(c.args.channel).startsWith('D') &&
          (c.args.metadata as { event_payload?: { approval_id?: string; notice?: string } } | undefined)?.event_payload?.approval_id ===
            root.id,
      );

  test('before it is due, the manager outside ACCESS_APPROVERS is refused; once due: the thread mentions the list, each member gets a DM linking the root, once; then the manager decides', async () => {
    const root = await askKey(flows);
    const record = await h.app.deps.store.approvals.get(root.id);
    expect(Date.parse(record!.escalateAt!) - Date.parse(record!.createdAt)).toBe(2 * 3_600_000);
    expect(await approveAs(h, MANAGER, root)).toContain('Only the approvers listed in `ACCESS_APPROVERS`');
    await h.app.poller.tick();
    expect(threadPosts(h, root).filter(isEscalation)).toEqual([]);

    await escalateNow(root);
    const from = h.slack.calls.length;
    // Two ticks at once, then another: the escalation is posted once.
    await Promise.all([h.app.poller.tick(), runApprovalTick(h.app.deps, APPROVAL_KINDS, { stopping: () => false })]);
    await h.app.poller.tick();
    const [post, ...more] = threadPosts(h, root).filter(isEscalation);
    expect(more).toEqual([]);
    expect(messageText(post!.args)).toContain(`<@${MANAGER}>, <!subteam^S0HEADS>`);
    const groupLookups = h.slack.calls.slice(from).filter((c) => c.method === 'usergroups.users.list' && c.args.usergroup === 'S0HEADS');
    expect(groupLookups.length).toBeGreaterThan(0);
    const dms = dmsAbout(root, from);
    expect(dms.map((c) => c.args.channel).sort()).toEqual([`D${HEAD_1.slice(1)}`, `D${HEAD_2.slice(1)}`, `D${MANAGER.slice(1)}`].sort());
    const link = (h.slack.calls.slice(from).find((c) => c.method === 'chat.getPermalink')!.response as { permalink: string }).permalink;
    expect(link).toBe(`https://fake.slack.test/archives/${root.channel}/p${root.ts.replace('.', '')}`);
    for (const dm of dms) expect(messageText(dm.args)).toContain(`<${link}|Open it>`);
    expect(lastRoot(h, root)).toContain('Escalated on');
    const escalated = (await auditEntries(h)).filter((e) => e.action === 'approval:escalate' && e.target?.includes(root.id));
    expect(escalated).toEqual([expect.objectContaining({ outcome: 'escalated', maker: MAKER })]);

    // A member of a listed group without the action's role is still refused; the manager, an operator, decides.
    expect(await approveAs(h, HEAD_2, root)).toContain('You need the *operator* role');
    const since = h.sandbox.calls.length;
    await approveAs(h, MANAGER, root);
    await waitFor('done', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
    expect(keyWrites(h, since)).toHaveLength(1);
    expect(lastRoot(h, root)).toContain(`Approved by <@${MANAGER}>`);
  });

  test('a manager away: the escalation mentions their delegate beside them and sends the delegate a DM; the delegate decides for them', async () => {
    const res = await h.slash(MANAGER, `away ${isoDateOf(addDays(saoPauloToday(new Date()), 1))} <@${BRUNO}|bruno>`, {
      channelId: CHANNEL,
    });
    expect(messageText(res.ack ?? (await answerOn(h, res.responseId)))).toContain(`<@${BRUNO}> decides for you`);
    try {
      const root = await askKey(flows);
      expect(await approveAs(h, BRUNO, root)).toContain('Only the approvers listed in `ACCESS_APPROVERS`');
      await escalateNow(root);
      const from = h.slack.calls.length;
      await h.app.poller.tick();
      const [post] = threadPosts(h, root).filter(isEscalation);
      expect(messageText(post!.args)).toContain(`<@${MANAGER}>, <!subteam^S0HEADS>, <@${BRUNO}> (for <@${MANAGER}>, away)`);
      const toBruno = dmsAbout(root, from).find((c) => c.args.channel === `D${BRUNO.slice(1)}`);
      expect(messageText(toBruno?.args)).toContain(`as the delegate of <@${MANAGER}>`);
      await approveAs(h, BRUNO, root);
      await waitFor('done', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
      expect(lastRoot(h, root)).toContain(`Approved by <@${BRUNO}> for <@${MANAGER}>`);
    } finally {
      await h.slash(MANAGER, 'away off', { channelId: CHANNEL });
    }
  });

  test('a run cut short after its posts, before recording them: the next tick finds them and posts nothing again', async () => {
    const root = await askKey(flows);
    await escalateNow(root);
    // The run that died: the thread's post and the manager's DM made, `escalating` recorded, nothing after.
    await h.app.deps.store.approvals.update(root.id, (r) => ({ ...r, escalating: true }));
    h.slack.addMessage({
      channel: root.channel,
      thread_ts: root.ts,
      text: 'escalated',
      bot_id: 'B0BOT',
      user: 'U0BOT',
      metadata: { event_type: 'pix_approval_notice', event_payload: { approval_id: root.id, notice: 'escalation' } },
    });
    h.slack.addMessage({
      channel: `D${MANAGER.slice(1)}`,
      text: 'escalated to you',
      bot_id: 'B0BOT',
      user: 'U0BOT',
      metadata: { event_type: 'pix_approval_notice', event_payload: { approval_id: root.id, notice: 'escalation' } },
    });
    const from = h.slack.calls.length;
    await h.app.poller.tick();
    await h.app.poller.tick();
    const posted = h.slack.calls.slice(from).filter((c) => c.method === 'chat.postMessage' && (c.response as { ok?: boolean }).ok);
    // Only the two members whose DM was not made yet.
    expect(posted.map((c) => c.args.channel).sort()).toEqual([`D${HEAD_1.slice(1)}`, `D${HEAD_2.slice(1)}`].sort());
    expect((await h.app.deps.store.approvals.get(root.id))?.escalatedAt).toBeDefined();
  });

  test('Slack failing to give a listed group’s members: nothing is recorded as escalated; the next tick escalates it, once', async () => {
    const root = await askKey(flows);
    await escalateNow(root);
    h.slack.on('usergroups.users.list', () => ({ ok: false, error: 'internal_error' }));
    try {
      await h.app.poller.tick();
      expect((await h.app.deps.store.approvals.get(root.id))?.escalatedAt).toBeUndefined();
    } finally {
      h.slack.off('usergroups.users.list');
    }
    await h.app.poller.tick();
    expect((await h.app.deps.store.approvals.get(root.id))?.escalatedAt).toBeDefined();
    expect(threadPosts(h, root).filter(isEscalation)).toHaveLength(1);
    expect(dmsAbout(root)).toHaveLength(3);
  });

  test('a direct message Slack refuses: the others still go (they are sent together), and the escalation is recorded with those sent', async () => {
    const root = await askKey(flows);
    await escalateNow(root);
    const from = h.slack.calls.length;
    h.slack.on('chat.postMessage', (args) =>
      args.channel === `D${HEAD_1.slice(1)}`
        ? { ok: false, error: 'channel_not_found' }
        : h.slack.answerByDefault('chat.postMessage', args),
    );
    try {
      await h.app.poller.tick();
    } finally {
      h.slack.off('chat.postMessage');
    }
    const sent = dmsAbout(root, from).filter((c) => (c.response as { ok?: boolean }).ok);
    expect(sent.map((c) => c.args.channel).sort()).toEqual([`D${HEAD_2.slice(1)}`, `D${MANAGER.slice(1)}`].sort());
    expect(threadPosts(h, root).filter(isEscalation)).toHaveLength(1);
    expect((await h.app.deps.store.approvals.get(root.id))?.escalatedAt).toBeDefined();
    expect(lastRoot(h, root)).toContain('Escalated on');
    const escalated = (await auditEntries(h)).filter((e) => e.action === 'approval:escalate' && e.target?.includes(root.id));
    expect(escalated).toEqual([expect.objectContaining({ outcome: 'escalated', detail: `to ${MANAGER},S0HEADS; 2 direct messages` })]);
  });

  test('several escalations due in one tick: the group’s members are asked of Slack once for all of them', async () => {
    const roots = [await askKey(flows), await askKey(flows), await askKey(flows)];
    for (const root of roots) await escalateNow(root);
    const from = h.slack.calls.length;
    await runApprovalTick(h.app.deps, APPROVAL_KINDS, { stopping: () => false });
    for (const root of roots) {
      expect(threadPosts(h, root).filter(isEscalation)).toHaveLength(1);
      expect(dmsAbout(root, from)).toHaveLength(3);
    }
    const lookups = h.slack.calls.slice(from).filter((c) => c.method === 'usergroups.users.list' && c.args.usergroup === 'S0HEADS');
    expect(lookups).toHaveLength(1);
  });
});

describe('delegation while away', () => {
  let h: Harness;
  let flows: Flows;
  let campaignAccountId: string;
  const today = () => saoPauloToday(new Date());
  const inDays = (n: number) => isoDateOf(addDays(today(), n));
  beforeAll(async () => {
    ({ h, flows, campaignAccountId } = await setUp({ ACCESS_OPERATORS: [...OPERATORS, DESK].join(',') }));
  });
  afterAll(() => h.close());
  afterEach(async () => {
    for (const user of [ABEL, BRUNO, CHECKER_A]) await slash(h, user, 'away off');
  });

  test('set, shown, used (the root says for whom), in the audit trail; ended: the delegate is refused again', async () => {
    const root = await askKey(flows);
    expect(await approveAs(h, BRUNO, root)).toContain('Only the approvers listed in `ACCESS_APPROVERS`');

    expect(await slash(h, ABEL, `away ${inDays(3)} <@${BRUNO}|bruno>`)).toContain(`<@${BRUNO}> decides for you`);
    expect(await slash(h, ABEL, 'away')).toContain(`You are away until the end of`);
    expect(await slash(h, BRUNO, 'away')).toContain(`You decide for <@${ABEL}>`);
    const brunosHome = await homeOf(h, BRUNO);
    expect(brunosHome).toContain(`You decide for <@${ABEL}> until the end of`);
    expect(brunosHome).toContain(`You decide this for <@${ABEL}>, who is away.`);
    expect(await homeOf(h, ABEL)).toContain(`<@${BRUNO}> decides for you`);

    const since = h.sandbox.calls.length;
    await approveAs(h, BRUNO, root);
    await waitFor('done', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
    expect(keyWrites(h, since)).toHaveLength(1);
    expect(lastRoot(h, root)).toContain(`Approved by <@${BRUNO}> for <@${ABEL}>`);

    const entries = await auditEntries(h);
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          user: ABEL,
          action: '/pix away',
          outcome: 'ok',
          detail: 'delegation set',
          target: expect.stringContaining(`delegate:${BRUNO}`),
        }),
        expect.objectContaining({
          action: 'action:approval_approve',
          checker: BRUNO,
          outcome: 'approved',
          detail: `for ${ABEL} (delegation)`,
        }),
      ]),
    );

    expect(await slash(h, ABEL, 'away off')).toContain(`<@${BRUNO}> no longer decides for you`);
    expect((await auditEntries(h)).some((e) => e.user === ABEL && e.action === '/pix away off' && e.detail === 'delegation ended')).toBe(
      true,
    );
    const next = await askKey(flows);
    expect(await approveAs(h, BRUNO, next)).toContain('Only the approvers listed in `ACCESS_APPROVERS`');
  });

  test('a delegate rejects for the away approver: the root and the thread say for whom', async () => {
    await slash(h, ABEL, `away ${inDays(1)} ${BRUNO}`);
    const root = await askKey(flows);
    await rejectWithReason(h, BRUNO, root, 'not while Abel is away');
    await waitFor('rejected', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
    expect(lastRoot(h, root)).toContain(`Rejected by <@${BRUNO}> for <@${ABEL}>`);
  });

  test('never the delegate’s own action', async () => {
    await slash(h, ABEL, `away ${inDays(1)} ${BRUNO}`);
    const asked = await makerFlows(h, {
      channel: CHANNEL,
      operator: BRUNO,
      admin: BRUNO,
      campaignAccountId,
      campaignAppId: '',
      rotateClientId: '',
      accountId: h.sandbox.companies.main.defaultAccountId,
    })['key-add']();
    await asked.shown();
    expect(await approveAs(h, BRUNO, asked.root)).toContain('You asked for this yourself');
  });

  test('a delegate through a group: accepted while in it; once out of it (looked up afresh), refused as delegate and refused the approval', async () => {
    h.slack.userGroups.set(DESK, [DORA]);
    try {
      expect(await slash(h, ABEL, `away ${inDays(1)} <@${DORA}|dora>`)).toContain(`<@${DORA}> decides for you`);
      // Out of the group now: Slack says so at once, and the group's members cached a moment ago do not hide it.
      h.slack.userGroups.set(DESK, []);
      expect(await slash(h, ABEL, `away ${inDays(2)} <@${DORA}|dora>`)).toContain(`<@${DORA}> may decide nothing here`);
      const root = await askKey(flows);
      expect(await approveAs(h, DORA, root)).toContain('You need the *operator* role');
    } finally {
      h.slack.userGroups.delete(DESK);
    }
  });

  test('reminders mention the delegate beside the away approver', async () => {
    await slash(h, ABEL, `away ${inDays(2)} <@${BRUNO}|bruno>`);
    const root = await askKey(flows);
    await h.app.deps.store.approvals.update(root.id, (r) => ({ ...r, remindAt: new Date(Date.now() - 1_000).toISOString() }));
    await h.app.poller.tick();
    const reminder = threadPosts(h, root).find((c) => messageText(c.args).includes('still waits for approval'));
    expect(messageText(reminder?.args)).toContain(`<@${ABEL}>, <@${BRUNO}> (for <@${ABEL}>, away)`);
  });

  test('Slack not answering the delegate’s groups: nothing set, and told to try again', async () => {
    h.slack.on('usergroups.users.list', () => ({ ok: false, error: 'internal_error' }));
    try {
      expect(await slash(h, ABEL, `away ${inDays(1)} <@${DORA}|dora>`)).toContain('I could not check with Slack who holds which role');
    } finally {
      h.slack.off('usergroups.users.list');
    }
    expect(await slash(h, ABEL, 'away')).toContain('You are not away');
    expect((await auditEntries(h)).some((e) => e.user === ABEL && e.action === '/pix away' && e.detail === 'roles not looked up')).toBe(
      true,
    );
  });

  test.each([
    ['oneself', () => `away ${inDays(1)} ${ABEL}`, ABEL, 'You cannot be your own delegate'],
    ['a past day', () => `away ${inDays(-1)} ${BRUNO}`, ABEL, 'That day is already over'],
    ['more than 90 days ahead', () => `away ${inDays(91)} ${BRUNO}`, ABEL, 'A delegation ends at most 90 days ahead'],
    ['who approves nothing (outside ACCESS_APPROVERS)', () => `away ${inDays(1)} ${ABEL}`, BRUNO, 'You approve nothing here'],
    ['who approves nothing (a viewer)', () => `away ${inDays(1)} ${ABEL}`, VIEWER, 'You approve nothing here'],
    [
      'a delegate who may decide nothing (a viewer)',
      () => `away ${inDays(1)} <@${VIEWER}|vera>`,
      ABEL,
      `<@${VIEWER}> may decide nothing here`,
    ],
    ['a delegate who may decide nothing (no role)', () => `away ${inDays(1)} ${NOBODY}`, ABEL, `<@${NOBODY}> may decide nothing here`],
    ['a delegate who may decide nothing (no such user)', () => `away ${inDays(1)} U0GHOST01`, ABEL, '<@U0GHOST01> may decide nothing here'],
  ])('refused with the reason: %s', async (_name, text, user, reason) => {
    expect(await slash(h, user, text())).toContain(reason);
    expect(await slash(h, user, 'away')).toContain('You are not away');
    const refused = (await auditEntries(h)).filter((e) => e.user === user && e.action === '/pix away' && e.outcome === 'refused');
    expect(refused.length).toBeGreaterThan(0);
  });

  test('refused: a delegate who is away themselves', async () => {
    await slash(h, CHECKER_A, `away ${inDays(5)} ${CHECKER_B}`);
    expect(await slash(h, ABEL, `away ${inDays(1)} <@${CHECKER_A}|ana>`)).toContain(`<@${CHECKER_A}> is away themselves until the end of`);
    expect(await slash(h, ABEL, 'away')).toContain('You are not away');
  });

  test.each([
    ['one word', 'away 2026-12-01', 'Usage: `/pix away [&lt;YYYY-MM-DD&gt; &lt;@user&gt;]`'],
    ['no such day', `away 2026-02-30 ${BRUNO}`, 'Give the last day you are away (YYYY-MM-DD)'],
    ['a name as typed, not a mention', `away 2026-12-01 @bruno`, 'Name who decides for you as a mention'],
    ['three words', `away 2026-12-01 ${BRUNO} extra`, 'Usage: `/pix away [&lt;YYYY-MM-DD&gt; &lt;@user&gt;]`'],
    ['off with more', 'away off now', 'Usage: `/pix away off`'],
  ])('bad input: %s', async (_name, text, told) => {
    expect(await slash(h, ABEL, text)).toContain(told);
    expect(await slash(h, ABEL, 'away')).toContain('You are not away');
  });

  test('a user with no role is refused the command; off when not away says so', async () => {
    expect(await slash(h, NOBODY, `away ${inDays(1)} ${BRUNO}`)).toMatch(/You need the \*viewer\* role/);
    expect(await slash(h, NOBODY, 'away')).toMatch(/You need the \*viewer\* role/);
    expect(await slash(h, VIEWER, 'away off')).toContain('You were not away');
  });

  test('the Pix API failing on a delegate’s approval: it fails, the root saying who approved for whom', async () => {
    await slash(h, ABEL, `away ${inDays(1)} ${BRUNO}`);
    const root = await askKey(flows);
    await sandboxApi(h, 'POST', '/sandbox/faults', undefined, {
      fail: { count: 1, method: 'POST', pathPrefix: '/api/v1/pix-keys', status: 503 },
    });
    await approveAs(h, BRUNO, root);
    await waitFor('settled', async () => (await h.app.deps.store.approvals.get(root.id))?.settled);
    expect((await h.app.deps.store.approvals.get(root.id))?.state).toBe('failed');
    expect(lastRoot(h, root)).toContain(`Approved by <@${BRUNO}> for <@${ABEL}>`);
  });
});
