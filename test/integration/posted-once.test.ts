import { postAnnouncement } from '../../commands/account-shared';
import { ExactWebClient } from '../../src/slack/exact-client';
import { section } from '../../views/message';
import { control } from '../sandbox/helpers';
import { type Harness, messageText, startHarness } from '../support/harness';
import { blockAction, createAccount, openLimitRequest } from '../support/interactions';
import { addProof, modalTexts, openLimitForm, requestsOf, rootsIn, submitLimitForm } from '../support/limit-form';
import { approve, fileTrackedRequest, newAccount, REQUESTER } from '../support/limit-requests';
import { waitFor } from '../support/wait';

const OPERATOR = 'U0OPER001';

/**
 * a `chat.postMessage` whose answer is lost (Slack took the message, the connection
 * dropped before its answer) is not sent again blind, as the app's retrying client would: the channel
 * is read for the message first. Each post that must happen once happens once.
 */
describe('posts that must happen once, when Slack’s answer is lost', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ ACCESS_OPERATORS: OPERATOR, ACCESS_VIEWERS: OPERATOR });
  });
  afterAll(() => h.close());
  afterEach(() => control(h.sandbox, 'DELETE', '/faults'));

  const lostPosts = () => h.slack.callsOf('chat.postMessage').filter((c) => c.lost);

  test('the thread root of a filed request: one root, recorded as the request’s thread', async () => {
    const channel = 'C0ONCE0001';
    const account = await newAccount(h.sandbox);
    const form = await openLimitForm(h, { userId: OPERATOR, accountId: account, channelId: channel });
    const from = h.slack.calls.length;
    h.slack.loseAnswers('chat.postMessage');
    await submitLimitForm(h, form, { userId: OPERATOR, dayLimit: '7000', files: [addProof(h.slack)] });

    const shown = await waitFor(
      'the outcome in the modal',
      () => modalTexts(h.slack, form.viewId, from).find((t) => !t.includes('…')),
      10_000,
    );
    expect(lostPosts().length).toBeGreaterThanOrEqual(1);
    expect(rootsIn(h.slack, channel)).toHaveLength(1);
    const [filed] = await requestsOf(h.sandbox, account);
    expect(shown).toContain(`Its thread is in <#${channel}>`);
    expect(await h.app.deps.store.trackedRequests.get(filed!.id)).toMatchObject({ channel, rootTs: rootsIn(h.slack, channel)[0]!.ts });
  });

  const announcement = { text: 'Pix key added', blocks: [section('Pix key added')] };

  test('an announcement in the channel (postAnnouncement): one message, its ts returned', async () => {
    const channel = 'C0ONCE0002';
    h.slack.loseAnswers('chat.postMessage');
    const posted = await postAnnouncement(h.app.deps, 'en', channel, announcement);
    const inChannel = h.slack.messages.filter((m) => m.channel === channel);
    expect(inChannel).toHaveLength(1);
    expect(posted).toEqual({ channel, ts: inChannel[0]!.ts });
    expect(inChannel[0]!.metadata?.event_type).toBe('pix_ops_notice');
  });

  test('every must-once post of the app goes through a client that makes each call once: handed the retried one, nothing is posted', async () => {
    const { slack } = h.app.deps;
    expect(ExactWebClient.isExact(slack.exact)).toBe(true);
    expect(ExactWebClient.isExact(slack.retried)).toBe(false);
    const channel = 'C0ONCE0007';
    const before = h.slack.callsOf('chat.postMessage').length;
    // Bolt's client wired in where the exact one belongs (past the type, by a cast): refused, not posted.
    const wired = { ...h.app.deps, slack: { ...slack, exact: slack.retried as ExactWebClient } };
    expect(await postAnnouncement(wired, 'en', channel, announcement)).toBeUndefined();
    expect(h.slack.callsOf('chat.postMessage').length).toBe(before);
  });

  test('an announcement Slack refuses is not sent again', async () => {
    const before = h.slack.callsOf('chat.postMessage').length;
    h.slack.closedChannels.add('C0ONCE0003');
    try {
      expect(await postAnnouncement(h.app.deps, 'en', 'C0ONCE0003', announcement)).toBeUndefined();
    } finally {
      h.slack.closedChannels.delete('C0ONCE0003');
    }
    expect(h.slack.callsOf('chat.postMessage').length).toBe(before + 1);
  });

  test('the thread root of a followed request (Notify this channel): one root', async () => {
    const channel = 'C0ONCE0004';
    const main = h.sandbox.companies.main;
    const accountId = await createAccount(h, main.masterAppId);
    const request = await openLimitRequest(h, { appId: main.mainAppId, accountId, limits: { pixDayLimit: 700000, pixNightLimit: 100000 } });
    h.slack.loseAnswers('chat.postMessage');
    await blockAction(h, {
      userId: OPERATOR,
      actionId: 'limit_watch',
      value: request.id,
      channelId: channel,
      responseId: 'once-watch',
      blockId: 'limit_status_actions',
    });
    const answer = await waitFor('the answer', () => h.slack.responsesTo('once-watch')[0], 10_000);
    expect(messageText(answer.body)).toContain(`is posted in <#${channel}>`);
    expect(rootsIn(h.slack, channel)).toHaveLength(1);
    expect((await h.app.deps.store.trackedRequests.get(request.id))?.rootTs).toBe(rootsIn(h.slack, channel)[0]!.ts);
  });

  test('a followed request whose root is in doubt (answer lost, the channel unreadable): it stays followed, and its decision still comes', async () => {
    const channel = 'C0ONCE0006';
    const main = h.sandbox.companies.main;
    const accountId = await createAccount(h, main.masterAppId);
    const request = await openLimitRequest(h, { appId: main.mainAppId, accountId, limits: { pixDayLimit: 700000, pixNightLimit: 100000 } });
    h.slack.loseAnswers('chat.postMessage');
    h.slack.on('conversations.history', () => ({ ok: false, error: 'internal_error' }));
    try {
      await blockAction(h, {
        userId: OPERATOR,
        actionId: 'limit_watch',
        value: request.id,
        channelId: channel,
        responseId: 'once-watch-doubt',
        blockId: 'limit_status_actions',
      });
      await waitFor('the answer', () => h.slack.responsesTo('once-watch-doubt')[0], 10_000);
    } finally {
      h.slack.off('conversations.history');
    }
    expect(rootsIn(h.slack, channel)).toHaveLength(1);
    expect(await h.app.deps.store.trackedRequests.get(request.id)).toMatchObject({ closed: false });
    await approve(h.sandbox, request.id);
    await h.app.poller.tick();
    const decided = await h.app.deps.store.trackedRequests.get(request.id);
    expect(decided).toMatchObject({ closed: true, rootTs: rootsIn(h.slack, channel)[0]!.ts });
  });

  test('a decision sent to the requester’s DM: one message', async () => {
    const r = await fileTrackedRequest(h, { channel: 'C0ONCE0005' });
    await h.app.deps.slack.retried.chat.delete({ channel: r.channel, ts: r.rootTs });
    await approve(h.sandbox, r.id);
    h.slack.loseAnswers('chat.postMessage');
    const report = await h.app.poller.tick();
    expect(report.failed).toBe(0);
    const dm = `D${REQUESTER.replace(/^U/, '')}`;
    const decisions = h.slack.messages.filter((m) => m.channel === dm && m.metadata?.event_payload.limit_request_id === r.id);
    expect(decisions).toHaveLength(1);
    expect(await h.app.deps.store.trackedRequests.get(r.id)).toMatchObject({ closed: true, reply: { ts: decisions[0]!.ts } });
  });
});
