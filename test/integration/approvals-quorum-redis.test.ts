import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { APPROVAL_KINDS } from '../../commands';
import type { RunningApp } from '../../src/app';
import { runApprovalTick } from '../../src/approvals/tick';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { accountMadeElsewhere } from '../support/accounts-harness';
import { makerFlows } from '../support/approval-flows';
import { clickRoot, type PendingRoot } from '../support/approvals';
import { type Harness, harnessEnv, messageText, poster, sendSlash, startLoggedApp } from '../support/harness';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { deliveriesDone, waitFor } from '../support/wait';

const MAKER = 'U0MAKER01';
const CHECKERS = ['U0CHECKA1', 'U0CHECKB1', 'U0CHECKC1'] as const;
const CHANNEL = 'C0QUORUM';
const MANAGER = 'U0MANAGER';
const ROUNDS = 4;

/**
 * Two checkers across instances: two apps on the shared Redis (127.0.0.1:6379), one Slack stand-in,
 * one sandbox Pix API. The approval that completes a two-checker approval, given by two checkers at
 * the same moment on the two instances, makes one set of Pix calls; so do two first approvals given
 * at the same moment (the second to be recorded completes it). An escalation due is posted once.
 */
describe('two checkers on two instances sharing Redis', () => {
  const namespace = testNamespace('quorum');
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  let dataDir: string;
  const apps: RunningApp[] = [];
  let instances: Harness[];
  let flows: ReturnType<typeof makerFlows>;

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    sandbox = await startSandbox({ port: 0 });
    dataDir = mkdtempSync(path.join(tmpdir(), 'pix-ops-quorum-'));
    const env = harnessEnv(
      { slack, sandbox, dataDir },
      {
        STORE_URL: SHARED_REDIS_URL,
        STORE_SECRET: 'q'.repeat(40),
        STORE_NAMESPACE: namespace,
        ACCESS_OPERATORS: [MAKER, ...CHECKERS].join(','),
        APPROVALS: 'key-add',
        APPROVAL_QUORUM_ACTIONS: 'key-add',
        ACCESS_APPROVERS: 'S0QUORUM',
        APPROVAL_ESCALATE_AFTER: '1h',
        ACCESS_ESCALATION: MANAGER,
      },
    );
    // The checkers' group, looked up afresh on every click, answers late: both clicks read the approval
    // before either takes its claim, as when two people click together on a busy day.
    slack.userGroups.set('S0QUORUM', [...CHECKERS]);
    slack.on('usergroups.users.list', async (args) => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      return slack.answerByDefault('usergroups.users.list', args);
    });
    for (let i = 0; i < 2; i++) apps.push((await startLoggedApp(env)).app);
    instances = apps.map((app, i) => {
      const post = poster(`http://127.0.0.1:${app.port}/slack/events`, slack);
      let n = 0;
      return {
        app,
        slack,
        sandbox,
        post,
        dataDir,
        slash: (userId: string, text: string, opts = {}) => sendSlash(post, slack, userId, text, opts, `q${i}-${++n}`),
      } as unknown as Harness;
    });
    const campaign = await accountMadeElsewhere(instances[0]!, 'Quorum campaign');
    await apps[0]!.deps.store.accountApps.save({ ...campaign, name: 'Quorum campaign' });
    flows = makerFlows(instances[0]!, {
      channel: CHANNEL,
      operator: MAKER,
      admin: MAKER,
      campaignAccountId: campaign.accountId,
      campaignAppId: campaign.appId,
      rotateClientId: '',
      accountId: sandbox.companies.main.defaultAccountId,
    });
  });

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await deleteKeys(SHARED_REDIS_URL, namespace);
    await sandbox.close();
    await slack.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const keyWrites = (since: number) => sandbox.calls.slice(since).filter((c) => c.method === 'POST' && c.path === '/api/v1/pix-keys');
  const settled = (root: PendingRoot) =>
    waitFor(`approval ${root.id} settled`, async () => (await apps[1]!.deps.store.approvals.get(root.id))?.settled, 15_000);

  /** Clicks Approve on each instance at the same moment (`who[i]` on instance i), each to the end of its work: what each was told. */
  async function approveAtOnce(root: PendingRoot, who: readonly [string, string]): Promise<string[]> {
    const taken = instances.map((h) => h.app.inFlight.total);
    const clicks = await Promise.all(instances.map((h, i) => clickRoot(h, who[i]!, root, 'approval_approve')));
    await Promise.all(instances.map((h, i) => deliveriesDone(h.app, taken[i]! + 1, 15_000)));
    return clicks.map((c) =>
      slack
        .responsesTo(c.responseId)
        .map((r) => messageText(r.body))
        .join('\n'),
    );
  }

  test(`the completing approval raced on the two instances, ${ROUNDS} times: one write each time, the other checker told who approved`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const asked = await flows['key-add']();
      await asked.shown();
      const since = sandbox.calls.length;
      // The same checker on both instances at once: one approval recorded, the other click told they already gave it.
      const first = await approveAtOnce(asked.root, [CHECKERS[0], CHECKERS[0]]);
      expect(
        first.map((t) => (t.includes('Your approval is recorded') ? 'recorded' : t.includes('You already approved') ? 'told' : t)).sort(),
      ).toEqual(['recorded', 'told']);
      const record = await apps[0]!.deps.store.approvals.get(asked.root.id);
      expect(record?.approvedBy?.map((a) => a.userId)).toEqual([CHECKERS[0]]);
      expect(keyWrites(since)).toEqual([]);

      const told = await approveAtOnce(asked.root, [CHECKERS[1], CHECKERS[2]]);
      await settled(asked.root);
      expect(keyWrites(since)).toHaveLength(1);
      const done = await apps[0]!.deps.store.approvals.get(asked.root.id);
      expect(done?.state).toBe('done');
      expect(done?.approvedBy).toHaveLength(2);
      // Who lost the race is told it is approved already (by the two who did).
      const winner = done!.approvedBy![1]!.userId;
      const loser = winner === CHECKERS[1] ? 1 : 0;
      expect(told[loser]).toMatch(/Already approved by <@U0CHECKA1> and <@U0CHECK[BC]1>/);
    }
  });

  test('an escalation due, both instances ticking at the same moment, twice: posted once in the thread and once in the DM', async () => {
    const asked = await flows['key-add']();
    await asked.shown();
    await apps[0]!.deps.store.approvals.update(asked.root.id, (r) => ({ ...r, escalateAt: new Date(Date.now() - 1_000).toISOString() }));
    const tick = () => Promise.all(apps.map((app) => runApprovalTick(app.deps, APPROVAL_KINDS, { stopping: () => false })));
    const reports = [...(await tick()), ...(await tick())];
    expect(reports.reduce((n, r) => n + r.escalated, 0)).toBe(1);
    const notices = slack.messages.filter(
      (m) => m.metadata?.event_payload?.approval_id === asked.root.id && m.metadata.event_payload.notice === 'escalation',
    );
    expect(notices.map((m) => (m.thread_ts === asked.root.ts ? 'thread' : m.channel)).sort()).toEqual([`D${MANAGER.slice(1)}`, 'thread']);
    expect((await apps[1]!.deps.store.approvals.get(asked.root.id))?.escalatedAt).toBeDefined();
  });

  test('two first approvals at the same moment on the two instances: both recorded, one write', async () => {
    const asked = await flows['key-add']();
    await asked.shown();
    const since = sandbox.calls.length;
    await approveAtOnce(asked.root, [CHECKERS[0], CHECKERS[1]]);
    await settled(asked.root);
    expect(keyWrites(since)).toHaveLength(1);
    const done = await apps[0]!.deps.store.approvals.get(asked.root.id);
    expect(done?.approvedBy?.map((a) => a.userId).sort()).toEqual([CHECKERS[0], CHECKERS[1]]);
  });
});
