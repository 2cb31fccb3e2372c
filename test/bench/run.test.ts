import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assertFreshBuild } from '../support/dist-build';

// `npm run bench` as bench/README.md shows it, with BENCH_ONLY choosing one benchmark (start-up, the
// shortest): the runner the script ends in (dist/bench/run.js, built by jest's global setup as the
// script's `npm run build` would), its table and its exit code. The figures themselves are not held to
// their bounds here (a test runs beside others); what is held is that the verdicts and the exit code
// follow the rule (bench/judge.ts, tested itself in test/unit/bench-judge.test.ts) from what is printed.

const ROOT = path.resolve(__dirname, '../..');
const script = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.bench!;

jest.setTimeout(120_000);

test('npm run bench with BENCH_ONLY runs that benchmark alone: its table (figure, value, bound, null/noise, ok), each ratio beside its null ratio, and exit 1 exactly when a figure is out by the rule', async () => {
  assertFreshBuild();
  const runner = script.split('&&').pop()!.trim().split(/\s+/);
  expect(runner.slice(0, 1)).toEqual(['node']);
  expect(runner).toContain('dist/bench/run.js');
  const child = spawn(process.execPath, runner.slice(1), {
    cwd: ROOT,
    // Three rounds, not eight: what is checked is the table and the exit code, not the figures.
    env: { ...process.env, BENCH_ONLY: 'start-up', BENCH_STARTUP_ROUNDS: '3' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));

  expect(stderr.split('\n').filter((line) => line.startsWith('running '))).toEqual(['running start-up…']);
  const lines = stdout.split('\n');
  const header = lines.findIndex((line) => /^figure\s+value\s+bound\s+null\/noise\s+ok$/.test(line));
  expect(header).toBeGreaterThanOrEqual(0);
  // The columns, cut where the header puts them.
  const starts = ['value', 'bound', 'null/noise', 'ok'].map((h) => lines[header]!.indexOf(h));
  const rows = lines
    .slice(header + 1)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const cells = [0, ...starts].map((from, i, all) => line.slice(from, all[i + 1]).trim());
      return { name: cells[0]!, value: cells[1]!, bound: cells[2]!, noise: cells[3]!, verdict: cells[4]! };
    });
  expect(rows.map((r) => r.name)).toEqual([
    expect.stringMatching(/^start-up to first answer, bot \/ bare Bolt/),
    expect.stringMatching(/^start-up to first answer, bot \(slowest/),
  ]);
  for (const row of rows) expect(row.verdict).toMatch(/^(?:yes|NO)$/);

  // The ratio, beside its null ratio and spread; out exactly when over its bound by more than the spread.
  const ratio = rows[0]!;
  const value = Number(/^([\d.]+)×/.exec(ratio.value)?.[1]);
  const bound = Number(/^≤ ([\d.]+)×$/.exec(ratio.bound)?.[1]);
  const noise = /^null ([\d.]+)×, spread ([\d.]+)$/.exec(ratio.noise);
  expect([value, bound, noise]).toEqual([expect.any(Number), 1.5, expect.anything()]);
  const spread = Number(noise![2]);
  // The printed figures are rounded: at the edge itself, either verdict is the rule's.
  if (Math.abs(value - (bound + spread)) > 0.01) expect(ratio.verdict).toBe(value <= bound + spread ? 'yes' : 'NO');
  // The slowest start: a time against a fixed bound, judged plainly.
  const slowest = rows[1]!;
  expect(slowest.bound).toBe('< 2000 ms');
  expect(slowest.verdict).toBe(Number.parseFloat(slowest.value) < 2000 ? 'yes' : 'NO');

  expect(code).toBe(rows.every((r) => r.verdict === 'yes') ? 0 : 1);
});

test('BENCH_ONLY naming no benchmark: refused at once, with the ids there are, and nothing run', async () => {
  assertFreshBuild();
  const runner = script.split('&&').pop()!.trim().split(/\s+/);
  const child = spawn(process.execPath, runner.slice(1), {
    cwd: ROOT,
    env: { ...process.env, BENCH_ONLY: 'start-up,startup' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code).toBe(2);
  expect(stderr).toContain('BENCH_ONLY: no benchmark startup; the ids are modal, proofs, poll');
  expect(stderr).not.toContain('running ');
});
