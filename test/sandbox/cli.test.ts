import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '../support/wait';

// `npm run sandbox` runs the compiled CLI (built by `pretest`); so do these tests.
const CLI = path.resolve(__dirname, '../../dist/src/sandbox/cli.js');

interface CliRun {
  output: () => string;
  exitCode: () => number | null | undefined;
  kill: () => void;
}

function runCli(env: Record<string, string>): CliRun {
  const child = spawn(process.execPath, [CLI], { env: { PATH: process.env.PATH ?? '', ...env } });
  let out = '';
  let exitCode: number | null | undefined;
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  child.on('exit', (code) => (exitCode = code));
  return { output: () => out, exitCode: () => exitCode, kill: () => child.kill('SIGKILL') };
}

/** The main company's AppID the sandbox prints once it listens. */
async function mainAppIdWith(seed?: string): Promise<string> {
  const run = runCli({ SANDBOX_PORT: '0', ...(seed === undefined ? {} : { SANDBOX_SEED: seed }) });
  try {
    return await waitFor('the sandbox to print its AppIDs', () => /main AppID:\s+(\S+)/.exec(run.output())?.[1], 15_000);
  } finally {
    run.kill();
  }
}

describe('npm run sandbox: SANDBOX_PORT and SANDBOX_SEED', () => {
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (npm test does it in pretest)`);
  });

  test('a bad port and a bad seed are both named, exit 1, and neither value is repeated', async () => {
    const run = runCli({ SANDBOX_PORT: 'http-SUPERSECRET', SANDBOX_SEED: 'SUPERSECRET'.repeat(20) });
    try {
      await waitFor('the sandbox to exit', () => run.exitCode() !== undefined, 15_000);
    } finally {
      run.kill();
    }
    expect(run.exitCode()).toBe(1);
    expect(run.output()).toMatch(/^ {2}- SANDBOX_PORT: expected a port number/m);
    expect(run.output()).toMatch(/^ {2}- SANDBOX_SEED: expected at most 200 characters/m);
    expect(run.output()).not.toContain('SUPERSECRET');
  });

  test("a seed fixes the ids: the same seed gives the same AppIDs, the default is the bot's own seed", async () => {
    const [seeded, again, byDefault, bots] = [
      await mainAppIdWith('team-a'),
      await mainAppIdWith('team-a'),
      await mainAppIdWith(),
      await mainAppIdWith('pix-ops'),
    ];
    expect(again).toBe(seeded);
    expect(byDefault).not.toBe(seeded);
    expect(byDefault).toBe(bots);
  });
});
