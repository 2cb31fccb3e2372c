import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assertFreshBuild } from '../support/dist-build';

// `npm run bench` as bench/README.md shows it, with BENCH_ONLY choosing one benchmark (start-up, the
// shortest): the runner the script ends in (dist/bench/run.js, built by jest's global setup as the
// script's `npm run build` would), its table and its exit code. The figures are not judged here: their
// bounds are for a quiet machine, not for a test run beside others.

const ROOT = path.resolve(__dirname, '../..');
const script = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.bench!;

jest.setTimeout(120_000);

test('npm run bench with BENCH_ONLY runs that benchmark alone: its figures, each beside its bound and a verdict, and exit 1 exactly when one is out of bounds', async () => {
  assertFreshBuild();
  const runner = script.split('&&').pop()!.trim().split(/\s+/);
  expect(runner.slice(0, 1)).toEqual(['node']);
  expect(runner).toContain('dist/bench/run.js');
  const child = spawn(process.execPath, runner.slice(1), {
    cwd: ROOT,
    env: { ...process.env, BENCH_ONLY: 'start-up' },
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
  const header = lines.findIndex((line) => /^figure\s+value\s+bound\s+ok$/.test(line));
  expect(header).toBeGreaterThanOrEqual(0);
  const figures = lines.slice(header + 1).filter((line) => line.trim() !== '');
  expect(figures.length).toBeGreaterThanOrEqual(2);
  for (const figure of figures) expect(figure).toMatch(/^start-up to first answer.+ (?:yes|NO)$/);
  expect(code).toBe(figures.every((figure) => figure.endsWith(' yes')) ? 0 : 1);
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
