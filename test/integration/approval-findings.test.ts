import { accountMadeElsewhere, openedModal, startHarnessWithMaster } from '../support/accounts-harness';
import { makerFlows } from '../support/approval-flows';
import { answerOn, clickRoot, threadPosts } from '../support/approvals';
import { type Harness, messageText } from '../support/harness';
import { waitFor } from '../support/wait';

// Two findings of a security review of approvals: a checker's standing when Slack does not answer,
// and where the reminders of a root that fell back to the maker's direct message go.

const OPERATOR = 'U0OPER001';
const CHECKER = 'U0OPER002';
const OTHER_CHECKER = 'U0OPER003';
const CHANNEL = 'C0FINDINGS';

type Flows = ReturnType<typeof makerFlows>;

async function setUp(env: Record<string, string>): Promise<{ h: Harness; flows: Flows }> {
  const h = await startHarnessWithMaster({
    ACCESS_OPERATORS: `${OPERATOR},${CHECKER},${OTHER_CHECKER}`,
    APPROVALS: 'key-add',
    ...env,
  });
  const campaign = await accountMadeElsewhere(h, 'Findings campaign');
  await h.app.deps.store.accountApps.save({ ...campaign, name: 'Findings campaign' });
  const flows = makerFlows(h, {
    channel: CHANNEL,
    operator: OPERATOR,
    admin: OPERATOR,
    campaignAccountId: campaign.accountId,
    campaignAppId: campaign.appId,
    rotateClientId: '',
    accountId: h.sandbox.companies.main.defaultAccountId,
  });
  return { h, flows };
}

const writesSince = (h: Harness, since: number) => h.sandbox.calls.slice(since).filter((c) => c.method !== 'GET');

describe('a checker whose groups Slack cannot look up afresh', () => {
  let h: Harness;
  let flows: Flows;
  beforeAll(async () => {
    ({ h, flows } = await setUp({ ACCESS_APPROVERS: 'S0CHECKERS' }));
  });
  afterAll(() => h.close());

  test('a checker removed from the approvers’ group while Slack’s look-up fails is refused, told to try again; nothing is written', async () => {
    h.slack.userGroups.set('S0CHECKERS', [CHECKER]);
    const asked = await flows['key-add']();
    await asked.shown();
    // A first click looks the group up: the checker is in it, and the answer is cached.
    const from = h.slack.calls.length;
    await clickRoot(h, CHECKER, asked.root, 'approval_reject');
    await openedModal(h, from, 'approval_reject_reason');
    // Taken out of the group; Slack then fails every look-up of it.
    h.slack.userGroups.set('S0CHECKERS', []);
    h.slack.on('usergroups.users.list', () => ({ ok: false, error: 'internal_error' }));
    try {
      const since = h.sandbox.calls.length;
      const click = await clickRoot(h, CHECKER, asked.root, 'approval_approve');
      // Either told, or (the defect) approved: whichever comes first.
      await waitFor(
        'an answer or a decision',
        async () => h.slack.responsesTo(click.responseId)[0] ?? (await h.app.deps.store.approvals.get(asked.root.id))?.settled,
        10_000,
      );
      expect(writesSince(h, since)).toEqual([]);
      expect((await h.app.deps.store.approvals.get(asked.root.id))?.state).toBe('pending');
      expect(messageText(await answerOn(h, click.responseId))).toMatch(/try again/i);
    } finally {
      h.slack.off('usergroups.users.list');
    }
  });
});

describe('reminders of a root that fell back to the maker’s direct message', () => {
  let h: Harness;
  let flows: Flows;
  beforeAll(async () => {
    ({ h, flows } = await setUp({ ACCESS_APPROVERS: `${CHECKER},${OTHER_CHECKER}` }));
  });
  afterAll(() => h.close());

  const remindNow = (id: string) =>
    h.app.deps.store.approvals.update(id, (r) => ({ ...r, remindAt: new Date(Date.now() - 1_000).toISOString() }));
  const isReminder = (c: { args: Record<string, unknown> }) => messageText(c.args).includes('still waits for approval');
  /** The root in the maker's DM, as the stand-in keeps it. */
  const dmRoot = async () => {
    h.slack.closedChannels.add(CHANNEL);
    const asked = await flows['key-add']();
    await asked.shown();
    expect(asked.root.channel).toMatch(/^D/);
    return asked.root;
  };

  test('the bot still outside the channel: each approver gets the reminder in a direct message, with a link to the root; none in the maker’s DM', async () => {
    const root = await dmRoot();
    await remindNow(root.id);
    const from = h.slack.calls.length;
    await h.app.poller.tick();
    expect(threadPosts(h, root).filter(isReminder)).toEqual([]);
    // Posts Slack took (the channel still refuses the bot).
    const reminders = h.slack.calls
      .slice(from)
      .filter((c) => c.method === 'chat.postMessage' && isReminder(c) && (c.response as { ok?: boolean }).ok);
    const permalink = h.slack.calls.slice(from).find((c) => c.method === 'chat.getPermalink');
    expect(permalink?.args).toMatchObject({ channel: root.channel, message_ts: root.ts });
    const link = (permalink!.response as { permalink: string }).permalink;
    expect(reminders.map((c) => c.args.channel).sort()).toEqual([`D${CHECKER.slice(1)}`, `D${OTHER_CHECKER.slice(1)}`].sort());
    for (const r of reminders) expect(messageText(r.args)).toContain(link);
  });

  test('the bot invited since: the reminder goes to the channel it was asked in, mentioning the approvers, with a link to the root', async () => {
    const root = await dmRoot();
    h.slack.closedChannels.delete(CHANNEL);
    await remindNow(root.id);
    const from = h.slack.calls.length;
    await h.app.poller.tick();
    expect(threadPosts(h, root).filter(isReminder)).toEqual([]);
    const reminder = await waitFor('the reminder in the channel', () =>
      h.slack.calls.slice(from).find((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL && isReminder(c)),
    );
    expect(reminder.args.thread_ts).toBeUndefined();
    const text = messageText(reminder.args);
    expect(text).toContain(`<@${CHECKER}>`);
    expect(text).toContain(`<@${OTHER_CHECKER}>`);
    expect(text).not.toContain(`<@${OPERATOR}>,`);
    const link = (h.slack.calls.slice(from).find((c) => c.method === 'chat.getPermalink')!.response as { permalink: string }).permalink;
    expect(text).toContain(link);
  });
});
