import { SlackStandInRateLimit } from '../../src/slack-standin/rate-limit';

/** The fake Slack's rate limiter, on a clock of its own: what the rate-limit tests rely on. */
describe('SlackStandInRateLimit', () => {
  let now = 0;
  const limiter = () => new SlackStandInRateLimit(() => now);
  beforeEach(() => (now = 1_000_000));

  test('off until a rule is set', () => {
    const l = limiter();
    for (let i = 0; i < 10; i++) expect(l.refuse('chat.postMessage', { channel: 'C1' })).toBeUndefined();
  });

  test('a burst, then one per interval, per method and channel; past it 429 with Retry-After like Slack', () => {
    const l = limiter().limit('chat.postMessage', { perSecond: 1, burst: 3 });
    for (let i = 0; i < 3; i++) expect(l.refuse('chat.postMessage', { channel: 'C1' })).toBeUndefined();
    expect(l.refuse('chat.postMessage', { channel: 'C1' })).toEqual({
      httpStatus: 429,
      headers: { 'retry-after': '1' },
      body: { ok: false, error: 'ratelimited' },
    });
    // Another channel, and another method, have buckets of their own.
    expect(l.refuse('chat.postMessage', { channel: 'C2' })).toBeUndefined();
    expect(l.refuse('chat.update', { channel: 'C1' })).toBeUndefined();
    now += 1_000;
    expect(l.refuse('chat.postMessage', { channel: 'C1' })).toBeUndefined();
    expect(l.refuse('chat.postMessage', { channel: 'C1' })).toBeDefined();
    expect(l.refusals.map((r) => [r.channel, r.retryAfterS])).toEqual([
      ['C1', 1],
      ['C1', 1],
    ]);
    expect(l.ignored).toEqual([]);
  });

  test('a call before the announced Retry-After has passed is refused again and recorded as ignored', () => {
    const l = limiter().limit('chat.update', { perSecond: 1, burst: 1, retryAfterS: 3 });
    expect(l.refuse('chat.update', { channel: 'C1' })).toBeUndefined();
    expect(l.refuse('chat.update', { channel: 'C1' })).toMatchObject({ headers: { 'retry-after': '3' } });
    now += 2_000; // a token is back, but Slack said 3 s
    expect(l.refuse('chat.update', { channel: 'C1' })).toBeDefined();
    expect(l.ignored).toEqual([{ method: 'chat.update', channel: 'C1', at: now, retryAfterS: 1 }]);
    now += 3_000;
    expect(l.refuse('chat.update', { channel: 'C1' })).toBeUndefined();
  });

  test('clear() lifts the limits and forgets what was recorded', () => {
    const l = limiter().limit('views.publish', { perSecond: 1, burst: 1 });
    l.refuse('views.publish', {});
    expect(l.refuse('views.publish', {})).toBeDefined();
    l.clear();
    expect(l.refusals).toEqual([]);
    expect(l.refuse('views.publish', {})).toBeUndefined();
  });
});
