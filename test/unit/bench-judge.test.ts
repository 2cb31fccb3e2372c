import {
  absoluteFigure,
  countFigure,
  countsFigure,
  exitCode,
  failedFigure,
  infoFigure,
  median,
  nullSpread,
  percentile,
  ratioFigure,
  table,
} from '../../bench/judge';

// The rule `npm run bench` judges its figures by (bench/README.md, "How a figure is judged").

describe('percentiles by nearest rank', () => {
  test('a value that was measured, whatever the order given', () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 75)).toBe(3);
    expect(percentile([1, 2, 3, 4], 25)).toBe(1);
    expect(percentile([7], 99)).toBe(7);
    expect(median([10, 30, 20])).toBe(20);
  });

  test('nothing measured is an error, not a figure', () => {
    expect(() => percentile([], 50)).toThrow(RangeError);
  });
});

describe("the null's spread", () => {
  test('null rounds centred on 1: the chance part, their interquartile range over √n', () => {
    // Quartiles 0.95 and 1.05, median 1: (1.05 − 0.95) / √4 = 0.05.
    expect(nullSpread([0.95, 1, 1.05, 1.1])).toBeCloseTo(0.05, 10);
  });

  test('a null ratio away from 1 (a bias of the rig): that distance, when it is the larger', () => {
    // Median 1.2, IQR 0 → the bias, 0.2.
    expect(nullSpread([1.2, 1.2, 1.2])).toBeCloseTo(0.2, 10);
    expect(nullSpread([0.8, 0.8, 0.8, 0.8])).toBeCloseTo(0.2, 10);
  });

  test('no noise at all: no spread', () => {
    expect(nullSpread([1, 1, 1, 1, 1])).toBe(0);
  });

  test('more rounds, the same scatter: a smaller spread (the median moves less)', () => {
    const scatter = [0.9, 0.95, 1, 1.05, 1.1];
    const four = Array.from({ length: 4 }, () => scatter).flat();
    expect(nullSpread(four)).toBeLessThan(nullSpread(scatter));
  });
});

describe('a ratio', () => {
  const quiet = [1, 1, 1, 1];
  const noisy = [0.9, 1, 1.05, 1.2]; // median 1, IQR 1.05 − 0.9 = 0.15, over √4: 0.075

  test('within its bound: yes, with the null ratio and its spread beside it', () => {
    const f = ratioFigure({ name: 'start-up', ratios: [1.1, 1.2, 1.3, 1.15], nulls: noisy, bound: 1.5, detail: '400 / 340 ms' });
    expect(f).toEqual({
      name: 'start-up',
      value: '1.15× (400 / 340 ms)',
      bound: '≤ 1.5×',
      noise: 'null 1.000×, spread 0.075',
      verdict: 'yes',
    });
  });

  test('over its bound by less than the spread: yes (the run cannot tell it from its bound)', () => {
    expect(ratioFigure({ name: 'r', ratios: [1.55, 1.55, 1.55, 1.55], nulls: noisy, bound: 1.5 }).verdict).toBe('yes');
  });

  test('over its bound by more than the spread: NO', () => {
    expect(ratioFigure({ name: 'r', ratios: [1.6, 1.6, 1.6, 1.6], nulls: noisy, bound: 1.5 }).verdict).toBe('NO');
  });

  test('a quiet null: any excess is out', () => {
    expect(ratioFigure({ name: 'r', ratios: [1.051, 1.051, 1.051, 1.051], nulls: quiet, bound: 1.05 }).verdict).toBe('NO');
    expect(ratioFigure({ name: 'r', ratios: [1.05, 1.05, 1.05, 1.05], nulls: quiet, bound: 1.05 }).verdict).toBe('yes');
  });

  test('the median of the rounds is the figure: one wild round does not move it', () => {
    const f = ratioFigure({ name: 'r', ratios: [1, 1, 1, 9], nulls: quiet, bound: 1.2 });
    expect(f.value).toBe('1.000×');
    expect(f.verdict).toBe('yes');
  });

  test('without a null round for every round it is not judged: an error', () => {
    expect(() => ratioFigure({ name: 'r', ratios: [1, 1], nulls: [1], bound: 1.2 })).toThrow(RangeError);
    expect(() => ratioFigure({ name: 'r', ratios: [], nulls: [], bound: 1.2 })).toThrow(RangeError);
  });
});

describe('counts are strict', () => {
  test('equal to an exact bound, or not', () => {
    expect(countFigure({ name: 'statements a reminder', value: 6, op: '=', bound: 6 }).verdict).toBe('yes');
    expect(countFigure({ name: 'statements a reminder', value: 7, op: '=', bound: 6 }).verdict).toBe('NO');
    expect(countFigure({ name: 'statements a reminder', value: 5, op: '=', bound: 6 }).verdict).toBe('NO');
  });

  test('at most: one over is out, whatever noise a ratio of the same run had', () => {
    expect(countFigure({ name: 'calls in a second', value: 51, op: '≤', bound: 51 }).verdict).toBe('yes');
    const f = countFigure({ name: 'calls in a second', value: 52, op: '≤', bound: 51, detail: 'at the Pix API' });
    expect(f).toEqual({ name: 'calls in a second', value: '52 (at the Pix API)', bound: '≤ 51', noise: 'exact', verdict: 'NO' });
  });

  test('at least', () => {
    expect(countFigure({ name: 'n', value: 3, op: '≥', bound: 3 }).verdict).toBe('yes');
    expect(countFigure({ name: 'n', value: 2, op: '≥', bound: 3 }).verdict).toBe('NO');
  });

  test('several counts checked together: the check decides', () => {
    expect(countsFigure({ name: 'posts', value: '600', bound: '600, each once', ok: false }).verdict).toBe('NO');
    expect(countsFigure({ name: 'posts', value: '600', bound: '600, each once', ok: true }).noise).toBe('exact');
  });
});

describe('absolute figures, information, failures', () => {
  test('a time against a fixed bound: plainly, strict or not as the bound says', () => {
    expect(absoluteFigure({ name: 'p95', value: 50, unit: 'ms', op: '≤', bound: 50 }).verdict).toBe('yes');
    expect(absoluteFigure({ name: 'p95', value: 50, unit: 'ms', op: '<', bound: 50 }).verdict).toBe('NO');
    const f = absoluteFigure({ name: 'p95', value: 31.66, unit: 'ms', op: '≤', bound: 50, digits: 1, detail: 'median 15.5' });
    expect(f).toEqual({ name: 'p95', value: '31.7 ms (median 15.5)', bound: '≤ 50 ms', noise: 'not measured', verdict: 'yes' });
  });

  test('information is never out of bounds; a failed benchmark always is', () => {
    expect(infoFigure('CPU per reminder', '3.5 ms').verdict).toBe('yes');
    expect(failedFigure('stores', 'timed out').verdict).toBe('NO');
  });
});

describe('the exit code and the table', () => {
  const yes = countFigure({ name: 'a count', value: 1, op: '=', bound: 1 });
  const no = countFigure({ name: 'another', value: 2, op: '=', bound: 1 });

  test('1 exactly when a figure is out of bounds, or when there is none', () => {
    expect(exitCode([yes, infoFigure('i', 'v')])).toBe(0);
    expect(exitCode([yes, no])).toBe(1);
    expect(exitCode([])).toBe(1);
  });

  test('one row a figure, its columns aligned under the header: figure, value, bound, null/noise, ok', () => {
    const ratio = ratioFigure({ name: 'a ratio', ratios: [1.2], nulls: [1], bound: 1.5 });
    const lines = table([yes, no, ratio]).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^figure\s+value\s+bound\s+null\/noise\s+ok$/);
    const at = (h: string) => lines[0]!.indexOf(h);
    expect(lines.slice(1).map((l) => l.slice(at('ok')))).toEqual(['yes', 'NO', 'yes']);
    expect(lines[3]!.slice(at('null/noise'), at('ok')).trim()).toBe('null 1.000×, spread 0.000');
    expect(lines[2]!.slice(at('bound'), at('null/noise')).trim()).toBe('= 1');
  });
});
