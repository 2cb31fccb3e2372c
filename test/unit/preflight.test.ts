import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

// The run checks what it needs before any suite: a machine without one is told which, and how to get it.
test('a test run on a machine without Chromium stops before any suite, naming it and how to install it', () => {
  const run = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), 'test/unit/money.test.ts'], {
    cwd: ROOT,
    env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.status).toBe(1);
  expect(run.stderr).toContain('The tests need what this machine lacks');
  expect(run.stderr).toContain('Chromium at /nonexistent/chromium');
  expect(run.stderr).toContain('sudo apt-get install -y chromium');
  // What is there is not named.
  expect(run.stderr).not.toContain('Redis on');
  expect(run.stderr).not.toContain('PostgreSQL on');
  expect(run.stderr).not.toMatch(/PASS|Tests:/);
});
