import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ApprovalAction } from '../../src/domain/approvals';
import { maskPixKey } from '../../src/domain/pix-key-mask';
import type { AccountAnswer, PixKeysAnswer } from '../sandbox/helpers';
import { accountMadeElsewhere, clickButton, posts, sandboxApi, startHarnessWithMaster } from '../support/accounts-harness';
import { type Asked, makerFlows } from '../support/approval-flows';
import { APPROVAL_WRITES, answerOn, clickRoot, type PendingRoot, rejectWithReason, rootUpdates, threadPosts } from '../support/approvals';
import { type Harness, messageText, startHarness } from '../support/harness';
import { requestsOf } from '../support/limit-form';
import { sendInteraction, viewBlockAction } from '../support/slack-payloads';
import { waitFor } from '../support/wait';

const OPERATOR = 'U0OPER001';
const OPERATOR_CHECKER = 'U0OPER002';
const ADMIN = 'U0ADMIN01';
const ADMIN_CHECKER = 'U0ADMIN02';
/** An admin, so every role check passes, but not among the approvers. */
const OUTSIDER = 'U0ADMIN03';
/** An approver through a user group. */
const GROUP_CHECKER = 'U0ADMIN04';
const VIEWER = 'U0VIEWER1';
const CHANNEL = 'C0APPROVALS';
const ALL = 'limit-request,key-add,key-delete,withdraw-key,account-create,rotate-secret';

/** A file's bytes, or undefined when it is gone (sqlite's rollback journal comes and goes with each write). */
function readIfThere(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Four-eyes approvals on one instance (sqlite), every action listed in APPROVALS and approvers
 * narrowed by ACCESS_APPROVERS (users and a group): for each action, the maker's flow ends in the
 * pending root and nothing written; an approval runs the action's Pix calls once; a rejection, a
 * cancel or an expiry sends nothing; the maker and anyone outside the approvers are refused.
 */
describe('four-eyes approvals, each action (one instance)', () => {
  let h: Harness;
  let campaign: { accountId: string; appId: string; clientId: string };
  let flows: ReturnType<typeof makerFlows>;
  let rotated: { accountId: string; appId: string; clientId: string };

  beforeAll(async () => {
    h = await startHarnessWithMaster({
      ACCESS_ADMINS: `${ADMIN},${ADMIN_CHECKER},${OUTSIDER},${GROUP_CHECKER}`,
      ACCESS_OPERATORS: `${OPERATOR},${OPERATOR_CHECKER}`,
      ACCESS_VIEWERS: VIEWER,
      ACCESS_APPROVERS: `${OPERATOR_CHECKER},${ADMIN_CHECKER},S0CHECKERS`,
      APPROVALS: ALL,
    });
    h.slack.userGroups.set('S0CHECKERS', [GROUP_CHECKER]);
    campaign = await accountMadeElsewhere(h, 'Approvals campaign');
    await h.app.deps.store.accountApps.save({ ...campaign, name: 'Approvals campaign' });
    // An application whose secret is rotated (not the campaign's: its stored AppID stays in use).
    rotated = await accountMadeElsewhere(h, 'Rotated');
    await sandboxApi(h, 'POST', `/sandbox/accounts/${h.sandbox.companies.main.defaultAccountId}/withdraw-key-api`, undefined, {
      enabled: true,
    });
    flows = makerFlows(h, {
      channel: CHANNEL,
      operator: OPERATOR,
      admin: ADMIN,
      campaignAccountId: campaign.accountId,
      campaignAppId: campaign.appId,
      rotateClientId: rotated.clientId,
      accountId: h.sandbox.companies.main.defaultAccountId,
    });
  });
  afterAll(() => h.close());

  const writesSince = (since: number) => h.sandbox.calls.slice(since).filter((c) => c.method !== 'GET');
  const keysOf = async (appId: string) => (await sandboxApi<PixKeysAnswer>(h, 'GET', '/api/v1/pix-keys', appId)).pixKeys.map((k) => k.key);
  const record = (id: string) => h.app.deps.store.approvals.get(id);

  interface Case {
    action: ApprovalAction;
    maker: string;
    checker: string;
    /** The maker's flow, to the pending root. */
    ask(): Promise<Asked>;
    /** What the pending root must say will be sent. */
    describes: RegExp[];
    /** After the approval: the Pix side and what the thread and the maker were told. */
    approved(root: PendingRoot, since: number, slackSince: number): Promise<void>;
  }

  const mainAccount = () => h.sandbox.companies.main.defaultAccountId;

  const cases: Case[] = [
    {
      action: 'limit-request',
      maker: OPERATOR,
      checker: OPERATOR_CHECKER,
      ask: () => flows['limit-request'](),
      describes: [
        /File a limit request/,
        /Account: `[0-9a-f]{24}`/,
        /• Pix day: R\$[\d,.]+ → \*R\$7,000\.00\*/,
        /Proof files: statement-nov\.pdf/,
      ],
      async approved(root, since) {
        const filed = h.sandbox.calls.slice(since).find((c) => c.path === '/api/v1/limits/request' && c.method === 'POST')!;
        expect(filed.body).toMatchObject({
          companyBankAccountId: h.sandbox.companies.main.defaultAccountId,
          pixDayLimit: 700000,
          documents: [{ fileId: expect.any(String) }],
        });
        // The proof was fetched from Slack at approval time, not before.
        expect(
          h.slack.calls.filter((c) => c.method === 'file.download' && c.at >= h.sandbox.calls[since]!.at - 1_000).length,
        ).toBeGreaterThan(0);
        const [request] = await requestsOf(h.sandbox, h.sandbox.companies.main.defaultAccountId);
        const tracked = await h.app.deps.store.trackedRequests.get(request!.id);
        // The approval's root is the request's thread root, and the request is followed.
        expect(tracked).toMatchObject({
          channel: root.channel,
          rootTs: root.ts,
          requesterId: OPERATOR,
          approval: { checkerId: OPERATOR_CHECKER },
        });
        const text = messageText(rootUpdates(h, root).at(-1)!.args);
        expect(text).toContain(`*Limit increase request* \`${request!.id}\``);
        expect(text).toContain(`Filed once <@${OPERATOR_CHECKER}> approved it`);
        expect(
          h.slack.calls.filter((c) => (c.args.metadata as { event_type?: string } | undefined)?.event_type === 'pix_limit_request'),
        ).toEqual([]);
        // Decided by the service: the reply lands in the approval's thread.
        await sandboxApi(h, 'POST', `/sandbox/limit-requests/${request!.id}/reject`);
        await h.app.poller.tick();
        const reply = await waitFor('the decision in the thread', () =>
          threadPosts(h, root).find((c) => (c.args.metadata as { event_type?: string } | undefined)?.event_type === 'pix_limit_decision'),
        );
        expect(messageText(reply.args)).toContain('rejected');
      },
    },
    {
      action: 'key-add',
      maker: OPERATOR,
      checker: OPERATOR_CHECKER,
      ask: () => flows['key-add'](),
      describes: [/Add a Pix key/, /Account: `[0-9a-f]{24}`/, /Pix key: `a\*\*\*@example\.com` \(e-mail\)/],
      async approved(root, since) {
        const body = h.sandbox.calls.slice(since).find((c) => c.method === 'POST')!.body as { pixKey: string };
        expect(await keysOf(campaign.appId)).toContain(body.pixKey);
        const reply = await waitFor('the record in the thread', () => threadPosts(h, root)[0]);
        expect(messageText(reply.args)).toContain(`<@${OPERATOR}> added the Pix key \`${maskPixKey(body.pixKey)}\``);
        expect(messageText(reply.args)).toContain(`Asked by <@${OPERATOR}>, approved by <@${OPERATOR_CHECKER}>.`);
      },
    },
    {
      action: 'key-delete',
      maker: ADMIN,
      checker: ADMIN_CHECKER,
      ask: () => flows['key-delete'](),
      describes: [/Delete a Pix key/, /Pix key to delete: `t\*\*\*@example\.com`/, /no money can be sent/],
      async approved(root, since) {
        const path = h.sandbox.calls.slice(since).find((c) => c.method === 'DELETE')!.path;
        const key = decodeURIComponent(path.split('/').pop()!);
        expect(await keysOf(campaign.appId)).not.toContain(key);
        const reply = await waitFor('the record in the thread', () => threadPosts(h, root)[0]);
        expect(messageText(reply.args)).toContain(`<@${ADMIN}> deleted the Pix key \`${maskPixKey(key)}\``);
      },
    },
    {
      action: 'account-create',
      maker: ADMIN,
      checker: GROUP_CHECKER,
      ask: () => flows['account-create'](),
      describes: [/Create a campaign account/, /Campaign: “Campaign \d+”/],
      async approved(root, since, slackSince) {
        const created = h.sandbox.calls.slice(since).find((c) => c.path === '/api/v1/application')!.body as { accountId: string };
        const stored = await h.app.deps.store.accountApps.get(created.accountId);
        expect(stored?.appId).toBeTruthy();
        const reply = await waitFor('the record in the thread', () => threadPosts(h, root)[0]);
        expect(messageText(reply.args)).toContain(`<@${ADMIN}> created the campaign account \`${created.accountId}\``);
        // The secret goes to the maker alone, in a direct message; never to the channel.
        const dm = await waitFor('the secret in the maker’s DM', () =>
          posts(h, slackSince).find((c) => c.args.channel === `D${ADMIN.slice(1)}` && messageText(c.args).includes('Client secret')),
        );
        const secret = /```([^`]+)```/.exec(messageText(dm.args))?.[1];
        expect(secret).toBeTruthy();
        const channelText = posts(h, slackSince)
          .filter((c) => c.args.channel === CHANNEL)
          .concat(rootUpdates(h, root))
          .map((c) => JSON.stringify(c.args))
          .join('\n');
        expect(channelText).not.toContain(secret!);
        expect(channelText).not.toContain(stored!.appId);
      },
    },
    {
      action: 'withdraw-key',
      maker: ADMIN,
      checker: ADMIN_CHECKER,
      ask: () => flows['withdraw-key'](),
      describes: [/Set the withdraw key/, /Withdraw key: `t\*\*\*@example\.com`/],
      async approved(root, since) {
        const { pixKey } = h.sandbox.calls.slice(since).find((c) => c.path === '/api/v1/pix-keys/withdraw')!.body as { pixKey: string };
        const account = await sandboxApi<AccountAnswer>(h, 'GET', `/api/v1/account/${mainAccount()}`, h.sandbox.companies.main.mainAppId);
        expect(account.account.pixKeyWithdraw).toEqual({ pixKey, type: 'EMAIL' });
        const reply = await waitFor('the record in the thread', () => threadPosts(h, root)[0]);
        expect(messageText(reply.args)).toContain(`<@${ADMIN}> set the withdraw key of account \`${mainAccount()}\``);
      },
    },
    {
      action: 'rotate-secret',
      maker: ADMIN,
      checker: ADMIN_CHECKER,
      ask: () => flows['rotate-secret'](),
      describes: [/Rotate an application’s secret/, /Application: `Client_Id_[^`]+`/, /The new client secret goes to the maker only/],
      async approved(root, since, slackSince) {
        expect(h.sandbox.calls.slice(since).find((c) => c.method === 'POST')!.authorization).toBe(h.sandbox.companies.main.masterAppId);
        const reply = await waitFor('the record in the thread', () => threadPosts(h, root)[0]);
        expect(messageText(reply.args)).toContain(`<@${ADMIN}> rotated the client secret of application \`${rotated.clientId}\``);
        // The new secret to the maker alone (a DM), nowhere else.
        const dm = await waitFor('the secret in the maker’s DM', () =>
          posts(h, slackSince).find((c) => c.args.channel === `D${ADMIN.slice(1)}` && messageText(c.args).includes('New client secret')),
        );
        const secret = /```([^`]+)```/.exec(messageText(dm.args))?.[1];
        expect(secret).toMatch(/^Client_Secret_/);
        const elsewhere = h.slack.calls
          .slice(slackSince)
          .filter((c) => c !== dm)
          .map((c) => JSON.stringify(c.args))
          .join('\n');
        expect(elsewhere).not.toContain(secret!);
        expect(h.logs.join('')).not.toContain(secret!);
      },
    },
  ];

  /** The maker's flow, done: the maker was told (so the root is recorded too). */
  const askOf = async (c: Case) => {
    const asked = await c.ask();
    await asked.shown();
    return asked;
  };
  const caseOf = (action: ApprovalAction) => cases.find((c) => c.action === action)!;

  describe.each(cases)('$action', (c) => {
    test('the maker’s flow runs its checks, then posts the pending root instead of writing; the approver’s click runs the Pix calls once', async () => {
      const pixBefore = h.sandbox.calls.length;
      const { root, shown, since: afterSetUp } = await askOf(c);
      expect(writesSince(afterSetUp ?? pixBefore)).toEqual([]);
      expect(await shown()).toMatch(
        /is waiting for approval \(in <#C0APPROVALS>\)\. Nothing is sent to the Pix API until someone else approves it\./,
      );
      const text = messageText(root.call.args);
      for (const pattern of c.describes) expect(text).toMatch(pattern);
      expect(text).toContain(`Asked by <@${c.maker}>`);
      expect(root.call.args.channel).toBe(CHANNEL);
      const buttons = (root.call.args.blocks as Array<{ type: string; elements?: Array<Record<string, unknown>> }>).find(
        (b) => b.type === 'actions',
      )!.elements!;
      expect(buttons.map((b) => b.action_id)).toEqual(['approval_approve', 'approval_reject', 'approval_cancel']);
      expect(buttons.every((b) => b.value === root.id)).toBe(true);
      expect(buttons[0]!.confirm).toMatchObject({
        title: { type: 'plain_text' },
        confirm: { type: 'plain_text' },
        deny: { type: 'plain_text' },
      });
      expect((await record(root.id))?.state).toBe('pending');

      const since = h.sandbox.calls.length;
      const slackSince = h.slack.calls.length;
      await clickRoot(h, c.checker, root, 'approval_approve');
      await waitFor('the approval done', async () => (await record(root.id))?.settled);
      const writes = writesSince(since);
      expect(writes.map((w) => `${w.method} ${w.path}`.replace(/^DELETE \/api\/v1\/pix-keys\/.+$/, 'DELETE /api/v1/pix-keys/'))).toEqual(
        APPROVAL_WRITES[c.action],
      );
      const final = rootUpdates(h, root, slackSince).at(-1)!;
      expect(JSON.stringify(final.args.blocks)).not.toContain('approval_approve');
      if (c.action !== 'limit-request') {
        expect(messageText(final.args)).toContain(`Approved by <@${c.checker}>`);
        expect(messageText(final.args)).toContain('and done');
      }
      await c.approved(root, since, slackSince);

      // A second click, by anyone allowed: told who approved; nothing more reaches the Pix API.
      const after = h.sandbox.calls.length;
      const again = await clickRoot(h, c.checker === ADMIN_CHECKER ? GROUP_CHECKER : ADMIN_CHECKER, root, 'approval_approve');
      expect(messageText(await answerOn(h, again.responseId))).toContain(`Already approved by <@${c.checker}>`);
      expect(writesSince(after)).toEqual([]);
    });

    test('rejected with a reason: the root says so, the maker is mentioned in its thread with the reason; nothing is written', async () => {
      const { root } = await askOf(c);
      const since = h.sandbox.calls.length;
      const slackSince = h.slack.calls.length;
      const res = await rejectWithReason(h, c.checker, root, 'Not <this> month');
      expect(res.body).toMatchObject({ response_action: 'update' });
      const reply = await waitFor('the rejection in the thread', () => threadPosts(h, root, slackSince)[0]);
      expect(messageText(reply.args)).toContain(`<@${c.maker}>, <@${c.checker}> rejected this: “Not &lt;this&gt; month”`);
      const final = await waitFor('the root updated', () => rootUpdates(h, root, slackSince)[0]);
      expect(messageText(final.args)).toContain(`Rejected by <@${c.checker}>`);
      expect(JSON.stringify(final.args.blocks)).not.toContain('approval_approve');
      expect(await record(root.id)).toMatchObject({ state: 'rejected', checkerId: c.checker, reason: 'Not <this> month' });
      // Approving it afterwards does nothing.
      const late = await clickRoot(h, c.checker, root, 'approval_approve');
      expect(messageText(await answerOn(h, late.responseId))).toContain(`Already rejected by <@${c.checker}>`);
      expect(writesSince(since)).toEqual([]);
    });

    test('the maker cannot approve or reject their own; a user outside ACCESS_APPROVERS cannot either; both are told, ephemerally', async () => {
      const { root } = await askOf(c);
      const since = h.sandbox.calls.length;
      const slackSince = h.slack.calls.length;
      const own = await clickRoot(h, c.maker, root, 'approval_approve');
      const ownAnswer = await answerOn(h, own.responseId);
      expect(ownAnswer).toMatchObject({ response_type: 'ephemeral', replace_original: false });
      expect(messageText(ownAnswer)).toContain('You asked for this yourself: someone else must approve or reject it.');
      const ownReject = await clickRoot(h, c.maker, root, 'approval_reject');
      expect(messageText(await answerOn(h, ownReject.responseId))).toContain('You asked for this yourself');
      const outside = await clickRoot(h, OUTSIDER, root, 'approval_approve');
      expect(messageText(await answerOn(h, outside.responseId))).toContain(
        `Only the approvers listed in \`ACCESS_APPROVERS\` may approve or reject this. Your user ID is \`${OUTSIDER}\`.`,
      );
      const outsideReject = await clickRoot(h, OUTSIDER, root, 'approval_reject');
      expect(messageText(await answerOn(h, outsideReject.responseId))).toContain('Only the approvers listed');
      expect(h.slack.calls.slice(slackSince).filter((c2) => c2.method === 'views.open')).toEqual([]);
      expect(rootUpdates(h, root, slackSince)).toEqual([]);
      expect(writesSince(since)).toEqual([]);
      expect((await record(root.id))?.state).toBe('pending');
    });

    test('the maker cancels it (nobody else can); nothing is written', async () => {
      const { root } = await askOf(c);
      const since = h.sandbox.calls.length;
      const slackSince = h.slack.calls.length;
      const other = await clickRoot(h, c.checker, root, 'approval_cancel');
      expect(messageText(await answerOn(h, other.responseId))).toContain(`Only <@${c.maker}>, who asked for it, can cancel this.`);
      await clickRoot(h, c.maker, root, 'approval_cancel');
      const final = await waitFor('the root updated', () => rootUpdates(h, root, slackSince)[0]);
      expect(messageText(final.args)).toContain(`Cancelled by <@${c.maker}>`);
      expect((await record(root.id))?.state).toBe('cancelled');
      const late = await clickRoot(h, c.checker, root, 'approval_approve');
      expect(messageText(await answerOn(h, late.responseId))).toContain('Already cancelled by the maker');
      expect(writesSince(since)).toEqual([]);
    });

    test('past APPROVAL_TTL: a click is told it expired, the poller’s tick marks the root expired; nothing is written', async () => {
      const { root } = await askOf(c);
      const since = h.sandbox.calls.length;
      const slackSince = h.slack.calls.length;
      const expiresAt = Date.parse((await record(root.id))!.expiresAt);
      expect(expiresAt - Date.now()).toBeGreaterThan(23 * 3_600_000); // APPROVAL_TTL's default, 24h
      // A day later (the record's clock moved back rather than the test waiting a day).
      await h.app.deps.store.approvals.update(root.id, (r) => ({ ...r, expiresAt: new Date(Date.now() - 1_000).toISOString() }));
      await h.app.poller.tick();
      const final = await waitFor('the root updated', () => rootUpdates(h, root, slackSince)[0]);
      expect(messageText(final.args)).toContain('Expired on');
      expect(messageText(final.args)).toContain('Nothing was sent to the Pix API.');
      expect(await record(root.id)).toMatchObject({ state: 'expired', settled: true });
      const late = await clickRoot(h, c.checker, root, 'approval_approve');
      expect(messageText(await answerOn(h, late.responseId))).toContain('Already expired');
      expect(writesSince(since)).toEqual([]);
      expect(await h.app.deps.store.approvals.openIds()).not.toContain(root.id);
    });
  });

  test('a proof deleted from Slack before the approval: a clear message in the thread, nothing filed', async () => {
    const { root, proof, shown } = await flows['limit-request']({ proofName: 'gone-before-approval.pdf' });
    await shown();
    h.slack.files.delete(proof!.id as string);
    const since = h.sandbox.calls.length;
    const slackSince = h.slack.calls.length;
    await clickRoot(h, OPERATOR_CHECKER, root, 'approval_approve');
    await waitFor('the approval ended', async () => (await record(root.id))?.settled);
    expect((await record(root.id))?.state).toBe('failed');
    const reply = await waitFor('the failure in the thread', () => threadPosts(h, root, slackSince)[0]);
    expect(messageText(reply.args)).toContain(
      `<@${OPERATOR}>, what <@${OPERATOR_CHECKER}> approved did not go through: The proof file “gone-before-approval.pdf” cannot be read from Slack any more (deleted?). Nothing was filed.`,
    );
    expect(messageText(rootUpdates(h, root, slackSince).at(-1)!.args)).toContain('but it did not go through');
    expect(writesSince(since)).toEqual([]);
  });

  test('the Pix API refusing the approved action: the root says it did not go through, the maker is told in the thread in the API’s words', async () => {
    const key = 'already-there@example.com';
    await sandboxApi(h, 'POST', '/api/v1/pix-keys', campaign.appId, { pixKey: key, type: 'EMAIL' });
    const { root, shown } = await flows['key-add']({ value: key });
    await shown();
    const slackSince = h.slack.calls.length;
    await clickRoot(h, OPERATOR_CHECKER, root, 'approval_approve');
    await waitFor('the approval ended', async () => (await record(root.id))?.settled);
    expect(await record(root.id)).toMatchObject({ state: 'failed', checkerId: OPERATOR_CHECKER });
    const reply = await waitFor('the failure in the thread', () => threadPosts(h, root, slackSince)[0]);
    expect(messageText(reply.args)).toContain(
      `<@${OPERATOR}>, what <@${OPERATOR_CHECKER}> approved did not go through: Could not add the Pix key: “Pix key already exists”`,
    );
    expect(messageText(rootUpdates(h, root, slackSince).at(-1)!.args)).toContain(`Approved by <@${OPERATOR_CHECKER}>`);
  });

  test('two checkers approving at the same moment on one instance: one Pix write; the second is told who approved first', async () => {
    const { root } = await askOf(caseOf('key-add'));
    const since = h.sandbox.calls.length;
    const [first, second] = await Promise.all([
      clickRoot(h, OPERATOR_CHECKER, root, 'approval_approve'),
      clickRoot(h, ADMIN_CHECKER, root, 'approval_approve'),
    ]);
    await waitFor('the approval done', async () => (await record(root.id))?.settled);
    expect(writesSince(since).map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/v1/pix-keys']);
    const winner = (await record(root.id))!.checkerId;
    const loser = winner === OPERATOR_CHECKER ? second : first;
    expect(messageText(await answerOn(h, loser.responseId))).toContain(`Already approved by <@${winner}>`);
  });

  test('the audit trail: the maker’s request (pending), each refusal, the approval and its Pix call with maker and checker; a rejection, a cancel, an expiry', async () => {
    const entriesOf = async (id: string) =>
      (await h.app.deps.store.audit.page({ since: new Date(0), limit: 10_000 }))
        .reverse()
        .filter((e) => e.target?.includes(`approval:${id}`));
    const { root } = await askOf(caseOf('key-add'));
    await answerOn(h, (await clickRoot(h, OPERATOR, root, 'approval_approve')).responseId);
    await answerOn(h, (await clickRoot(h, OUTSIDER, root, 'approval_approve')).responseId);
    await clickRoot(h, OPERATOR_CHECKER, root, 'approval_approve');
    await waitFor('the approval done', async () => (await record(root.id))?.settled);
    const entries = await waitFor('the entries', async () => {
      const found = await entriesOf(root.id);
      return found.some((e) => e.outcome === 'approved') ? found : undefined;
    });
    const key = 'key:a***@example.com';
    expect(entries).toHaveLength(5);
    expect(entries[0]).toEqual(
      expect.objectContaining({
        user: OPERATOR,
        action: 'view:pix_key_add',
        outcome: 'pending',
        maker: OPERATOR,
        target: expect.stringContaining(key),
      }),
    );
    expect(entries.slice(1, 3)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          user: OPERATOR,
          action: 'action:approval_approve',
          outcome: 'refused',
          detail: 'own action',
          maker: OPERATOR,
        }),
        expect.objectContaining({
          user: OUTSIDER,
          action: 'action:approval_approve',
          outcome: 'refused',
          detail: 'not an approver',
          maker: OPERATOR,
        }),
      ]),
    );
    expect(entries.slice(3)).toEqual([
      expect.objectContaining({
        user: OPERATOR_CHECKER,
        pixMethod: 'POST',
        pixPath: '/api/v1/pix-keys',
        pixStatus: 201,
        outcome: 'ok',
        maker: OPERATOR,
        checker: OPERATOR_CHECKER,
      }),
      expect.objectContaining({
        user: OPERATOR_CHECKER,
        action: 'action:approval_approve',
        outcome: 'approved',
        maker: OPERATOR,
        checker: OPERATOR_CHECKER,
        target: expect.stringContaining(key),
      }),
    ]);
    expect(entries.filter((e) => e.outcome === 'refused').map((e) => e.checker)).toEqual([undefined, undefined]);
    expect(JSON.stringify(entries)).not.toContain('approved-');

    const rejected = (await askOf(caseOf('key-add'))).root;
    await rejectWithReason(h, OPERATOR_CHECKER, rejected, 'no');
    const cancelled = (await askOf(caseOf('key-add'))).root;
    await clickRoot(h, OPERATOR, cancelled, 'approval_cancel');
    const expired = (await askOf(caseOf('key-add'))).root;
    await h.app.deps.store.approvals.update(expired.id, (r) => ({ ...r, expiresAt: new Date(Date.now() - 1_000).toISOString() }));
    await h.app.poller.tick();
    const last = async (id: string) =>
      waitFor(`the end of ${id}`, async () =>
        (await entriesOf(id)).find((e) => e.outcome !== 'pending' && e.action !== 'action:approval_reject'),
      );
    expect(await last(rejected.id)).toEqual(
      expect.objectContaining({
        user: OPERATOR_CHECKER,
        action: 'view:approval_reject_reason',
        outcome: 'rejected',
        maker: OPERATOR,
        checker: OPERATOR_CHECKER,
      }),
    );
    expect(await last(cancelled.id)).toEqual(
      expect.objectContaining({ user: OPERATOR, action: 'action:approval_cancel', outcome: 'cancelled', maker: OPERATOR }),
    );
    expect(await last(expired.id)).toEqual(
      expect.objectContaining({ user: OPERATOR, role: 'none', action: 'approval:expire', outcome: 'expired', maker: OPERATOR }),
    );
  });

  test('a button that names no approval (or one that does not exist) does nothing and says so', async () => {
    for (const value of ['not-an-id', '0123456789abcdef']) {
      const click = await clickButton(h, { userId: ADMIN_CHECKER, actionId: 'approval_approve', value, channelId: CHANNEL });
      expect(messageText(await answerOn(h, click.responseId))).toContain('This approval does not exist (any more). Nothing was done.');
    }
  });

  test('a viewer is refused the approval buttons by the router (the operator role), and the reject form too', async () => {
    const { root } = await askOf(caseOf('key-add'));
    const slackBefore = h.slack.calls.length;
    const click = await clickRoot(h, VIEWER, root, 'approval_approve');
    expect(messageText(await answerOn(h, click.responseId))).toContain('You need the *operator* role to approve or reject an action');
    expect(h.slack.calls.slice(slackBefore).filter((c) => c.method === 'views.open' || c.method === 'chat.update')).toEqual([]);
    expect((await record(root.id))?.state).toBe('pending');
  });

  test('an operator approver cannot approve an admin action (its role is checked by the approval)', async () => {
    const { root } = await askOf(caseOf('key-delete'));
    const click = await clickRoot(h, OPERATOR_CHECKER, root, 'approval_approve');
    expect(messageText(await answerOn(h, click.responseId))).toContain(
      'You need the *admin* role to approve or reject this (Delete a Pix key).',
    );
    expect((await record(root.id))?.state).toBe('pending');
  });

  test('an approval past its expiry is not run by a click even before the tick marks it', async () => {
    const { root } = await askOf(caseOf('key-add'));
    await h.app.deps.store.approvals.update(root.id, (r) => ({ ...r, expiresAt: new Date(Date.now() - 1_000).toISOString() }));
    const since = h.sandbox.calls.length;
    const click = await clickRoot(h, OPERATOR_CHECKER, root, 'approval_approve');
    expect(messageText(await answerOn(h, click.responseId))).toContain('Already expired');
    expect(writesSince(since)).toEqual([]);
    expect((await record(root.id))?.state).toBe('expired');
  });

  test('the reject form requires a reason; a blank one is refused inline', async () => {
    const { root } = await askOf(caseOf('key-add'));
    const res = await rejectWithReason(h, OPERATOR_CHECKER, root, '   ');
    expect(res.body).toEqual({ response_action: 'errors', errors: { reason: 'Say why it is rejected.' } });
    expect((await record(root.id))?.state).toBe('pending');
  });

  test('the stored approval seals its payload: the Pix key is not in the store’s file', async () => {
    const { root, shown } = await flows['key-add']({ value: 'sealed-payload-check@example.com' });
    await shown();
    expect((await record(root.id))?.payload).toMatchObject({ pixKey: 'sealed-payload-check@example.com' });
    const files = readdirSync(h.dataDir).filter((f) => f.startsWith('pix-ops.sqlite'));
    expect(files).toContain('pix-ops.sqlite');
    // A rollback journal lives only while a write does: one gone between the listing and its read held nothing.
    const contents = files.map((f) => readIfThere(path.join(h.dataDir, f)));
    expect(contents[files.indexOf('pix-ops.sqlite')]).toBeDefined();
    for (const bytes of contents) expect(bytes?.includes(Buffer.from('sealed-payload-check')) ?? false).toBe(false);
  });

  test('Home lists the approvals the viewer may act on: to decide, or their own to cancel; not others’', async () => {
    // The tab shows the oldest few: the approvals other tests left pending expire first.
    for (const id of await h.app.deps.store.approvals.openIds()) {
      await h.app.deps.store.approvals.update(id, (r) =>
        r.state === 'pending' ? { ...r, expiresAt: new Date(Date.now() - 1_000).toISOString() } : r,
      );
    }
    await h.app.poller.tick();
    expect(await h.app.deps.store.approvals.openIds()).toEqual([]);
    const { root } = await askOf(caseOf('key-delete')); // key-delete, an admin action by ADMIN
    const homeView = { id: 'V0HOMEVIEW', type: 'home', blocks: [], hash: 'h0', private_metadata: '', callback_id: '' };
    const clickHome = (userId: string, actionId: string, value: string) =>
      sendInteraction(h, viewBlockAction(userId, homeView, { type: 'button', action_id: actionId, block_id: 'home', value }));
    const homeOf = async (userId: string) => {
      const from = h.slack.calls.length;
      await clickHome(userId, 'home_refresh', 'refresh');
      return waitFor(`the Home tab of ${userId}`, () =>
        h.slack.calls.slice(from).find((c) => c.method === 'views.publish' && c.args.user_id === userId),
      );
    };
    const idsIn = (view: unknown) =>
      ((view as { blocks: Array<{ type: string; elements?: Array<{ action_id: string; value: string }> }> }).blocks ?? [])
        .flatMap((b) => b.elements ?? [])
        .filter((e) => e.value === root.id)
        .map((e) => e.action_id);
    expect(idsIn((await homeOf(ADMIN_CHECKER)).args.view)).toEqual(['approval_approve', 'approval_reject']);
    expect(idsIn((await homeOf(ADMIN)).args.view)).toEqual(['approval_cancel']);
    expect(idsIn((await homeOf(OUTSIDER)).args.view)).toEqual([]);
    expect(idsIn((await homeOf(OPERATOR_CHECKER)).args.view)).toEqual([]); // an admin action
    expect(messageText((await homeOf(ADMIN_CHECKER)).args.view)).toContain('Actions waiting for approval');

    // Approved from the Home tab: the answer has no response_url, the tab is refreshed, the root updated.
    const from = h.slack.calls.length;
    await clickHome(ADMIN_CHECKER, 'approval_approve', root.id);
    await waitFor('the approval done', async () => (await record(root.id))?.settled);
    expect(messageText(rootUpdates(h, root, from).at(-1)!.args)).toContain('and done');
    expect(idsIn((await homeOf(ADMIN_CHECKER)).args.view)).toEqual([]);
  });

  test('every root posted by this file carries the approval’s id in its metadata', () => {
    // Roots found by their Approve button, not by the metadata under test.
    const buttons = (c: { args: Record<string, unknown> }) =>
      ((c.args.blocks ?? []) as Array<{ elements?: Array<{ action_id?: string; value?: string }> }>).flatMap((b) => b.elements ?? []);
    const roots = h.slack.calls.filter(
      (c) => c.method === 'chat.postMessage' && buttons(c).some((e) => e.action_id === 'approval_approve'),
    );
    expect(roots.length).toBeGreaterThanOrEqual(cases.length);
    for (const c of roots) {
      const id = buttons(c).find((e) => e.action_id === 'approval_approve')!.value;
      expect(c.args.metadata).toEqual({ event_type: 'pix_approval', event_payload: { approval_id: id } });
      expect(id).toMatch(/^[0-9a-f]{16}$/);
    }
  });
});

/**
 * A whole approval in sandbox mode (no PIX_API_URL: the built-in sandbox, everyone admin, every
 * message marked SANDBOX), with no ACCESS_APPROVERS: anyone but the maker may approve. The command,
 * the modal, the pending root, the approval, the Pix calls, the request's decision in the thread.
 */
describe('a whole approval in sandbox mode', () => {
  let h: Harness;
  const MAKER = 'U0MAKER01';
  const CHECKER = 'U0CHECK01';

  beforeAll(async () => {
    h = await startHarness({ APPROVALS: 'limit-request' }, { sandboxMode: true });
  });
  afterAll(() => h.close());

  test('limit request: asked, approved by someone else, filed in the sandbox, decided in the approval’s thread', async () => {
    const accountId = h.sandbox.companies.main.defaultAccountId;
    const flows = makerFlows(h, {
      channel: CHANNEL,
      operator: MAKER,
      admin: MAKER,
      campaignAccountId: accountId,
      campaignAppId: '',
      rotateClientId: '',
      accountId,
    });
    const pixBefore = h.sandbox.calls.length;
    const { root, shown } = await flows['limit-request']();
    expect(await shown()).toContain('is waiting for approval');
    expect(h.sandbox.calls.slice(pixBefore).filter((c) => c.method !== 'GET')).toEqual([]);
    expect(root.call.args.text).toMatch(/^\[SANDBOX\] File a limit request: waiting for approval/);
    expect(messageText(root.call.args)).toContain('Anyone but the maker with the operator role may approve or reject it');

    const own = await clickRoot(h, MAKER, root, 'approval_approve');
    expect(messageText(await answerOn(h, own.responseId))).toContain('You asked for this yourself');

    await clickRoot(h, CHECKER, root, 'approval_approve');
    const record = await waitFor('approved and filed', async () => {
      const r = await h.app.deps.store.approvals.get(root.id);
      return r?.settled ? r : undefined;
    });
    expect(record).toMatchObject({ state: 'done', checkerId: CHECKER });
    const writes = h.sandbox.calls
      .slice(pixBefore)
      .filter((c) => c.method !== 'GET')
      .map((c) => `${c.method} ${c.path}`);
    expect(writes).toEqual(['POST /api/v1/files', 'POST /api/v1/limits/request']);
    const requestId = record.outcome!.limitRequestId!;
    const filedRoot = messageText(rootUpdates(h, root).at(-1)!.args);
    expect(filedRoot).toContain(requestId);
    expect(filedRoot).toContain(`Filed once <@${CHECKER}> approved it`);
    expect(filedRoot).toContain('SANDBOX');

    await sandboxApi(h, 'POST', `/sandbox/limit-requests/${requestId}/approve`);
    await h.app.poller.tick();
    const decision = await waitFor('the decision in the approval’s thread', () =>
      threadPosts(h, root).find((c) => (c.args.metadata as { event_type?: string } | undefined)?.event_type === 'pix_limit_decision'),
    );
    expect(messageText(decision.args)).toContain(`<@${MAKER}>`);
    expect(messageText(decision.args)).toContain('approved');

    // …and the audit trail has both people on the filing's Pix calls.
    const entries = await h.app.deps.store.audit.page({ since: new Date(0), limit: 1_000 });
    const filing = entries.find((e) => e.pixMethod === 'POST' && e.pixPath === '/api/v1/limits/request');
    expect(filing).toMatchObject({ user: CHECKER, maker: MAKER, checker: CHECKER, pixStatus: 201 });
  });
});
