import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SlackStandIn } from '../src/slack-standin/web-api';
import {
  BARE_BOLT,
  benchmark,
  type Figure,
  percentile,
  START_BOUND_MS,
  signedCommand,
  startBotProcess,
  startSandboxProcess,
  WAIT_MARGIN,
} from './lib';

const ROUNDS = 7;
const RATIO_BOUND = 1.25;

/**
 * Start-up: from spawning the process to its first answer (a signed `/pix help` acknowledged), for
 * the bot as `npm start` runs it (sqlite store in a fresh data folder: the first start, which creates
 * the store secret; the Pix API outside, so no built-in sandbox) and for a bare Bolt app
 * (`bench/bare-bolt.ts`), in paired rounds of alternating order; the ratio of each round is the bot's
 * time over the bare app's, and the figure is their median (this VM's speed drifts).
 */
export const startup = benchmark(
  // The sandbox's start, then two starts a round, each at its bound.
  WAIT_MARGIN * (1 + 2 * ROUNDS) * START_BOUND_MS,
  async (): Promise<Figure[]> => {
    const slack = await new SlackStandIn().start();
    const sandbox = await startSandboxProcess();
    const bot: number[] = [];
    const bare: number[] = [];
    const ratios: number[] = [];
    const firstAnswer = async (script: string, env: Record<string, string>) => {
      const started = Date.now();
      const child = await startBotProcess({ SLACK_API_URL: slack.apiUrl, ...env }, script);
      const res = await signedCommand(child.port, 'U0BENCH', 'help', slack.responseUrl('startup'));
      if (res.status !== 200) throw new Error(`${script} answered ${res.status}`);
      const ms = Date.now() - started;
      await child.stop();
      return ms;
    };
    try {
      for (let i = 0; i < ROUNDS; i++) {
        const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-bench-start-'));
        const runBot = () =>
          firstAnswer('src/main.js', {
            PIX_API_URL: sandbox.url,
            PIX_APP_ID: sandbox.main.mainAppId,
            STORE_URL: `sqlite://${path.join(dir, 'data', 'store.sqlite')}`,
          });
        const runBare = () => firstAnswer(BARE_BOLT, {});
        let b: number;
        let s: number;
        if (i % 2 === 0) {
          b = await runBot();
          s = await runBare();
        } else {
          s = await runBare();
          b = await runBot();
        }
        bot.push(b);
        bare.push(s);
        ratios.push(b / s);
        rmSync(dir, { recursive: true, force: true });
      }
    } finally {
      await sandbox.stop();
      await slack.close();
    }
    const ratio = percentile(ratios, 50);
    return [
      {
        name: `start-up to first answer, bot / bare Bolt (median of ${ROUNDS} paired rounds)`,
        value: `${ratio.toFixed(2)}× (${percentile(bot, 50)} ms / ${percentile(bare, 50)} ms)`,
        bound: `≤ ${RATIO_BOUND}×`,
        ok: ratio <= RATIO_BOUND,
      },
      {
        name: `start-up to first answer, bot (slowest of ${ROUNDS})`,
        value: `${Math.max(...bot)} ms`,
        bound: `< ${START_BOUND_MS} ms`,
        ok: Math.max(...bot) < START_BOUND_MS,
      },
    ];
  },
);
