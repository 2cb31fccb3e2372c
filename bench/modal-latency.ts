import { absoluteFigure, infoFigure } from './judge';
import {
  benchmark,
  type Figure,
  onSlack,
  percentile,
  RIG_START_MS,
  SLACK_ACK_MS,
  sandboxControl,
  signedCommand,
  startRig,
  until,
  WAIT_MARGIN,
} from './lib';

const RUNS = 40;
const CONCURRENCY = 4;
const WARM_UPS = 3;
const PIX_LATENCY_MS = 2_000;
const P95_BOUND_MS = 300;

/**
 * `/pix limit request` with a Pix API that takes 2 s to answer anything: the modal must still open at
 * once. Measured from sending the signed command to the fake Slack receiving `views.open`.
 */
export const modalLatency = benchmark(
  // The rig's start, each round's modal at its bound, and the bot's last Pix calls before it stops.
  WAIT_MARGIN * (RIG_START_MS + (WARM_UPS + RUNS / CONCURRENCY) * P95_BOUND_MS + PIX_LATENCY_MS),
  async (): Promise<Figure[]> => {
    const { slack, sandbox, bot, close } = await startRig('U0BENCH01');
    await sandboxControl(sandbox.url, '/sandbox/faults', { latencyMs: PIX_LATENCY_MS });
    try {
      const once = async (i: number) => {
        const trigger = `bench-trigger-${i}`;
        const started = Date.now();
        await signedCommand(bot.port, 'U0BENCH01', 'limit request', slack.responseUrl(`r${i}`), trigger);
        // Past the trigger's life, Slack would refuse the views.open: no modal at all.
        const open = await until(
          'views.open',
          () => slack.calls.find((c) => c.method === 'views.open' && c.args.trigger_id === trigger),
          SLACK_ACK_MS,
          onSlack(slack),
        );
        return open.at - started;
      };
      for (let i = 0; i < WARM_UPS; i++) await once(-1 - i); // warm-up: auth.test, connections, JIT
      const latencies: number[] = [];
      for (let i = 0; i < RUNS; i += CONCURRENCY) {
        latencies.push(...(await Promise.all(Array.from({ length: CONCURRENCY }, (_, k) => once(i + k)))));
      }
      const p95 = percentile(latencies, 95);
      return [
        absoluteFigure({
          name: `modal latency p95 (Pix API +${PIX_LATENCY_MS} ms, ${RUNS} commands)`,
          value: p95,
          unit: 'ms',
          op: '<',
          bound: P95_BOUND_MS,
        }),
        infoFigure('modal latency median', `${percentile(latencies, 50)} ms`),
      ];
    } finally {
      await close();
    }
  },
);
