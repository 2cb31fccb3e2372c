import type { ResponseUrlCall } from '../../src/slack-standin/web-api';
import { type Harness, messageText, startHarness } from '../support/harness';
import { blockAction, clearFaults, createAccount, decideLimitRequest, failPixApi, openLimitRequest } from '../support/interactions';
import { waitFor } from '../support/wait';

const VIEWER = 'U0VIEWER1';
const STRANGER = 'U0NOBODY1';
const CHANNEL = 'C0WATCH01';

/** What an English reader (the fake Slack's users are `en-US`) sees for an ISO timestamp, in Brasília time (computed apart from the app's own helper). */
const brasilia = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone: 'America/Sao_Paulo', dateStyle: 'medium', timeStyle: 'short' })
    .format(new Date(iso))
    .replace(/[\u00a0\u202f]/g, ' ');

describe('/pix limit status and "Notify this channel", through the real app (HTTP mode)', () => {
  let h: Harness;
  let main: Harness['sandbox']['companies']['main'];
  let inReview: { id: string; createdAt: string };
  let clicks = 0;

  beforeAll(async () => {
    h = await startHarness({ ACCESS_VIEWERS: VIEWER });
    main = h.sandbox.companies.main;
    inReview = await openLimitRequest(h, {
      appId: main.mainAppId,
      accountId: main.defaultAccountId,
      // Current: day 500000, night 100000, same-holder out day 500000.
      limits: { pixDayLimit: 1234567, pixNightLimit: 250050, pixOutSameHolderDayLimit: 500000 },
      fileName: 'balanço <2025>.pdf',
      description: 'Campaign *launch* <@U0EVERYONE>',
    });
  });
  afterAll(() => h.close());

  const firstResponse = async (responseId: string, timeoutMs?: number): Promise<ResponseUrlCall> =>
    waitFor(`an answer on ${responseId}`, () => h.slack.responsesTo(responseId)[0], timeoutMs);

  const status = async (userId: string, text: string) => {
    const res = await h.slash(userId, text);
    expect(res.status).toBe(200);
    return res;
  };

  const click = async (userId: string, value: string, channelId = CHANNEL) => {
    const responseId = `watch-${++clicks}`;
    const res = await blockAction(h, { userId, actionId: 'limit_watch', value, channelId, responseId, blockId: 'limit_status_actions' });
    expect(res.status).toBe(200);
    return firstResponse(responseId, 15_000);
  };

  const posts = () => h.slack.callsOf('chat.postMessage');
  const buttonsOf = (message: unknown): Array<Record<string, unknown>> =>
    ((message as { blocks?: Array<{ type: string; elements?: Array<Record<string, unknown>> }> }).blocks ?? [])
      .filter((b) => b.type === 'actions')
      .flatMap((b) => b.elements ?? []);

  test('a viewer reads a request in review: status, account, dates, documents and each amount in R$, with a Notify button', async () => {
    const before = h.sandbox.calls.length;
    const res = await status(VIEWER, `limit status ${inReview.id}`);
    const answer = await firstResponse(res.responseId);
    expect(answer.body.response_type).toBe('ephemeral');
    const text = messageText(answer.body);

    expect(text).toContain(`\`${inReview.id}\``);
    expect(text).toContain(':hourglass_flowing_sand: In review');
    expect(text).toContain(`\`${main.defaultAccountId}\``);
    expect(text).toContain(`*Created*\n${brasilia(inReview.createdAt)}`);
    expect(text).toContain('• Pix day: requested *R$12,345.67*');
    expect(text).toContain('• Pix night: requested *R$2,500.50*');
    expect(text).toContain('• Pix out · same holder · day: requested *R$5,000.00*');
    expect(text).not.toContain('approved *');
    // User and API data are escaped: no stray mention or link.
    expect(text).toContain('balanço &lt;2025&gt;.pdf');
    expect(text).toContain('&lt;@U0EVERYONE&gt;');
    expect(text).not.toContain('<@U0EVERYONE>');

    expect(buttonsOf(answer.body)).toEqual([expect.objectContaining({ action_id: 'limit_watch', value: inReview.id })]);
    const calls = h.sandbox.calls.slice(before);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET /api/v1/limits/request/${inReview.id}`]);
    expect(calls[0]!.authorization).toBe(main.mainAppId);
  });

  test('an unauthorized user is refused, naming the role, and nothing reaches the Pix API', async () => {
    const before = h.sandbox.calls.length;
    const res = await status(STRANGER, `limit status ${inReview.id}`);
    expect(res.ack?.response_type).toBe('ephemeral');
    expect(messageText(res.ack)).toContain('*viewer* role');
    await h.slash(VIEWER, 'help');
    expect(h.sandbox.calls.length).toBe(before);
    expect(h.slack.responsesTo(res.responseId)).toEqual([]);
  });

  test('a malformed or missing id gets usage and no call', async () => {
    const before = h.sandbox.calls.length;
    const res = await status(VIEWER, 'limit status ../../account');
    expect(messageText((await firstResponse(res.responseId)).body)).toMatch(
      /That is not a limit request id\. Usage: `\/pix limit status (<|&lt;)limitRequestId(>|&gt;)`/,
    );
    const missing = await status(VIEWER, 'limit status');
    expect(messageText(missing.ack)).toMatch(/Usage: `\/pix limit status (<|&lt;)limitRequestId(>|&gt;)`/);
    expect(h.sandbox.calls.length).toBe(before);
  });

  test("another company's request reads as not found, never forbidden", async () => {
    const other = h.sandbox.companies.other;
    const theirs = await openLimitRequest(h, {
      appId: other.mainAppId,
      accountId: other.defaultAccountId,
      limits: { pixDayLimit: 900000, pixNightLimit: 100000 },
    });
    const res = await status(VIEWER, `limit status ${theirs.id}`);
    const text = messageText((await firstResponse(res.responseId)).body);
    expect(text).toContain('Could not read the limit request: not found');
    expect(text).toContain('Limit request not found');
    expect(text).not.toMatch(/forbidden|permission/i);

    const postsBefore = posts().length;
    const answer = await click(VIEWER, theirs.id);
    expect(messageText(answer.body)).toContain('not found');
    expect(posts().length).toBe(postsBefore);
    expect(await h.app.deps.store.trackedRequests.get(theirs.id)).toBeUndefined();
  });

  test('the Pix API failing: the user is told, and nothing is posted', async () => {
    const postsBefore = posts().length;
    await failPixApi(h);
    try {
      const res = await status(VIEWER, `limit status ${inReview.id}`);
      const text = messageText((await firstResponse(res.responseId, 15_000)).body);
      expect(text).toContain('Could not read the limit request');
      expect(text).toContain('Sandbox fault');

      const answer = await click(VIEWER, inReview.id);
      expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
      expect(messageText(answer.body)).toContain('Could not read the limit request');
    } finally {
      await clearFaults(h);
    }
    expect(posts().length).toBe(postsBefore);
    expect(await h.app.deps.store.trackedRequests.get(inReview.id)).toBeUndefined();
  });

  test('an unauthorized click is refused, naming the role: nothing reaches the Pix API or the channel', async () => {
    const before = h.sandbox.calls.length;
    const postsBefore = posts().length;
    const answer = await click(STRANGER, inReview.id);
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(messageText(answer.body)).toContain('You need the *viewer* role to follow a limit request in a channel');
    expect(h.sandbox.calls.length).toBe(before);
    expect(posts().length).toBe(postsBefore);
  });

  test('a button whose value is not a request id does nothing', async () => {
    const before = h.sandbox.calls.length;
    const answer = await click(VIEWER, '../../x');
    expect(messageText(answer.body)).toContain('does not name a limit request');
    expect(h.sandbox.calls.length).toBe(before);
  });

  test('Notify this channel posts the thread root once, with metadata, and tracks the request', async () => {
    const postsBefore = posts().length;
    const answer = await click(VIEWER, inReview.id);
    expect(answer.body).toMatchObject({ response_type: 'ephemeral', replace_original: false });
    expect(messageText(answer.body)).toContain(`is posted in <#${CHANNEL}>`);

    const newPosts = posts().slice(postsBefore);
    expect(newPosts).toHaveLength(1);
    const root = h.slack.messages.find((m) => m.channel === CHANNEL && !m.thread_ts);
    expect(root?.metadata).toEqual({ event_type: 'pix_limit_request', event_payload: { limit_request_id: inReview.id } });
    const rootText = messageText(root);
    expect(rootText).toContain(inReview.id);
    expect(rootText).toContain('*R$12,345.67*');
    expect(rootText).toContain(`<@${VIEWER}>`);
    expect(rootText).toContain('The decision will be posted in this thread.');

    const tracked = await h.app.deps.store.trackedRequests.get(inReview.id);
    expect(tracked).toMatchObject({
      limitRequestId: inReview.id,
      accountId: main.defaultAccountId,
      requesterId: VIEWER,
      channel: CHANNEL,
      rootTs: root!.ts,
      source: 'watched',
      closed: false,
      requested: { pixDayLimit: 1234567, pixNightLimit: 250050, pixOutSameHolderDayLimit: 500000 },
      documents: [{ fileName: 'balanço <2025>.pdf', contentType: 'application/pdf' }],
    });
    expect(tracked!.current).toBeUndefined();
    expect(await h.app.deps.store.trackedRequests.openIds()).toContain(inReview.id);

    // A second click (from another channel too) says where the thread is and posts nothing.
    const again = await click(VIEWER, inReview.id, 'C0ELSEWHERE');
    expect(messageText(again.body)).toContain(`already followed: its thread is in <#${CHANNEL}>`);
    expect(posts().length).toBe(postsBefore + 1);

    // And the status now says where its thread is, without the button.
    const res = await status(VIEWER, `limit status ${inReview.id}`);
    const statusAnswer = await firstResponse(res.responseId);
    expect(messageText(statusAnswer.body)).toContain(`its thread is in <#${CHANNEL}>`);
    expect(buttonsOf(statusAnswer.body)).toEqual([]);
  });

  test('two quick clicks post once', async () => {
    const accountId = await createAccount(h, main.masterAppId);
    const request = await openLimitRequest(h, { appId: main.mainAppId, accountId, limits: { pixDayLimit: 700000, pixNightLimit: 100000 } });
    const postsBefore = posts().length;
    await Promise.all([click(VIEWER, request.id), click(VIEWER, request.id)]);
    expect(posts().length).toBe(postsBefore + 1);
    expect((await h.app.deps.store.trackedRequests.get(request.id))?.channel).toBe(CHANNEL);
  });

  describe('a request filed on another account', () => {
    let accountId: string;
    let request: { id: string };

    beforeAll(async () => {
      accountId = await createAccount(h, main.masterAppId);
      request = await openLimitRequest(h, { appId: main.mainAppId, accountId, limits: { pixDayLimit: 800000, pixNightLimit: 120000 } });
    });

    test('in a channel the bot is not in: asks to invite it, and tracks nothing', async () => {
      h.slack.closedChannels.add('C0CLOSED1');
      const answer = await click(VIEWER, request.id, 'C0CLOSED1');
      expect(messageText(answer.body)).toContain('/invite @Pix Ops');
      expect(await h.app.deps.store.trackedRequests.get(request.id)).toBeUndefined();

      h.slack.on('chat.postMessage', () => ({ ok: false, error: 'channel_not_found' }));
      try {
        const notFound = await click(VIEWER, request.id, 'C0GONE001');
        expect(messageText(notFound.body)).toContain('/invite @Pix Ops');
      } finally {
        h.slack.off('chat.postMessage');
      }
      expect(await h.app.deps.store.trackedRequests.get(request.id)).toBeUndefined();
    });

    test('once decided: the status shows approved against requested, and the button says it is decided', async () => {
      await decideLimitRequest(h, request.id, 'approve', { pixDayLimit: 750000, pixNightLimit: 120000 });
      const res = await status(VIEWER, `limit status ${request.id}`);
      const answer = await firstResponse(res.responseId);
      const text = messageText(answer.body);
      expect(text).toContain(':white_check_mark: Approved');
      expect(text).toContain('• Pix day: requested *R$8,000.00*  → approved *R$7,500.00* :warning: below the ask');
      expect(text).toContain('• Pix night: requested *R$1,200.00*  → approved *R$1,200.00*');
      expect(text).not.toContain('R$1,200.00* :warning:');
      expect(buttonsOf(answer.body)).toEqual([]);

      const postsBefore = posts().length;
      const clicked = await click(VIEWER, request.id);
      expect(messageText(clicked.body)).toContain('already decided (:white_check_mark: Approved)');
      expect(posts().length).toBe(postsBefore);
      expect(await h.app.deps.store.trackedRequests.get(request.id)).toBeUndefined();
    });

    test('a rejected request says nothing was granted', async () => {
      const next = await openLimitRequest(h, { appId: main.mainAppId, accountId, limits: { pixDayLimit: 900000, pixNightLimit: 120000 } });
      await decideLimitRequest(h, next.id, 'reject');
      const res = await status(VIEWER, `limit status ${next.id}`);
      const text = messageText((await firstResponse(res.responseId)).body);
      expect(text).toContain(':x: Rejected');
      expect(text).toContain('• Pix day: requested *R$9,000.00*');
      expect(text).toContain('nothing was granted');
    });
  });

  test('no AppID or token appears in the logs', async () => {
    // The app uses the AppID on the wire and logs its work here, whatever ran before: the logs had the chance to leak it.
    const [logsBefore, pixBefore] = [h.logs.length, h.sandbox.calls.length];
    await firstResponse((await status(VIEWER, `limit status ${inReview.id}`)).responseId);
    expect(h.sandbox.calls.slice(pixBefore).map((c) => c.authorization)).toContain(main.mainAppId);
    expect(h.logs.length).toBeGreaterThan(logsBefore);
    const all = h.logs.join('\n');
    expect(all).not.toContain(main.mainAppId);
    expect(all).not.toContain(main.masterAppId);
    expect(all).not.toContain('xoxb-test-bot-token');
  });
});
