import { type Harness, startHarness } from '../support/harness';
import { deliveriesDone, waitFor } from '../support/wait';

// Role checks stand before every acknowledgement (Slack waits three seconds): a user-group look-up
// that Slack rate-limits or does not answer must neither be retried nor hold the answer.

describe('access look-ups never stall an acknowledgement', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ ACCESS_VIEWERS: 'S0FINANCE' });
    h.slack.userGroups.set('S0FINANCE', ['U0GROUPED']);
  });
  afterAll(() => h.close());

  test('a rate-limited user-group look-up is asked once, and the command is answered at once', async () => {
    h.slack.on('usergroups.users.list', () => ({
      httpStatus: 429,
      headers: { 'retry-after': '30' },
      body: { ok: false, error: 'ratelimited' },
    }));
    const before = h.slack.callsOf('usergroups.users.list').length;
    const { ack } = await h.slash('U0GROUPED', 'limits');
    // Nothing known of the group yet: no role, so a refusal in the acknowledgement itself (never a
    // wait of half a minute, which would outlast the test).
    expect(String(ack?.text)).toContain('You need the *viewer* role');
    expect(h.slack.callsOf('usergroups.users.list').length - before).toBe(1);
    expect(h.sandbox.calls).toEqual([]);
  });

  test('nor retried later in the background (the app client would, after Retry-After)', async () => {
    h.slack.on('usergroups.users.list', () => ({
      httpStatus: 429,
      headers: { 'retry-after': '0' },
      body: { ok: false, error: 'ratelimited' },
    }));
    const before = h.slack.callsOf('usergroups.users.list').length;
    const taken = h.app.inFlight.total;
    await h.slash('U0GROUPED', 'limits');
    await deliveriesDone(h.app, taken + 1);
    // The look-up goes on past the delivery by design (access.ts), so no event marks its end: the one
    // window left, anchored on the refused call. Retry-After 0: a retrying client (the app client,
    // tried) calls again after its first back-off, about 1 s; with Retry-After 1 it took 2.6 s, past
    // the 1.5 s this test used to wait, so it could not fail.
    const refused = h.slack.callsOf('usergroups.users.list')[before]!;
    await waitFor('past a retrying client’s first back-off', () => Date.now() > refused.at + 2_000, 5_000);
    expect(h.slack.callsOf('usergroups.users.list').length - before).toBe(1);
  });
});
