import { EVENT_MAX_AGE_MS, keptUntilOf } from '../../src/store/pix-events';

describe('keptUntilOf: an event is kept for as long as a replay of it could be accepted', () => {
  const received = Date.parse('2026-12-01T12:00:00.000Z');
  const day = 24 * 60 * 60 * 1000;

  test('a week past its own time, or past its receipt when that is later; a day past the last accepted replay', () => {
    expect(keptUntilOf(received, received - 60_000)).toBe('2026-12-08T12:00:00.000Z');
    // The service's clock ahead of ours: accepted until its time is six days old, kept a day more.
    const ahead = received + 2 * day;
    expect(keptUntilOf(received, ahead)).toBe('2026-12-10T12:00:00.000Z');
    expect(Date.parse(keptUntilOf(received, ahead)!) - (ahead + EVENT_MAX_AGE_MS)).toBe(day);
  });

  test('no time of its own: kept for good', () => {
    expect(keptUntilOf(received, undefined)).toBeUndefined();
  });
});
