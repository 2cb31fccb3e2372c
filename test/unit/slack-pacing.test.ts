import type { WebClient } from '@slack/web-api';
import { PacedWebClient, type PaceRule, SlackPaceError, SlackPacer } from '../../src/slack/pacing';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { waitFor } from '../support/wait';

/**
 * The poller's paced client against the fake Slack's rate limiter (429 with Retry-After, as Slack
 * answers: https://docs.slack.dev/apis/web-api/rate-limits).
 */
describe('PacedWebClient', () => {
  let slack: SlackStandIn;
  beforeAll(async () => {
    slack = await new SlackStandIn().start();
  });
  afterAll(() => slack.close());
  afterEach(() => slack.rateLimit.clear());

  const client = (options: { maxWaitMs: number; rules?: Record<string, PaceRule> }) =>
    new PacedWebClient(
      slack.botToken,
      { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true },
      new SlackPacer({ rules: {}, ...options }),
    );
  const post = (c: WebClient, channel: string) => c.chat.postMessage({ channel, text: 'hello' });
  const callsIn = (channel: string, since: number) =>
    slack.calls.slice(since).filter((c) => c.method === 'chat.postMessage' && c.args.channel === channel);

  test('a 429 is made again once its Retry-After has passed, in its channel only; another channel goes on meanwhile', async () => {
    slack.rateLimit.limit('chat.postMessage', { perSecond: 1, burst: 1, retryAfterS: 2 });
    const c = client({ maxWaitMs: 5_000 });
    const since = slack.calls.length;
    await post(c, 'C0A');
    const sittingOut = post(c, 'C0A');
    // Once C0A is refused, a post in C0B goes out while C0A sits out its Retry-After.
    await waitFor('the refusal in C0A', () => slack.rateLimit.refusalsOf('chat.postMessage').length > 0);
    await post(c, 'C0B');
    const again = await sittingOut;
    expect(again.ok).toBe(true);

    const [first, refused, retried] = callsIn('C0A', since);
    expect(refused!.response).toMatchObject({ httpStatus: 429, headers: { 'retry-after': '2' } });
    expect(retried!.at - refused!.at).toBeGreaterThanOrEqual(2_000);
    expect(callsIn('C0A', since)).toHaveLength(3);
    expect(first!.response).toMatchObject({ ok: true });
    // C0B's post went out while C0A sat out its Retry-After: before C0A's retry (2 s after its refusal).
    const order = slack.calls.slice(since);
    expect(order.indexOf(callsIn('C0B', since)[0]!)).toBeLessThan(order.indexOf(retried!));
    expect(slack.rateLimit.ignored).toEqual([]);
  });

  test('a Retry-After longer than the budget fails the call without making it again, and holds back the next one', async () => {
    slack.rateLimit.limit('chat.postMessage', { perSecond: 1, burst: 1, retryAfterS: 30 });
    const c = client({ maxWaitMs: 1_000 });
    const since = slack.calls.length;
    await post(c, 'C0C');
    await expect(post(c, 'C0C')).rejects.toBeInstanceOf(SlackPaceError);
    // The key is still blocked: the next call fails at once, without reaching Slack.
    await expect(post(c, 'C0C')).rejects.toThrow(/would wait \d+ ms/);
    expect(callsIn('C0C', since)).toHaveLength(2);
    await expect(post(c, 'C0D')).resolves.toMatchObject({ ok: true });
    expect(slack.rateLimit.ignored).toEqual([]);
  });

  test('paced ahead: a burst, then one call every interval, none refused', async () => {
    slack.rateLimit.limit('chat.postMessage', { perSecond: 4, burst: 2 });
    // Under the limit, as SLACK_PACE is under Slack's: calls reach the server with jitter (here, the
    // stand-in shares this process's event loop, and a busy machine stalls it for tens of milliseconds).
    const c = client({ maxWaitMs: 5_000, rules: { 'chat.postMessage': { perSecond: 2, burst: 2 } } });
    const since = slack.calls.length;
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, () => post(c, 'C0E')));
    expect(slack.rateLimit.refusals).toEqual([]);
    const at = callsIn('C0E', since).map((call) => call.at - started);
    expect(at).toHaveLength(6);
    // Two at once, then four more half a second apart.
    expect(at[5]!).toBeGreaterThanOrEqual(1_990);
  });

  test('two senders on one pacer (withMaxWait) share the channel’s turns: together they keep its pace, none refused', async () => {
    slack.rateLimit.limit('chat.postMessage', { perSecond: 4, burst: 2 });
    const pacer = new SlackPacer({ maxWaitMs: 5_000, rules: { 'chat.postMessage': { perSecond: 2, burst: 2 } } });
    const options = { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true };
    const poller = new PacedWebClient(slack.botToken, options, pacer);
    const outbox = new PacedWebClient(slack.botToken, options, pacer.withMaxWait(5_000));
    const since = slack.calls.length;
    await Promise.all(Array.from({ length: 6 }, (_, i) => post(i % 2 ? poller : outbox, 'C0S')));
    expect(slack.rateLimit.refusals).toEqual([]);
    expect(callsIn('C0S', since)).toHaveLength(6);
  });

  test('a 429 on a method with no pace set teaches one: the refused calls made again, and the next, one per Retry-After, none refused again', async () => {
    slack.rateLimit.limit('chat.update', { perSecond: 1, burst: 1 });
    const c = client({ maxWaitMs: 5_000 });
    const since = slack.calls.length;
    let n = 0;
    const update = () => c.chat.update({ channel: 'C0G', ts: '1.0', text: `edit ${++n}` }).catch((err: unknown) => err);
    // Four at once: one goes through, the others are refused (nothing told the pacer yet), each made
    // again. On a busy machine one of the four may reach Slack a second late, after the pacer learned
    // the pace from the others, and make one of their retries early: refused, then made again too.
    await Promise.all([update(), update(), update(), update()]);
    // Sent once the pace is known and nothing else is in flight: never refused.
    await update();
    const updates = slack.calls.slice(since).filter((call) => call.method === 'chat.update');
    const refused = (call: (typeof updates)[number]) => (call.response as { httpStatus?: number }).httpStatus === 429;
    expect(updates.filter(refused).length).toBeGreaterThanOrEqual(1);
    expect(updates.filter((call) => call.args.text === 'edit 5').map(refused)).toEqual([false]);
    expect(slack.rateLimit.ignored).toEqual([]);
    const accepted = updates.filter((call) => !refused(call));
    expect(accepted.map((call) => call.args.text).sort()).toEqual(['edit 1', 'edit 2', 'edit 3', 'edit 4', 'edit 5']);
    for (let i = 2; i < accepted.length; i++) expect(accepted[i]!.at - accepted[i - 1]!.at).toBeGreaterThanOrEqual(1_000);
  });

  test('a method without a channel is held back on its own key, and a failure that is not a 429 is not repeated', async () => {
    slack.rateLimit.limit('views.publish', { perSecond: 1, burst: 1 });
    const c = client({ maxWaitMs: 3_000 });
    const since = slack.calls.length;
    await Promise.all([
      c.views.publish({ user_id: 'U1', view: { type: 'home', blocks: [] } }),
      c.views.publish({ user_id: 'U2', view: { type: 'home', blocks: [] } }),
    ]);
    const publishes = slack.calls.slice(since).filter((call) => call.method === 'views.publish');
    expect(publishes).toHaveLength(3);
    expect(publishes[2]!.at - publishes[1]!.at).toBeGreaterThanOrEqual(1_000);

    slack.on('chat.postMessage', () => ({ ok: false, error: 'internal_error' }));
    try {
      const before = slack.calls.length;
      await expect(post(c, 'C0F')).rejects.toMatchObject({ data: { error: 'internal_error' } });
      expect(slack.calls.length - before).toBe(1);
    } finally {
      slack.off('chat.postMessage');
    }
  });
});
