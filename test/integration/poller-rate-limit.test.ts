import type { SlackApiCall } from '../../src/slack-standin/web-api';
import { type Harness, messageText, startHarness } from '../support/harness';
import { approve, decisionReplies, type FiledRequest, fileTrackedRequest, reject, threadPosts } from '../support/limit-requests';
import { waitFor } from '../support/wait';

const OPERATOR = 'U0OPERATE1';
const BUSY = 'C0BUSY0001';
const QUIET = ['C0QUIET001', 'C0QUIET002', 'C0QUIET003'];
const BUSY_COUNT = 10;
const QUIET_COUNT = 2;

/**
 * Slack's rate limits on the poller (https://docs.slack.dev/apis/web-api/rate-limits): many decisions
 * land in one channel at once, a few in others, with the fake Slack limiting every method of a
 * delivery per channel and answering 429 with Retry-After past it.
 */
describe('poller under Slack rate limits', () => {
  let h: Harness;

  beforeAll(async () => {
    // A Pix budget that does not pace the sweep's reads: Slack's limits are what the deliveries meet.
    h = await startHarness({ POLL_CONCURRENCY: '4', PIX_RATE_LIMIT: '20', ACCESS_OPERATORS: OPERATOR });
  });
  afterAll(() => h.close());

  test('a burst of decisions in one channel: every reply once, paced, every Retry-After honoured; other channels and acks not held up', async () => {
    const busy: FiledRequest[] = [];
    for (let i = 0; i < BUSY_COUNT; i++) busy.push(await fileTrackedRequest(h, { channel: BUSY }));
    const quiet: FiledRequest[] = [];
    for (const channel of QUIET) for (let i = 0; i < QUIET_COUNT; i++) quiet.push(await fileTrackedRequest(h, { channel }));
    const all = [...busy, ...quiet];
    for (const [i, r] of all.entries()) await (i % 3 === 2 ? reject(h.sandbox, r.id) : approve(h.sandbox, r.id));

    // Slack's own limit on posting (one a second per channel, a short burst), and stricter ones on the
    // delivery's other calls, so that refusals do happen and must be sat out.
    h.slack.rateLimit
      .limit('chat.postMessage', { perSecond: 1, burst: 3 })
      .limit('conversations.replies', { perSecond: 1, burst: 1 })
      .limit('chat.update', { perSecond: 1, burst: 1 });
    const since = h.slack.calls.length;
    const started = Date.now();
    const ticking = h.app.poller.tick();

    // While the busy channel is being paced: a command that opens a modal is acknowledged and its
    // views.open goes out at once (the app's own client is never paused by the poller's 429s): at
    // most one of the busy channel's paced replies (one a second) goes out between the two.
    await waitFor('the busy channel under way', () => repliesIn(BUSY).length >= 4, 10_000);
    const sentAt = h.slack.calls.length;
    const res = await h.slash(OPERATOR, 'limit request', { channelId: BUSY });
    expect(res.status).toBe(200);
    const opened = await waitFor('the modal', () => h.slack.calls.slice(sentAt).find((c) => c.method === 'views.open'));
    const between = h.slack.calls.slice(sentAt, h.slack.calls.indexOf(opened));
    expect(
      between.filter((c) => c.method === 'chat.postMessage' && c.args.channel === BUSY && c.args.thread_ts && ok(c)).length,
    ).toBeLessThanOrEqual(1);
    expect(repliesIn(BUSY).length).toBeLessThan(BUSY_COUNT); // still delivering meanwhile

    const report = await ticking;
    expect(report).toMatchObject({ decided: all.length, failed: 0 });

    // Every reply arrived, once; every root updated.
    for (const r of all) {
      expect(decisionReplies(h.slack.messages, r)).toHaveLength(1);
      const accepted = threadPosts(h.slack.calls.slice(since), r).filter(ok);
      expect(accepted).toHaveLength(1);
      expect(messageText(h.slack.messages.find((m) => m.ts === r.rootTs))).toMatch(/Approved|Rejected/);
      expect((await h.app.deps.store.trackedRequests.get(r.id))?.closed).toBe(true);
    }

    // Refusals happened (two deliveries of a channel read their threads at once), and none was
    // ignored: no call on a refused method and channel before its Retry-After had passed.
    const limiter = h.slack.rateLimit;
    expect(limiter.refusalsOf('conversations.replies').length).toBeGreaterThanOrEqual(QUIET.length + 1);
    expect(limiter.ignored).toEqual([]);
    expect(limiter.refusals.length).toBeGreaterThan(0);
    for (const refusal of limiter.refusals) {
      // Every refused call was made again (everything was delivered), after its Retry-After.
      const next = h.slack.calls.find((c) => c.method === refusal.method && c.args.channel === refusal.channel && c.at > refusal.at);
      expect(next).toBeDefined();
      expect(next!.at - refusal.at).toBeGreaterThanOrEqual(refusal.retryAfterS * 1_000);
    }
    // Posting was paced to Slack's rate, not found out by refusals (unpaced, the busy channel's posts
    // would go out as fast as its deliveries, and past the burst draw a refusal nearly each); a
    // refusal or two from timing jitter is tolerated.
    expect(limiter.refusalsOf('chat.postMessage').length).toBeLessThanOrEqual(2);
    const busyPosts = repliesIn(BUSY).map((c) => c.at);
    expect(busyPosts.at(-1)! - started).toBeGreaterThanOrEqual((BUSY_COUNT - 3) * 1_000);

    // The other channels were not held up by the busy one: done while it still had most to post.
    const lastQuiet = Math.max(...QUIET.flatMap((channel) => repliesIn(channel).map((c) => c.at)));
    expect(lastQuiet).toBeLessThan(busyPosts[5]!);
  }, 60_000);

  afterEach(() => h.slack.rateLimit.clear());

  /** Accepted decision replies posted in a channel, in order. */
  function repliesIn(channel: string): SlackApiCall[] {
    return h.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === channel && c.args.thread_ts && ok(c));
  }
});

function ok(call: SlackApiCall): boolean {
  return (call.response as { ok?: boolean } | undefined)?.ok === true;
}
