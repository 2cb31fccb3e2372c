/**
 * How `npm run bench` judges its figures (bench/README.md, "How a figure is judged"), apart from
 * measuring them, so that the rule is one piece of code with tests of its own
 * (test/unit/bench-judge.test.ts):
 *
 * - a **ratio** against a baseline is measured in paired rounds, each round also timing the baseline
 *   against itself (its *null ratio*); it is out of bounds only when it exceeds its bound by more
 *   than the null's spread (`nullSpread`);
 * - a **count** (calls, statements, bytes, posts) is judged strictly against its exact bound;
 * - an **absolute** figure (a time or a size held to a fixed bound, or to a pace) is judged plainly
 *   against its bound: it has no baseline to measure its noise with;
 * - an **information** figure is shown and never judged.
 */

export type Verdict = 'yes' | 'NO';

/** One row of the table: what was measured, its bound, the noise it was judged with, and the verdict. */
export interface Figure {
  name: string;
  value: string;
  bound: string;
  /** The null ratio and its spread (a ratio), `exact` (a count), or what else was known of its noise. */
  noise: string;
  verdict: Verdict;
}

/** The `p`th percentile by nearest rank: a value that was measured, never one between two. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) throw new RangeError('no values');
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const median = (values: number[]): number => percentile(values, 50);

/**
 * The noise a ratio is judged with, from its null rounds (the baseline against itself, in the same
 * rounds): the larger of
 * - how far the null ratio (their median) is from 1: a bias of the rig that the alternating order did
 *   not cancel, and which the figure carries as well;
 * - their interquartile range over √n: how far the median of n such rounds moves by chance (its
 *   standard error is about 0.93 × IQR / √n for rounds spread as a normal law).
 */
export function nullSpread(nulls: number[]): number {
  const bias = Math.abs(median(nulls) - 1);
  const chance = (percentile(nulls, 75) - percentile(nulls, 25)) / Math.sqrt(nulls.length);
  return Math.max(bias, chance);
}

/** Two decimals, three below 1.1 (where a bound such as 1.05 needs them). */
const fmtRatio = (r: number) => r.toFixed(Math.abs(r) < 1.1 ? 3 : 2);

/**
 * A ratio against a baseline: `ratios` (ours ÷ baseline, a round each) and `nulls` (the baseline's
 * second run ÷ its first, in the same rounds). The figure is the median of the rounds' ratios; it is
 * out of bounds only when above `bound` by more than `nullSpread(nulls)`.
 */
export function ratioFigure(input: { name: string; ratios: number[]; nulls: number[]; bound: number; detail?: string }): Figure {
  const { name, ratios, nulls, bound, detail } = input;
  if (ratios.length === 0 || nulls.length !== ratios.length)
    throw new RangeError(`${name}: ${ratios.length} ratios, ${nulls.length} null rounds`);
  const ratio = median(ratios);
  const spread = nullSpread(nulls);
  return {
    name,
    value: `${fmtRatio(ratio)}×${detail ? ` (${detail})` : ''}`,
    bound: `≤ ${bound}×`,
    noise: `null ${fmtRatio(median(nulls))}×, spread ${spread.toFixed(3)}`,
    verdict: ratio <= bound + spread ? 'yes' : 'NO',
  };
}

export type CountOp = '=' | '≤' | '≥';

const holds = (value: number, op: CountOp, bound: number) => (op === '=' ? value === bound : op === '≤' ? value <= bound : value >= bound);

/** A count (calls, statements, bytes), judged strictly: no noise can move it. */
export function countFigure(input: { name: string; value: number; op: CountOp; bound: number; detail?: string }): Figure {
  const { name, value, op, bound, detail } = input;
  return {
    name,
    value: `${value}${detail ? ` (${detail})` : ''}`,
    bound: `${op} ${bound}`,
    noise: 'exact',
    verdict: holds(value, op, bound) ? 'yes' : 'NO',
  };
}

/**
 * Several counts checked together, each exactly (each posted once: so many posts, none twice), where
 * one number would not say it: `ok` is that check, made by the caller on the counts themselves.
 */
export function countsFigure(input: { name: string; value: string; bound: string; ok: boolean }): Figure {
  return { ...input, noise: 'exact', verdict: input.ok ? 'yes' : 'NO' };
}

/**
 * A time or a size held to a fixed bound, or to a pace (`≤ 1.2 × 57 s`): judged plainly, since there
 * is no baseline in the run to measure its noise with.
 */
export function absoluteFigure(input: {
  name: string;
  value: number;
  unit: string;
  op: '≤' | '<';
  bound: number;
  digits?: number;
  detail?: string;
}): Figure {
  const { name, value, unit, op, bound, digits = 0, detail } = input;
  return {
    name,
    value: `${value.toFixed(digits)} ${unit}${detail ? ` (${detail})` : ''}`,
    bound: `${op} ${bound} ${unit}`,
    noise: 'not measured',
    verdict: (op === '<' ? value < bound : value <= bound) ? 'yes' : 'NO',
  };
}

/** Shown, not judged. */
export function infoFigure(name: string, value: string): Figure {
  return { name, value, bound: '(information)', noise: '', verdict: 'yes' };
}

/** A benchmark that did not run to its end: no figure, and out of bounds for that. */
export function failedFigure(name: string, reason: string): Figure {
  return { name, value: `FAILED: ${reason}`, bound: '(runs to its end)', noise: '', verdict: 'NO' };
}

/** `npm run bench`'s exit code: 0 when every figure is within its bound by the rules above, else 1. */
export const exitCode = (figures: Figure[]): 0 | 1 => (figures.length > 0 && figures.every((f) => f.verdict === 'yes') ? 0 : 1);

export const TABLE_COLUMNS = ['figure', 'value', 'bound', 'null/noise', 'ok'] as const;

/** The table, each column as wide as its widest cell, two spaces apart. */
export function table(figures: Figure[]): string {
  const cells = figures.map((f) => [f.name, f.value, f.bound, f.noise, f.verdict]);
  const widths = TABLE_COLUMNS.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return `${[TABLE_COLUMNS, ...cells].map(line).join('\n')}\n`;
}
