import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SlackStandIn } from '../src/slack-standin/web-api';
import { ratioFigure } from './judge';
import {
  BARE_BOLT,
  benchmark,
  type Figure,
  pairedAckRounds,
  pairedAckRoundsMs,
  pinCpus,
  START_BOUND_MS,
  startBotProcess,
  startSandboxProcess,
  WAIT_MARGIN,
} from './lib';

const CONCURRENT = 200;
const ROUNDS = 30;
const BOUND = 1.2;

/**
 * `/pix help` under load: 200 signed commands at once, against the bot and against a bare Bolt app
 * (bench/bare-bolt.ts), and a second one for the null ratio, all in child processes, in paired rounds
 * (see pairedAckRounds).
 */
export const ackLatency = benchmark(
  // Four processes started (the sandbox, the bot, the bare app twice), then the rounds.
  WAIT_MARGIN * 4 * START_BOUND_MS + pairedAckRoundsMs(ROUNDS),
  async (): Promise<Figure[]> => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-bench-ack-'));
    const slack = await new SlackStandIn().start();
    const sandbox = await startSandboxProcess();
    const common = { SLACK_API_URL: slack.apiUrl, LOG_LEVEL: 'info' };
    // The apps on one CPU, this process (the client) on the other, when the machine allows it.
    const pinning = pinCpus();
    const bot = await startBotProcess(
      {
        ...common,
        PIX_API_URL: sandbox.url,
        PIX_APP_ID: sandbox.main.mainAppId,
        STORE_URL: `sqlite://${path.join(dir, 'store.sqlite')}`,
        ACCESS_VIEWERS: 'U0BENCH01',
        POLL_SCHEDULE: '0 0 1 1 *',
      },
      'src/main.js',
      pinning?.apps,
    );
    const bare = await startBotProcess(common, BARE_BOLT, pinning?.apps);
    // The null's second baseline: the bare app against itself.
    const bareAgain = await startBotProcess(common, BARE_BOLT, pinning?.apps);
    try {
      const result = await pairedAckRounds({
        ours: bot,
        theirs: bare,
        theirsAgain: bareAgain,
        userId: 'U0BENCH01',
        text: 'help',
        slack,
        rounds: ROUNDS,
        concurrent: CONCURRENT,
      });
      const figure = (p: 50 | 99, label: string): Figure => {
        const pooled = result.pooled(p);
        return ratioFigure({
          name: `slash ack under load (${CONCURRENT} at once, ${ROUNDS} paired rounds): ${label} vs bare Bolt`,
          ratios: result.ratios(p),
          nulls: result.nulls(p),
          bound: BOUND,
          detail: `all rounds: ${pooled.ours.toFixed(0)} / ${pooled.theirs.toFixed(0)} ms`,
        });
      };
      return [figure(50, 'median'), figure(99, 'p99')];
    } finally {
      pinning?.restore();
      await bot.stop();
      await bare.stop();
      await bareAgain.stop();
      await sandbox.stop();
      await slack.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
