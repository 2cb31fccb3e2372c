import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SlackStandIn } from '../src/slack-standin/web-api';
import { absoluteFigure, ratioFigure } from './judge';
import {
  BARE_BOLT,
  benchmark,
  type Figure,
  pairedRounds,
  percentile,
  START_BOUND_MS,
  signedCommand,
  startBotProcess,
  startSandboxProcess,
  WAIT_MARGIN,
} from './lib';

/** Paired rounds; the bound is meant for the default (BENCH_STARTUP_ROUNDS, as the other sizes). */
const ROUNDS = Number(process.env.BENCH_STARTUP_ROUNDS ?? 8);
const RATIO_BOUND = 1.5;

/**
 * Start-up: from spawning the process to its first answer (a signed `/pix help` acknowledged), for
 * the bot as `npm start` runs it (sqlite store in a fresh data folder: the first start, which creates
 * the store secret; the Pix API outside, so no built-in sandbox) and for a bare Bolt app
 * (`bench/bare-bolt.ts`), in paired rounds (lib.ts's pairedRounds: the bot once, the bare app twice,
 * its second start over its first the null ratio).
 */
export const startup = benchmark(
  // The sandbox's start, then three starts a round, each at its bound.
  WAIT_MARGIN * (1 + 3 * ROUNDS) * START_BOUND_MS,
  async (): Promise<Figure[]> => {
    const slack = await new SlackStandIn().start();
    const sandbox = await startSandboxProcess();
    const dirs: string[] = [];
    const firstAnswer = async (script: string, env: Record<string, string>) => {
      const started = performance.now();
      const child = await startBotProcess({ SLACK_API_URL: slack.apiUrl, ...env }, script);
      const res = await signedCommand(child.port, 'U0BENCH', 'help', slack.responseUrl('startup'));
      if (res.status !== 200) throw new Error(`${script} answered ${res.status}`);
      const ms = performance.now() - started;
      await child.stop();
      return ms;
    };
    try {
      const rounds = await pairedRounds(ROUNDS, {
        ours: () => {
          const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-bench-start-'));
          dirs.push(dir);
          return firstAnswer('src/main.js', {
            PIX_API_URL: sandbox.url,
            PIX_APP_ID: sandbox.main.mainAppId,
            STORE_URL: `sqlite://${path.join(dir, 'data', 'store.sqlite')}`,
          });
        },
        base: () => firstAnswer(BARE_BOLT, {}),
      });
      const slowest = Math.max(...rounds.ours);
      return [
        ratioFigure({
          name: `start-up to first answer, bot / bare Bolt (median of ${ROUNDS} paired rounds)`,
          ratios: rounds.ratios,
          nulls: rounds.nulls,
          bound: RATIO_BOUND,
          detail: `${percentile(rounds.ours, 50).toFixed(0)} ms / ${percentile(rounds.base, 50).toFixed(0)} ms`,
        }),
        absoluteFigure({
          name: `start-up to first answer, bot (slowest of ${ROUNDS})`,
          value: slowest,
          unit: 'ms',
          op: '<',
          bound: START_BOUND_MS,
        }),
      ];
    } finally {
      await sandbox.stop();
      await slack.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  },
);
