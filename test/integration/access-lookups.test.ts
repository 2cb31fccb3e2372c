import { startHarness, type Harness } from '../support/harness';

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
    h.slack.on('usergroups.users.list', () => ({ httpStatus: 429, headers: { 'retry-after': '30' }, body: { ok: false, error: 'ratelimited' } }));
    const before = h.slack.callsOf('usergroups.users.list').length;
    const started = Date.now();
    const { ack } = await h.slash('U0GROUPED', 'limits');
    expect(Date.now() - started).toBeLessThan(2_500);
    // Nothing known of the group yet: no role, so a refusal (never a wait of half a minute).
    expect(String(ack?.text)).toContain('You need the *viewer* role');
    expect(h.slack.callsOf('usergroups.users.list').length - before).toBe(1);
    expect(h.sandbox.calls).toEqual([]);
  });

  test('nor retried later in the background (the app client would, after Retry-After)', async () => {
    h.slack.on('usergroups.users.list', () => ({ httpStatus: 429, headers: { 'retry-after': '1' }, body: { ok: false, error: 'ratelimited' } }));
    const before = h.slack.callsOf('usergroups.users.list').length;
    await h.slash('U0GROUPED', 'limits');
    // Absence needs a window: past the Retry-After, still the one call.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(h.slack.callsOf('usergroups.users.list').length - before).toBe(1);
  });
});
