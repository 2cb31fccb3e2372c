import { type Harness, messageText, startHarness } from '../support/harness';
import { addProof, modalTexts, openLimitForm, submitLimitForm } from '../support/limit-form';
import { approve, decisionReplies, type FiledRequest, fileTrackedRequest, readsOf, threadPosts } from '../support/limit-requests';
import { OwnRedis } from '../support/redis-server';
import { waitFor } from '../support/wait';

const VIEWER = 'U0VIEWER9';
const OPERATOR = 'U0OPERAT9';

/**
 * The app on a Redis of the test's own (with persistence, so a restart keeps the data), which the
 * test stops, restarts and freezes. The app must keep answering Slack, say plainly when an action
 * needed the store, and deliver every decision once Redis is back.
 */
describe('Redis outages (a redis-server of our own)', () => {
  let redis: OwnRedis;
  let h: Harness;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    h = await startHarness({
      STORE_URL: redis.url,
      STORE_SECRET: 'o'.repeat(40),
      STORE_NAMESPACE: 'outage-test',
      POLL_SCHEDULE: '* * * * * *',
      ACCESS_VIEWERS: VIEWER,
      ACCESS_OPERATORS: OPERATOR,
    });
  });
  afterAll(async () => {
    redis.unpause();
    await h.close();
    await redis.close();
  });

  const healthz = async () => {
    const res = await fetch(`http://127.0.0.1:${h.app.port}/healthz`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  /**
   * `/pix limit status <id>` (it reads the store): the answer. A store that does not answer would
   * leave it unanswered (the 8 s are a hang guard only): that the answer says the storage is
   * unavailable is what shows the time limit did its work.
   */
  const status = async (r: FiledRequest) => {
    const cmd = await h.slash(VIEWER, `limit status ${r.id}`);
    expect(cmd.status).toBe(200);
    const answer = await waitFor('the answer to /pix limit status', () => h.slack.responsesTo(cmd.responseId)[0], 8_000);
    return { text: messageText(answer.body) };
  };

  const delivered = async (r: FiledRequest) => {
    await waitFor('the decision in the thread', () => decisionReplies(h.slack.messages, r).length > 0, 15_000);
    await waitFor(
      'the request closed',
      async () => (await h.app.deps.store.trackedRequests.get(r.id).catch(() => undefined))?.closed,
      5_000,
    );
  };

  test('Redis restarted: clear answers while it is down, no hang; the decision made meanwhile is delivered once it is back', async () => {
    const r = await fileTrackedRequest(h);
    await waitFor('the poller reading the request', () => readsOf(h.sandbox, r.id) > 0, 5_000);
    expect((await healthz()).status).toBe(200);

    await redis.stop();
    const down = await status(r);
    expect(down.text).toContain('storage is unavailable');
    expect(down.text).toContain('nothing was done');

    // What does not need the store still works.
    const help = await h.slash(VIEWER, 'help');
    expect(messageText(help.ack)).toContain('/pix limit status');
    // (The store's answer is cached for a second.)
    const unhealthy = await waitFor(
      'healthz to say the store is down',
      async () => {
        const res = await healthz();
        return res.status === 503 ? res : undefined;
      },
      3_000,
    );
    expect(unhealthy.body).toEqual({ ok: false, store: 'down', pixApi: 'ok', mode: 'http', sandbox: false });

    await approve(h.sandbox, r.id);
    // A tick after the decision (it waits for any scheduled one under way) cannot list the open
    // requests: nothing is delivered while the store is down.
    await expect(h.app.poller.tick()).rejects.toThrow();
    expect(threadPosts(h.slack.calls, r)).toHaveLength(0);

    await redis.resume();
    await delivered(r);
    expect(threadPosts(h.slack.calls, r)).toHaveLength(1);
    expect(decisionReplies(h.slack.messages, r)).toHaveLength(1);
    expect(messageText(h.slack.messages.find((m) => m.ts === r.rootTs))).toContain('Approved');
    await waitFor('healthz back to 200', async () => (await healthz()).status === 200, 3_000);
    expect((await status(r)).text).not.toContain('storage is unavailable');

    expect(h.logs.some((l) => l.includes('the store is unavailable'))).toBe(true);
    expect(h.logs.some((l) => l.includes('the store is back'))).toBe(true);
  });

  test('a limit request submitted while Redis is down: the person is told it could not be recorded, and not even a proof reaches the Pix API', async () => {
    const account = h.sandbox.companies.main.defaultAccountId;
    const form = await openLimitForm(h, { userId: OPERATOR, accountId: account, channelId: 'C0OUTAGE1' });
    await redis.stop();
    try {
      const since = h.sandbox.calls.length;
      const slackSince = h.slack.calls.length;
      const submitted = await submitLimitForm(h, form, { userId: OPERATOR, dayLimit: '7000', files: [addProof(h.slack)] });
      expect(submitted.status).toBe(200);
      const told = await waitFor('the outcome in the modal', () =>
        modalTexts(h.slack, form.viewId, slackSince).find((t) => t.includes('storage is unavailable')),
      );
      expect(told).toContain('nothing was done');
      const writes = h.sandbox.calls.slice(since).filter((c) => c.method !== 'GET');
      expect(writes).toEqual([]);
    } finally {
      await redis.resume();
      await waitFor('the store back', () => h.app.deps.store.ping(), 10_000);
    }
  });

  test('Redis frozen (SIGSTOP): the answer comes within the time limit instead of hanging; all caught up after', async () => {
    const r = await fileTrackedRequest(h);
    await waitFor('the poller reading the request', () => readsOf(h.sandbox, r.id) > 0, 5_000);

    redis.pause();
    try {
      const hung = await status(r);
      expect(hung.text).toContain('storage is unavailable');
      await approve(h.sandbox, r.id);
    } finally {
      redis.unpause();
    }
    await delivered(r);
    expect(threadPosts(h.slack.calls, r)).toHaveLength(1);
    expect(decisionReplies(h.slack.messages, r)).toHaveLength(1);
  });
});
