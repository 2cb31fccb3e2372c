import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { slackSignatureHeaders } from '../../src/slack-standin/signing';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { assertFreshBuild } from '../support/dist-build';
import { poster, slashBody } from '../support/harness';
import { waitFor } from '../support/wait';

// `npm start` runs the compiled output (built by `prepare` and `pretest`); these tests run it the same way.
const MAIN = path.resolve(__dirname, '../../dist/src/main.js');

interface Run {
  code: Promise<number | null>;
  /** The exit code once the process has exited, undefined while it runs. */
  exitCode: () => number | null | undefined;
  stdout: () => string;
  stderr: () => string;
  kill: (signal: NodeJS.Signals) => void;
}

function run(env: Record<string, string>, cwd: string): Run {
  const child = spawn(process.execPath, [MAIN], { cwd, env: { PATH: process.env.PATH ?? '', ...env } });
  let out = '';
  let err = '';
  let exitCode: number | null | undefined;
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return {
    code: new Promise((resolve) =>
      child.on('exit', (c) => {
        exitCode = c;
        resolve(c);
      }),
    ),
    exitCode: () => exitCode,
    stdout: () => out,
    stderr: () => err,
    kill: (s) => child.kill(s),
  };
}

describe('npm start (the compiled entry point)', () => {
  let cwd: string;
  beforeAll(() => {
    assertFreshBuild();
  });
  beforeEach(() => {
    cwd = mkdtempSync(path.join(tmpdir(), 'pix-ops-start-'));
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  // With neither a token nor PIX_API_URL it starts the playground instead (test/playground/start.test.ts).
  test('with PIX_API_URL and no SLACK_BOT_TOKEN it explains the set-up and exits 1', async () => {
    const r = run({ PIX_API_URL: 'https://pix.example.com', PIX_APP_ID: 'app' }, cwd);
    expect(await r.code).toBe(1);
    const text = r.stderr();
    expect(text).toContain('manifest.yml');
    expect(text).toContain('SLACK_BOT_TOKEN');
    expect(text).toContain('SLACK_APP_TOKEN');
    expect(text).toContain('.env');
    expect(text).not.toMatch(/\n\s+at /); // no stack trace
  });

  test('every configuration problem at once, exit 1, no stack trace, no secret echoed', async () => {
    const r = run(
      {
        SLACK_BOT_TOKEN: 'xoxb-SECRET-VALUE-1',
        PORT: 'abc',
        STORE_URL: 'redis://127.0.0.1:6379',
        POLL_SCHEDULE: 'nope',
        ACCESS_ADMINS: 'alice',
      },
      cwd,
    );
    expect(await r.code).toBe(1);
    const text = r.stderr();
    for (const v of ['PORT', 'STORE_SECRET', 'POLL_SCHEDULE', 'ACCESS_ADMINS', 'SLACK_SIGNING_SECRET']) expect(text).toContain(`${v}:`);
    expect(text).not.toContain('SECRET-VALUE');
    expect(text).not.toMatch(/\n\s+at /);
  });

  /** The exit code of a run that must stop by itself (a bot that keeps running fails the test, killed). */
  async function exitOf(r: Run): Promise<number | null> {
    try {
      await waitFor('the process to exit by itself', () => r.exitCode() !== undefined, 15_000);
    } finally {
      r.kill('SIGKILL');
    }
    return r.code;
  }

  test('.env.example copied to .env unchanged: its placeholders are refused with where the real values are, exit 1', async () => {
    copyFileSync(path.resolve(__dirname, '../../.env.example'), path.join(cwd, '.env'));
    const r = run({}, cwd);
    expect(await exitOf(r)).toBe(1); // not a bot logging `fetch failed` for ever
    const text = r.stderr();
    expect(text).toMatch(/SLACK_BOT_TOKEN: still a placeholder .*OAuth & Permissions/);
    expect(text).toMatch(/SLACK_APP_TOKEN: still a placeholder .*App-Level Tokens/);
    expect(r.stdout() + text).not.toContain('fetch failed');
    expect(text).not.toMatch(/\n\s+at /);
  });

  test.each([
    [
      'a file where a folder should be',
      'package.json/x.sqlite',
      /^Pix Ops could not start: STORE_URL: a part of the path to the sqlite file is a file, not a folder$/m,
    ],
    ['a folder where the file should be', 'a-folder', /^Pix Ops could not start: STORE_URL: the sqlite file cannot be opened/m],
    [
      'a file that is not a database',
      'package.json',
      /^Pix Ops could not start: STORE_URL: the file at that path is not a sqlite database$/m,
    ],
  ])('a sqlite STORE_URL with %s: exit 1 naming STORE_URL, no system error, no stack trace', async (_what, file, expected) => {
    writeFileSync(path.join(cwd, 'package.json'), '{}\n');
    mkdirSync(path.join(cwd, 'a-folder'));
    const r = run(
      {
        SLACK_BOT_TOKEN: 'xoxb-start-test-token',
        SLACK_SIGNING_SECRET: 'start-test-signing-secret',
        PORT: '0',
        STORE_URL: `sqlite://${file}`,
      },
      cwd,
    );
    expect(await exitOf(r)).toBe(1);
    const text = r.stderr();
    expect(text).toMatch(expected);
    expect(text).not.toMatch(/EEXIST|ENOTDIR|SQLITE_|mkdir|\n\s+at /);
  });

  test('reads a .env file, starts in sandbox mode in HTTP mode, answers /pix help, and stops on SIGTERM', async () => {
    const slack = await new SlackStandIn().start();
    const secret = 'start-test-signing-secret';
    writeFileSync(path.join(cwd, '.env'), `SLACK_SIGNING_SECRET=${secret}\n`);
    const r = run(
      {
        SLACK_BOT_TOKEN: 'xoxb-start-test-token',
        SLACK_API_URL: slack.apiUrl,
        PORT: '0',
        STORE_URL: `sqlite://${path.join(cwd, 'data', 's.sqlite')}`,
      },
      cwd,
    );
    try {
      const line = await waitFor(
        'the ready log line',
        () =>
          r
            .stdout()
            .split('\n')
            .find((l) => l.includes('Pix Ops is running')),
        15_000,
      );
      expect(r.stdout()).toContain('SANDBOX mode');
      const port = (JSON.parse(line) as { port: number }).port;
      const { body } = slashBody(slack, 'U0ANYONE1', 'help', {}, 'startup');
      const res = await poster(`http://127.0.0.1:${port}/slack/events`, slack)(body, {
        'content-type': 'application/x-www-form-urlencoded',
        ...slackSignatureHeaders(body, secret),
      });
      const ack = JSON.parse(res.text) as { text: string };
      expect(ack.text).toContain('[SANDBOX]');
      expect(ack.text).toContain('admin'); // in sandbox mode everyone is admin
      r.kill('SIGTERM');
      expect(await r.code).toBe(0);
    } finally {
      r.kill('SIGKILL');
      await slack.close();
    }
  });
});
