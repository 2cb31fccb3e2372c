import { formatCents } from '../../src/domain/money';
import { control } from '../sandbox/helpers';
import { BOT_TOKEN, type Harness, messageText, startHarness } from '../support/harness';
import {
  approve,
  decisionReplies,
  type FiledRequest,
  fileTrackedRequest,
  REQUESTER,
  readsOf,
  reject,
  threadPosts,
} from '../support/limit-requests';
import { waitFor } from '../support/wait';

/**
 * The poller through the real app, the fake Slack and the sandbox Pix API. The schedule is once a year,
 * so every tick here is an on-demand `poller.tick()` (the scheduled path is in poller-schedule.test.ts).
 */
describe('poller: decisions in the thread, exactly once', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ POLL_SCHEDULE: '0 0 1 1 *', POLL_CONCURRENCY: '4' });
  });
  afterAll(() => h.close());
  afterEach(async () => {
    for (const method of ['chat.postMessage', 'chat.update', 'conversations.replies']) h.slack.off(method);
    await control(h.sandbox, 'DELETE', '/faults');
  });

  const tracked = (r: FiledRequest) => h.app.deps.store.trackedRequests.get(r.id);
  const root = (r: FiledRequest) => h.slack.messages.find((m) => m.channel === r.channel && m.ts === r.rootTs)!;
  const updatesOf = (r: FiledRequest, since = 0) =>
    h.slack.calls.slice(since).filter((c) => c.method === 'chat.update' && c.args.channel === r.channel && c.args.ts === r.rootTs);

  test('in review: read, nothing posted; approved: one reply with its metadata, the root says Approved, no more reads', async () => {
    const r = await fileTrackedRequest(h);

    const first = await h.app.poller.tick();
    expect(readsOf(h.sandbox, r.id)).toBe(1);
    expect(first.pending).toBeGreaterThanOrEqual(1);
    expect(threadPosts(h.slack.calls, r)).toHaveLength(0);
    expect(await h.app.deps.store.trackedRequests.openIds()).toContain(r.id);

    await approve(h.sandbox, r.id);
    const report = await h.app.poller.tick();
    expect(report.decided).toBeGreaterThanOrEqual(1);

    const posts = threadPosts(h.slack.calls, r);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
    // On the wire: the metadata that lets a later tick recognize the reply.
    expect(posts[0]!.args.metadata).toEqual({
      event_type: 'pix_limit_decision',
      event_payload: { limit_request_id: r.id, status: 'APPROVED' },
    });
    const replies = decisionReplies(h.slack.messages, r);
    expect(replies).toHaveLength(1);
    const text = messageText(replies[0]);
    expect(text).toContain(`<@${REQUESTER}>`);
    expect(text).toContain('approved');
    expect(text).not.toContain('below');
    for (const field of ['pixDayLimit', 'pixNightLimit'] as const) {
      const [now, asked] = [r.current[field]!, r.requested[field]!];
      expect(text).toContain(`${formatCents(now, 'en')} → *${formatCents(asked, 'en')}*  → granted *${formatCents(asked, 'en')}*`);
    }
    // Looked in the thread before posting.
    const lookups = h.slack.callsOf('conversations.replies').filter((c) => c.args.ts === r.rootTs);
    expect(lookups.length).toBeGreaterThanOrEqual(1);
    expect(lookups[0]!.at).toBeLessThanOrEqual(posts[0]!.at);
    expect(String(lookups[0]!.args.include_all_metadata)).toBe('true');

    expect(updatesOf(r)).toHaveLength(1);
    expect(messageText(root(r))).toContain('Approved');
    expect(messageText(root(r))).not.toContain('In review');

    const record = await tracked(r);
    expect(record).toMatchObject({ closed: true, reply: { ts: replies[0]!.ts, status: 'APPROVED', approved: r.requested } });
    expect(await h.app.deps.store.trackedRequests.openIds()).not.toContain(r.id);

    const readsBefore = h.sandbox.calls.length;
    const callsBefore = h.slack.calls.length;
    await h.app.poller.tick();
    await h.app.poller.tick();
    expect(readsOf(h.sandbox, r.id, readsBefore)).toBe(0);
    expect(threadPosts(h.slack.calls.slice(callsBefore), r)).toHaveLength(0);
    expect(updatesOf(r, callsBefore)).toHaveLength(0);
  });

  test('approved below the ask: the lower limit is marked', async () => {
    const r = await fileTrackedRequest(h);
    const grantedDay = r.current.pixDayLimit! + 40_000; // R$ 400 more instead of R$ 1.000
    const grantedNight = r.requested.pixNightLimit!;
    await approve(h.sandbox, r.id, { pixDayLimit: grantedDay, pixNightLimit: grantedNight });
    await h.app.poller.tick();

    const [reply, ...more] = decisionReplies(h.slack.messages, r);
    expect(more).toHaveLength(0);
    const text = messageText(reply);
    expect(text).toContain('one limit below what was asked');
    expect(text).toContain(`→ granted *${formatCents(grantedDay, 'en')}* :warning: below the ask`);
    expect(text).toContain(`→ granted *${formatCents(grantedNight, 'en')}*`);
    expect(text.match(/:warning: below the ask/g)).toHaveLength(1);
    expect(messageText(root(r))).toContain(':warning: below the ask');
    expect((await tracked(r))?.reply?.approved).toEqual({ pixDayLimit: grantedDay, pixNightLimit: grantedNight });
  });

  test('rejected: one reply saying so, the root says Rejected, closed', async () => {
    const r = await fileTrackedRequest(h);
    await reject(h.sandbox, r.id);
    await h.app.poller.tick();

    const posts = threadPosts(h.slack.calls, r);
    expect(posts).toHaveLength(1);
    expect(posts[0]!.args.metadata).toEqual({
      event_type: 'pix_limit_decision',
      event_payload: { limit_request_id: r.id, status: 'REJECTED' },
    });
    const text = messageText(decisionReplies(h.slack.messages, r)[0]);
    expect(text).toContain(`<@${REQUESTER}>`);
    expect(text).toContain('*rejected*');
    expect(messageText(root(r))).toContain('Rejected');
    expect(await tracked(r)).toMatchObject({ closed: true, reply: { status: 'REJECTED' } });
    expect((await tracked(r))?.reply?.approved).toBeUndefined();
  });

  test('Slack refusing the first replies (429, then ok: false): the 429 made again after Retry-After, the failure on a later tick, still exactly one reply', async () => {
    const r = await fileTrackedRequest(h);
    let refused = 0;
    h.slack.on('chat.postMessage', () => {
      // Only this thread's reply is posted while the handler is on (the roots were posted before).
      refused++;
      if (refused === 1) return { httpStatus: 429, headers: { 'retry-after': '1' }, body: { ok: false, error: 'ratelimited' } };
      h.slack.off('chat.postMessage'); // Slack's normal answers from now on
      return { ok: false, error: 'internal_error' };
    });
    await approve(h.sandbox, r.id);

    const reports = [];
    for (let i = 0; i < 5 && !(await tracked(r))?.closed; i++) reports.push(await h.app.poller.tick());
    expect((await tracked(r))?.closed).toBe(true);
    // The 429 (a call Slack did not perform) was made again in the same tick once its Retry-After had
    // passed; the ok: false that answered it failed that tick, and the next one delivered.
    expect(reports.map((t) => t.failed)).toEqual([1, 0]);

    const posts = threadPosts(h.slack.calls, r);
    expect(posts).toHaveLength(3); // two refused, one accepted
    expect(posts[1]!.at - posts[0]!.at).toBeGreaterThanOrEqual(1_000);
    expect(decisionReplies(h.slack.messages, r)).toHaveLength(1);
    expect(updatesOf(r)).toHaveLength(1);
    // Every attempt looked in the thread first.
    const lookups = h.slack.callsOf('conversations.replies').filter((c) => c.args.ts === r.rootTs);
    expect(lookups.length).toBeGreaterThanOrEqual(reports.filter((t) => t.failed > 0).length);
  });

  test('a Pix API outage on one request does not hold up another decided in the same tick', async () => {
    const down = await fileTrackedRequest(h);
    const up = await fileTrackedRequest(h);
    await approve(h.sandbox, down.id);
    await reject(h.sandbox, up.id);
    // Every read of `down` fails in this tick (the client tries a read three times).
    await control(h.sandbox, 'POST', '/faults', {
      fail: { status: 503, count: 3, method: 'GET', pathPrefix: `/api/v1/limits/request/${down.id}` },
    });

    const before = h.sandbox.calls.length;
    const report = await h.app.poller.tick();
    expect(report.failed).toBe(1);
    expect(report.decided).toBeGreaterThanOrEqual(1);
    expect(readsOf(h.sandbox, down.id, before)).toBe(3);
    expect(decisionReplies(h.slack.messages, up)).toHaveLength(1);
    expect((await tracked(up))?.closed).toBe(true);
    expect(decisionReplies(h.slack.messages, down)).toHaveLength(0);
    expect((await tracked(down))?.closed).toBe(false);
    expect(messageText(root(down))).toContain('In review');

    // The service is back: the next tick delivers it.
    const next = await h.app.poller.tick();
    expect(next.failed).toBe(0);
    expect(decisionReplies(h.slack.messages, down)).toHaveLength(1);
    expect(messageText(root(down))).toContain('Approved');
    expect((await tracked(down))?.closed).toBe(true);
  });

  test('a crash after Slack took the reply but before it was recorded: no second reply, root updated, closed', async () => {
    const r = await fileTrackedRequest(h);
    // What the thread looks like when the process died right after chat.postMessage succeeded.
    const earlier = await h.app.deps.slack.retried.chat.postMessage({
      channel: r.channel,
      thread_ts: r.rootTs,
      text: 'Limit request was approved',
      metadata: { event_type: 'pix_limit_decision', event_payload: { limit_request_id: r.id, status: 'APPROVED' } },
    });
    // …and a decision reply of another request in the same thread is not mistaken for it.
    await h.app.deps.slack.retried.chat.postMessage({
      channel: r.channel,
      thread_ts: r.rootTs,
      text: 'unrelated',
      metadata: { event_type: 'pix_limit_decision', event_payload: { limit_request_id: 'ffffffffffffffffffffffff', status: 'REJECTED' } },
    });
    await approve(h.sandbox, r.id);
    const callsBefore = h.slack.calls.length;
    const report = await h.app.poller.tick();
    expect(report.failed).toBe(0);

    expect(threadPosts(h.slack.calls.slice(callsBefore), r)).toHaveLength(0);
    expect(updatesOf(r, callsBefore)).toHaveLength(1);
    expect(messageText(root(r))).toContain('Approved');
    expect(await tracked(r)).toMatchObject({ closed: true, reply: { ts: earlier.ts, status: 'APPROVED', approved: r.requested } });
  });

  test('the reply posted but the root update failed: the next tick only updates the root (no read, no second reply)', async () => {
    const r = await fileTrackedRequest(h);
    h.slack.on('chat.update', () => ({ ok: false, error: 'internal_error' }));
    await reject(h.sandbox, r.id);
    const first = await h.app.poller.tick();
    expect(first.failed).toBe(1);
    expect(decisionReplies(h.slack.messages, r)).toHaveLength(1);
    expect(await tracked(r)).toMatchObject({ closed: false, reply: { status: 'REJECTED' } });
    expect(messageText(root(r))).toContain('In review');

    h.slack.off('chat.update');
    const before = h.sandbox.calls.length;
    const callsBefore = h.slack.calls.length;
    await h.app.poller.tick();
    expect(readsOf(h.sandbox, r.id, before)).toBe(0);
    expect(threadPosts(h.slack.calls.slice(callsBefore), r)).toHaveLength(0);
    expect(h.slack.calls.slice(callsBefore).filter((c) => c.method === 'conversations.replies' && c.args.ts === r.rootTs)).toHaveLength(0);
    expect(updatesOf(r, callsBefore)).toHaveLength(1);
    expect(messageText(root(r))).toContain('Rejected');
    expect((await tracked(r))?.closed).toBe(true);
    expect(decisionReplies(h.slack.messages, r)).toHaveLength(1);
  });

  test('a root that no longer exists: the reply is posted and the request closed, not retried forever', async () => {
    const r = await fileTrackedRequest(h);
    h.slack.on('chat.update', () => ({ ok: false, error: 'message_not_found' }));
    await approve(h.sandbox, r.id);
    const report = await h.app.poller.tick();
    expect(report.failed).toBe(0);
    expect(decisionReplies(h.slack.messages, r)).toHaveLength(1);
    expect((await tracked(r))?.closed).toBe(true);
  });

  test('a thread that cannot be read: nothing is posted blind, the request stays open', async () => {
    const r = await fileTrackedRequest(h);
    h.slack.on('conversations.replies', () => ({ ok: false, error: 'internal_error' }));
    await approve(h.sandbox, r.id);
    const report = await h.app.poller.tick();
    expect(report.failed).toBe(1);
    expect(threadPosts(h.slack.calls, r)).toHaveLength(0);
    expect((await tracked(r))?.closed).toBe(false);

    h.slack.off('conversations.replies');
    await h.app.poller.tick();
    expect(decisionReplies(h.slack.messages, r)).toHaveLength(1);
    expect((await tracked(r))?.closed).toBe(true);
  });

  test('stop() waits for the tick in progress', async () => {
    const r = await fileTrackedRequest(h);
    await approve(h.sandbox, r.id);
    await control(h.sandbox, 'POST', '/faults', { latencyMs: 300 });
    let settled = false;
    const ticking = h.app.poller.tick().then((report) => {
      settled = true;
      return report;
    });
    // Stop while the request's read is on the wire (the sandbox logs a call before its latency).
    await waitFor('the read in progress', () => readsOf(h.sandbox, r.id) > 0);
    await h.app.poller.stop();
    expect(settled).toBe(true);
    expect((await ticking).decided).toBeGreaterThanOrEqual(1);
    expect(decisionReplies(h.slack.messages, r)).toHaveLength(1);
    await expect(h.app.poller.tick()).rejects.toThrow(/stopped/);
  });
});
