import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAIN } from '../support/app-process';
import { waitFor } from '../support/wait';

/**
 * `npm start` (node dist/src/main.js) as a newcomer runs it: with nothing of a deployment set it serves
 * the playground on loopback until stopped; with any production variable (a Slack token or signing
 * secret, a Pix API URL, a Redis or Postgres store), the configuration is checked as before and a
 * missing variable is an error (never a playground in production).
 */

let cwd: string;
beforeEach(() => {
  // A folder of its own: no .env of the repository is read.
  cwd = mkdtempSync(path.join(tmpdir(), 'pix-ops-start-'));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

function run(env: Record<string, string>) {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build`);
  const child = spawn(process.execPath, [MAIN], { cwd, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

test('no token and no Pix URL: the playground on 127.0.0.1, its address beside the set-up steps, until SIGTERM', async () => {
  const p = run({ PLAYGROUND_PORT: '0' });
  try {
    const url = await waitFor('the playground address', () => /playground: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(p.out())?.[1], 20_000);
    expect(p.out()).toContain('SLACK_BOT_TOKEN=xoxb-');
    expect(p.out()).toContain('manifest.yml');
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('root.BlockKit = factory()');
    const state = (await (await fetch(`${url}api/state?user=U0ADMIN`)).json()) as { personas: Array<{ id: string }> };
    expect(state.personas.map((x) => x.id)).toEqual(['U0ADMIN', 'U0OPERATOR', 'U0VIEWER', 'U0APPROVER', 'U0MANAGER', 'U0NOBODY']);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    // No secret of the playground's own (bot token, signing secret) is printed.
    expect(p.out() + p.err()).not.toMatch(/xoxb-playground/);
  } finally {
    p.child.kill('SIGKILL');
  }
});

test('bodies over the page’s limit: each answered 413, the log says so once (at most a line a minute, with the count)', async () => {
  const p = run({ PLAYGROUND_PORT: '0' });
  try {
    const url = await waitFor('the playground address', () => /playground: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(p.out())?.[1], 20_000);
    const big = JSON.stringify({ user: 'U0ADMIN', channel: 'C0FINANCE', text: 'x'.repeat(1024 * 1024) });
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${url}api/say`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
      expect(res.status).toBe(413);
    }
    const lines = () =>
      p
        .out()
        .split('\n')
        .filter((l) => l.includes('body over its limit'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    await waitFor('the line about them', () => lines().length > 0, 5_000);
    // A request after them, answered: any line more about the five would be written by now.
    expect((await fetch(`${url}api/state?user=U0ADMIN`)).status).toBe(200);
    expect(lines()).toEqual([expect.objectContaining({ tooLarge: 1, json: 1, upload: 0 })]);
  } finally {
    p.child.kill('SIGKILL');
  }
});

test.each([
  ['a Slack token', { SLACK_BOT_TOKEN: 'xoxb-1-2-3' }, /SLACK_SIGNING_SECRET: required in HTTP mode/],
  [
    'a real Pix API URL',
    { PIX_API_URL: 'https://pix.example.com' },
    /SLACK_BOT_TOKEN: required[\s\S]*PIX_APP_ID: required when PIX_API_URL is set/,
  ],
  // A secret mount that failed leaves the rest of a deployment set: never a playground in production.
  ['an app-level token', { SLACK_APP_TOKEN: 'xapp-1-2-3' }, /SLACK_BOT_TOKEN: required/],
  ['a signing secret', { SLACK_SIGNING_SECRET: '0123456789abcdef0123456789abcdef' }, /SLACK_BOT_TOKEN: required/],
  ['a Redis store', { STORE_URL: 'redis://127.0.0.1:6379' }, /SLACK_BOT_TOKEN: required/],
  ['a Postgres store', { STORE_URL: 'postgres://postgres@127.0.0.1:5432/postgres' }, /SLACK_BOT_TOKEN: required/],
  ['a PostgreSQL store', { STORE_URL: 'postgresql://postgres@127.0.0.1:5432/postgres' }, /SLACK_BOT_TOKEN: required/],
])('with %s and the rest missing: exit 1 listing every problem, no playground', async (_what, env, problems) => {
  // Any free port, should a playground start after all; killed whatever happens.
  const p = run({ PLAYGROUND_PORT: '0', ...env });
  try {
    expect(await p.exited).toBe(1);
    expect(p.err()).toMatch(problems);
    expect(p.out()).not.toContain('playground');
  } finally {
    p.child.kill('SIGKILL');
  }
});

test('a bad PLAYGROUND_PORT is named, without its value', async () => {
  const p = run({ PLAYGROUND_PORT: 'eighty' });
  expect(await p.exited).toBe(1);
  expect(p.err()).toContain('PLAYGROUND_PORT: expected a port number');
  expect(p.err()).not.toContain('eighty');
});

test('a PLAYGROUND_PORT in use is named, exit 1, nothing left running', async () => {
  const taken = http.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  try {
    const p = run({ PLAYGROUND_PORT: String((taken.address() as AddressInfo).port) });
    expect(await p.exited).toBe(1);
    expect(p.err()).toMatch(/PLAYGROUND_PORT: port \d+ of 127\.0\.0\.1 is in use/);
  } finally {
    taken.close();
  }
});
