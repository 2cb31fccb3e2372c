import { AtMostEvery } from '../../src/store/at-most-every';

test('yes the first time, then not again until the interval has passed since the last yes', () => {
  const every = new AtMostEvery(1_000);
  expect(every.due(5_000)).toBe(true);
  expect(every.due(5_999)).toBe(false);
  expect(every.due(6_000)).toBe(true);
  // Counted from the last yes, not from the last ask.
  expect(every.due(6_500)).toBe(false);
  expect(every.due(6_999)).toBe(false);
  expect(every.due(7_000)).toBe(true);
});

test('the first ask is due whatever the clock says (a clock that starts at zero included)', () => {
  expect(new AtMostEvery(60_000).due(0)).toBe(true);
});
