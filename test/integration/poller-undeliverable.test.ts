import { UNDELIVERABLE_MS, UNDELIVERABLE_TICKS } from '../../src/limit-requests/deliver';
import { type Harness, startHarness } from '../support/harness';
import { approve, fileTrackedRequest } from '../support/limit-requests';

/**
 * every retry bounded. A decision whose thread is gone and whose requester's DM
 * Slack refuses stops after a bound (ticks and time), recorded on the request, instead of costing a
 * Pix read and Slack calls on every tick for ever.
 */
describe('poller: a decision that can reach nobody', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    h.slack.on('conversations.open', () => ({ ok: false, error: 'user_disabled' }));
  });
  afterAll(() => h.close());

  test('retried on the next ticks while under the bound; past it, closed undelivered and left alone', async () => {
    const r = await fileTrackedRequest(h, { channel: 'C0GONEDM01' });
    h.slack.closedChannels.add(r.channel);
    await approve(h.sandbox, r.id);
    const requests = h.app.deps.store.trackedRequests;

    // Earlier ticks, as if this had gone on long enough: the bound's count, less two, over its time.
    const longAgo = new Date(Date.now() - UNDELIVERABLE_MS - 60_000);
    for (let i = 0; i < UNDELIVERABLE_TICKS - 2; i++) await requests.noteUndeliverable(r.id, 'user_disabled', longAgo);

    // Under the bound: the turn fails, the request stays open, the refusal counted.
    const first = await h.app.poller.tick();
    expect(first).toMatchObject({ failed: 1, decided: 0 });
    expect(await requests.get(r.id)).toMatchObject({
      closed: false,
      undeliverable: { count: UNDELIVERABLE_TICKS - 1, error: 'user_disabled' },
    });

    const opens = () => h.slack.calls.filter((c) => c.method === 'conversations.open').length;
    const before = opens();
    const last = await h.app.poller.tick();
    expect(last).toMatchObject({ failed: 0, decided: 1 });
    expect(opens()).toBe(before + 1);
    expect(await requests.get(r.id)).toMatchObject({ closed: true, undelivered: { status: 'APPROVED', error: 'user_disabled' } });
    expect((await requests.get(r.id))!.reply).toBeUndefined();
    expect(await requests.openIds()).not.toContain(r.id);

    // Nothing more for it: no read, no Slack call.
    const reads = h.sandbox.calls.length;
    await h.app.poller.tick();
    expect(opens()).toBe(before + 1);
    expect(h.sandbox.calls.length).toBe(reads);
  });
});
