import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FakeSlack } from '../test/support/fake-slack';
import { percentile, startBotProcess, startSandboxProcess, type Figure } from './lib';

const RUNS = 5;
const BOUND_MS = 2_000;

/**
 * Start-up: from spawning `node dist/src/main.js` to its "Pix Ops is running" line, with the sqlite
 * store (a fresh data folder each time: the first start, which creates the store secret) and the Pix
 * API as an outside service (PIX_API_URL), so the built-in sandbox does not count.
 */
export async function startup(): Promise<Figure[]> {
  const slack = await new FakeSlack().start();
  const sandbox = await startSandboxProcess();
  const times: number[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-bench-start-'));
      const bot = await startBotProcess({
        SLACK_API_URL: slack.apiUrl,
        PIX_API_URL: sandbox.url,
        PIX_APP_ID: sandbox.main.mainAppId,
        STORE_URL: `sqlite://${path.join(dir, 'data', 'store.sqlite')}`,
      });
      times.push(bot.readyMs);
      await bot.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await sandbox.stop();
    await slack.close();
  }
  const worst = Math.max(...times);
  return [
    {
      name: `start-up to ready, sqlite (median of ${RUNS}; slowest ${worst} ms)`,
      value: `${percentile(times, 50)} ms`,
      bound: `< ${BOUND_MS} ms`,
      ok: worst < BOUND_MS,
    },
  ];
}
