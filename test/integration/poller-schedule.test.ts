import { rmSync } from 'node:fs';
import type { RunningApp } from '../../src/app';
import { type Harness, messageText, startHarness } from '../support/harness';
import { approve, decisionReplies, fileTrackedRequest, readsOf, reject, startAppLike, threadPosts } from '../support/limit-requests';
import { waitFor } from '../support/wait';

/** The poller on its schedule (every second): no tick is called by hand here. */

/** Closed and out of the poll set (close() writes the record first, then leaves the set). */
async function delivered(app: RunningApp, id: string): Promise<boolean> {
  const repo = app.deps.store.trackedRequests;
  return Boolean((await repo.get(id))?.closed) && !(await repo.openIds()).includes(id);
}

describe('poller on POLL_SCHEDULE, sandbox mode', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ POLL_SCHEDULE: '* * * * * *' }, { sandboxMode: true });
  });
  afterAll(() => h.close());

  test('a decision is delivered by the schedule, with the SANDBOX badge, and then no longer polled', async () => {
    const decided = await fileTrackedRequest(h);
    const waiting = await fileTrackedRequest(h);
    await waitFor('a scheduled read of the request', () => readsOf(h.sandbox, decided.id) > 0, 5_000);
    await approve(h.sandbox, decided.id);

    await waitFor('the decision delivered', () => delivered(h.app, decided.id), 5_000);
    const [reply, ...more] = decisionReplies(h.slack.messages, decided);
    expect(more).toHaveLength(0);
    expect(reply!.text).toMatch(/^\[SANDBOX\] /);
    expect(messageText(reply!.blocks)).toContain('*SANDBOX*');
    const root = h.slack.messages.find((m) => m.ts === decided.rootTs)!;
    expect(root.text).toMatch(/^\[SANDBOX\] .*approved/);
    expect(messageText(root.blocks)).toContain('*SANDBOX*');
    expect(messageText(root.blocks)).toContain('Approved');

    // Two more scheduled ticks (the other request is read on each): the decided one is not read again.
    const readsAfter = h.sandbox.calls.length;
    await waitFor('two more ticks', () => readsOf(h.sandbox, waiting.id, readsAfter) >= 2, 5_000);
    expect(readsOf(h.sandbox, decided.id, readsAfter)).toBe(0);
    expect(threadPosts(h.slack.calls, decided)).toHaveLength(1);
    expect(threadPosts(h.slack.calls, waiting)).toHaveLength(0);
  });
});

describe('poller across a restart', () => {
  test('filed before a restart, decided while the app was down: the new instance delivers it once', async () => {
    const h = await startHarness({ POLL_SCHEDULE: '* * * * * *' });
    let second: Awaited<ReturnType<typeof startAppLike>> | undefined;
    try {
      const r = await fileTrackedRequest(h);
      await waitFor('the first instance polling it', () => readsOf(h.sandbox, r.id) > 0, 5_000);
      await h.app.stop();
      const readsWhileDown = h.sandbox.calls.length;
      await reject(h.sandbox, r.id);

      second = await startAppLike(h, { POLL_SCHEDULE: '* * * * * *' });
      const app = second.app;
      await waitFor('the decision delivered by the new instance', () => delivered(app, r.id), 5_000);
      expect(readsOf(h.sandbox, r.id, readsWhileDown)).toBeGreaterThanOrEqual(1);
      expect(threadPosts(h.slack.calls, r)).toHaveLength(1);
      expect(decisionReplies(h.slack.messages, r)).toHaveLength(1);
      expect(messageText(h.slack.messages.find((m) => m.ts === r.rootTs))).toContain('Rejected');
      expect(await app.deps.store.trackedRequests.openIds()).not.toContain(r.id);
    } finally {
      // The first app is already stopped (a second stop would be refused by Bolt's receiver).
      await second?.app.stop();
      await h.sandbox.close();
      await h.slack.close();
      rmSync(h.dataDir, { recursive: true, force: true });
    }
  });
});
