import { AtMostEvery, NowAndThen } from '../../src/store/at-most-every';

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

test('again: what the last yes let through failed, so the next ask is due at once', () => {
  const every = new AtMostEvery(1_000);
  expect(every.due(5_000)).toBe(true);
  every.again();
  expect(every.due(5_001)).toBe(true);
  expect(every.due(5_002)).toBe(false);
});

describe('NowAndThen', () => {
  test('runs at the first ask, not again within its interval; asks during a run wait for that run', async () => {
    let runs = 0;
    let finish: () => void = () => undefined;
    const now = new NowAndThen(60_000, () => {
      runs++;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    const first = now.run();
    const during = now.run();
    expect(runs).toBe(1);
    let waited = false;
    const seen = during.then(() => (waited = true));
    await Promise.resolve();
    expect(waited).toBe(false);
    finish();
    await Promise.all([first, seen]);
    await now.run();
    expect(runs).toBe(1);
  });

  test('a run that failed is run again at the next ask', async () => {
    let runs = 0;
    const now = new NowAndThen(60_000, async () => {
      runs++;
      if (runs === 1) throw new Error('the store is down');
    });
    await expect(now.run()).rejects.toThrow('the store is down');
    await now.run();
    expect(runs).toBe(2);
    await now.run();
    expect(runs).toBe(2);
  });
});
