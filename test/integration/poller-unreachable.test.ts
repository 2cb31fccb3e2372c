import { control } from '../sandbox/helpers';
import { type Harness, messageText, startHarness } from '../support/harness';
import {
  approve,
  decisionReplies,
  type FiledRequest,
  fileTrackedRequest,
  REQUESTER,
  readsOf,
  reject,
  threadPosts,
  trackWithRoot,
} from '../support/limit-requests';

/** The requester's DM with the bot, as the fake Slack's conversations.open names it. */
const REQUESTER_DM = `D${REQUESTER.replace(/^U/, '')}`;

/**
 * decisions whose thread cannot be reached go to the requester's DM and the request
 * is closed (instead of being retried on every tick forever); a request whose reads keep answering
 * 404 or 403 is closed with a message to its requester; only this bot's messages count in a thread.
 */
describe('poller: decisions that cannot reach their thread', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ POLL_CONCURRENCY: '4' });
  });
  afterAll(() => h.close());
  afterEach(async () => {
    h.slack.closedChannels.clear();
    h.slack.archivedChannels.clear();
    await control(h.sandbox, 'DELETE', '/faults');
  });

  const tracked = (r: FiledRequest) => h.app.deps.store.trackedRequests.get(r.id);
  const dmsAbout = (r: FiledRequest, type = 'pix_limit_decision') =>
    h.slack.messages.filter(
      (m) => m.channel === REQUESTER_DM && m.metadata?.event_type === type && m.metadata.event_payload.limit_request_id === r.id,
    );

  /** One tick delivers to the DM and closes; the next one does nothing more for it. */
  const expectDeliveredByDm = async (r: FiledRequest, status: 'APPROVED' | 'REJECTED') => {
    const report = await h.app.poller.tick();
    expect(report.failed).toBe(0);
    const dms = dmsAbout(r);
    expect(dms).toHaveLength(1);
    expect(dms[0]!.metadata?.event_payload.status).toBe(status);
    expect(messageText(dms[0])).toContain(`<@${REQUESTER}>`);
    expect(messageText(dms[0])).toContain('Its thread could not be reached');
    expect(await tracked(r)).toMatchObject({ closed: true, reply: { ts: dms[0]!.ts, channel: REQUESTER_DM, status } });
    const reads = readsOf(h.sandbox, r.id);
    await h.app.poller.tick();
    expect(readsOf(h.sandbox, r.id)).toBe(reads);
    expect(dmsAbout(r)).toHaveLength(1);
  };

  test('the root deleted (thread_not_found): the decision goes to the requester’s DM and the request is closed', async () => {
    const r = await fileTrackedRequest(h, { channel: 'C0DELETED1' });
    await h.app.deps.slack.retried.chat.delete({ channel: r.channel, ts: r.rootTs });
    await approve(h.sandbox, r.id);
    await expectDeliveredByDm(r, 'APPROVED');
  });

  test('the bot removed from the channel (not_in_channel): to the DM, closed', async () => {
    const r = await fileTrackedRequest(h, { channel: 'C0REMOVED1' });
    h.slack.closedChannels.add(r.channel);
    await reject(h.sandbox, r.id);
    await expectDeliveredByDm(r, 'REJECTED');
  });

  test('the channel archived (is_archived: readable, but nothing can be posted): to the DM, closed', async () => {
    const r = await fileTrackedRequest(h, { channel: 'C0ARCHIVE1' });
    h.slack.archivedChannels.add(r.channel);
    await approve(h.sandbox, r.id);
    await expectDeliveredByDm(r, 'APPROVED');
    expect(threadPosts(h.slack.calls, r).filter((c) => c.response && (c.response as { ok: boolean }).ok)).toHaveLength(0);
  });

  test('the thread reply look-up trusts only this bot’s messages: another app’s message with the same metadata is not the reply', async () => {
    const r = await fileTrackedRequest(h, { channel: 'C0FOREIGN1' });
    h.slack.addMessage({
      channel: r.channel,
      thread_ts: r.rootTs,
      text: 'Limit request was approved',
      metadata: { event_type: 'pix_limit_decision', event_payload: { limit_request_id: r.id, status: 'APPROVED' } },
      bot_id: 'B0OTHERAPP',
      user: 'U0OTHERBOT',
    });
    await approve(h.sandbox, r.id);
    await h.app.poller.tick();
    expect(threadPosts(h.slack.calls, r)).toHaveLength(1);
    const ours = decisionReplies(h.slack.messages, r).filter((m) => m.bot_id === 'B0BOT');
    expect(ours).toHaveLength(1);
    expect(await tracked(r)).toMatchObject({ closed: true, reply: { ts: ours[0]!.ts } });
  });

  describe('a request whose reads keep answering 404 or 403', () => {
    const GONE_ID = '0123456789abcdef01234567';
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const draft = (id: string, channel: string) => ({
      limitRequestId: id,
      accountId: 'fedcba9876543210fedcba98',
      requesterId: REQUESTER,
      channel,
      requested: { pixDayLimit: 700_000 },
      documents: [],
      source: 'watched' as const,
    });

    test('is given up after 5 such reads in a row over at least 15 minutes: closed, its requester told in the thread, once', async () => {
      const { rootTs } = await trackWithRoot(h.app, draft(GONE_ID, 'C0GONE0001'));
      const r = { id: GONE_ID, channel: 'C0GONE0001', rootTs } as FiledRequest;
      const first = await h.app.poller.tick();
      expect(first.failed).toBeGreaterThanOrEqual(1);
      expect(await tracked(r)).toMatchObject({ closed: false, unreadable: { count: 1, status: 404 } });

      // Three more ticks later, 20 minutes on (the record as those ticks would have left it).
      await h.app.deps.store.trackedRequests.track({
        ...draft(GONE_ID, r.channel),
        rootTs,
        unreadable: { count: 4, since: ago(20), status: 404 },
      });
      const report = await h.app.poller.tick();
      expect(report.unfollowed).toBe(1);
      expect(await tracked(r)).toMatchObject({ closed: true });
      const notices = h.slack.thread(r.channel, rootTs).filter((m) => m.metadata?.event_type === 'pix_limit_unfollowed');
      expect(notices).toHaveLength(1);
      expect(messageText(notices[0])).toContain(`<@${REQUESTER}> I stopped following the limit request \`${GONE_ID}\``);
      expect(messageText(notices[0])).toContain('answered 404 (not found) to its last 5 reads, over 20 minutes');
      const root = h.slack.messages.find((m) => m.channel === r.channel && m.ts === rootTs)!;
      expect(messageText(root)).toContain('No longer followed');

      const reads = readsOf(h.sandbox, GONE_ID);
      await h.app.poller.tick();
      expect(readsOf(h.sandbox, GONE_ID)).toBe(reads);
    });

    test('not before 15 minutes, however many ticks (a fast schedule does not give up within seconds)', async () => {
      const id = '0123456789abcdef01234568';
      const { rootTs } = await trackWithRoot(h.app, draft(id, 'C0GONE0002'));
      await h.app.deps.store.trackedRequests.track({
        ...draft(id, 'C0GONE0002'),
        rootTs,
        unreadable: { count: 9, since: ago(5), status: 404 },
      });
      await h.app.poller.tick();
      expect(await h.app.deps.store.trackedRequests.get(id)).toMatchObject({ closed: false, unreadable: { count: 10 } });
    });

    test('a read that answers again starts the count over', async () => {
      const r = await fileTrackedRequest(h, { channel: 'C0GONE0003' });
      await control(h.sandbox, 'POST', '/faults', { fail: { status: 403, count: 1, pathPrefix: `/api/v1/limits/request/${r.id}` } });
      await h.app.poller.tick();
      expect(await tracked(r)).toMatchObject({ unreadable: { count: 1, status: 403 } });
      await h.app.poller.tick();
      expect((await tracked(r))?.unreadable).toBeUndefined();
    });

    test('with its thread unreachable too, the requester is told in their DM', async () => {
      const id = '0123456789abcdef01234569';
      const { rootTs } = await trackWithRoot(h.app, draft(id, 'C0GONE0004'));
      await h.app.deps.store.trackedRequests.track({
        ...draft(id, 'C0GONE0004'),
        rootTs,
        unreadable: { count: 4, since: ago(30), status: 403 },
      });
      h.slack.closedChannels.add('C0GONE0004');
      await control(h.sandbox, 'POST', '/faults', { fail: { status: 403, count: 1, pathPrefix: `/api/v1/limits/request/${id}` } });
      await h.app.poller.tick();
      const notices = dmsAbout({ id } as FiledRequest, 'pix_limit_unfollowed');
      expect(notices).toHaveLength(1);
      expect(messageText(notices[0])).toContain('answered 403 (forbidden)');
      // The API's own text, as every Pix error is shown.
      expect(messageText(notices[0])).toContain('The Pix service said: “Sandbox fault”');
      expect(await h.app.deps.store.trackedRequests.get(id)).toMatchObject({ closed: true });
    });
  });
});
