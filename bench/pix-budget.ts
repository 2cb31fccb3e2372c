import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningApp } from '../src/app';
import { WINDOW_MS } from '../src/pix/budget';
import { SlackStandIn } from '../src/slack-standin/web-api';
import { openStore } from '../src/store';
import { absoluteFigure, countFigure, ratioFigure } from './judge';
import {
  BOT_TOKEN,
  benchmark,
  type Figure,
  onSlack,
  pairedAckRounds,
  pairedAckRoundsMs,
  pause,
  percentile,
  pinCpus,
  START_BOUND_MS,
  sandboxControl,
  signedCommand,
  startBotInProcess,
  startBotProcess,
  startSandboxProcess,
  until,
  WAIT_MARGIN,
} from './lib';
import { fixtureMs, limitRequestsInReview, setupMs, trackAll } from './poll-cycle';

const REQUESTS = Number(process.env.BENCH_BUDGET_REQUESTS ?? 2_000);
const RATE = 50;
/** The sandbox Pix API's own limit, per AppID: above the budget, as the company's allowance would be. */
const SERVICE_RATE = 60;
const TIME_BOUND = 1.1;
const PEAK_BOUND = RATE + 1;
const PERSON_BOUND = 1.5;
const PERSON = 'U0BENCHPER';
const PERSON_SAMPLES = 7;
/** The Pix calls of a person's `/pix limits`, one after the other: the accounts (for the default one), then its limits. */
const PERSON_CALLS = 2;
/** A person's answer: each of their calls admitted within one window of the budget, with the margin. */
const PERSON_WAIT_MS = WAIT_MARGIN * PERSON_CALLS * WINDOW_MS;
/** What the API's allowance counts: calls in any one second. */
const SECOND_MS = 1000;
/** A sweep's ideal time: its reads at the budget's rate. */
const idealMs = (reads: number) => (reads / RATE) * SECOND_MS;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ACK_ROUNDS = Number(process.env.BENCH_METRICS_ROUNDS ?? 20);
const ACK_CONCURRENT = 200;
const ACK_BOUND = 1.05;

type Fixture = Awaited<ReturnType<typeof limitRequestsInReview>>;
interface LoggedCall {
  method: string;
  path: string;
  at: number;
}

/** The most calls the sandbox Pix API received in any one-second window. */
function peakPerSecond(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! >= SECOND_MS) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

/** `/pix limits` from the bench's person, timed from sending to its answer reaching the response_url. */
async function personLimits(app: RunningApp, slack: SlackStandIn, n: number): Promise<number> {
  const id = `person-${n}-${Math.random().toString(36).slice(2)}`;
  const started = Date.now();
  const res = await signedCommand(app.port!, PERSON, 'limits', slack.responseUrl(id));
  await res.text();
  const answer = await until('the person’s answer', () => slack.responsesTo(id)[0], PERSON_WAIT_MS, onSlack(slack));
  return answer.at - started;
}

/**
 * The person's next command, a window of the budget after the last one: one person's interaction at a
 * time, as people work (the places of a window left to people stay taken for that window), the same
 * idle and during the sweep.
 */
async function personSample(app: RunningApp, slack: SlackStandIn, n: number): Promise<number> {
  const ms = await personLimits(app, slack, n);
  await pause(WINDOW_MS);
  return ms;
}

async function personSamples(app: RunningApp, slack: SlackStandIn, count: number, first: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push(await personSample(app, slack, first + i));
  return out;
}

/**
 * One sweep of every tracked request by `apps` at once (each reads all of them), against the
 * sandbox Pix API limited to SERVICE_RATE a second per AppID; the person's `/pix limits` answered
 * during it, against the same command while nothing else runs, before it. The k-th command during the
 * sweep over the k-th before is a round's ratio; the k-th after the sweep (idle again) over the k-th
 * before, its null ratio.
 */
async function sweep(label: string, fx: Fixture, apps: RunningApp[], slack: SlackStandIn, reads: number): Promise<Figure[]> {
  const [first] = apps;
  // The budget's window is empty of the idle commands' calls when the sweep starts.
  // The person's first commands warm the path up (the HTTP client, the JIT): not counted, or the idle
  // samples would be the cold ones.
  await personSamples(first!, slack, PERSON_SAMPLES, 3 * PERSON_SAMPLES);
  const idle = await personSamples(first!, slack, PERSON_SAMPLES, 0);
  await sandboxControl(fx.sandbox.url, '/sandbox/calls', undefined, 'DELETE');
  await sandboxControl(fx.sandbox.url, '/sandbox/faults', { rateLimit: { perSecond: SERVICE_RATE, retryAfter: 1 } });
  const started = Date.now();
  let done = false;
  const ticks = Promise.all(apps.map((a) => a.poller.tick())).finally(() => (done = true));
  // The person asks once the sweep is at its pace (a window's worth of its reads at the API), a few
  // times while it lasts. The sandbox is another process: looked at once a read's time at that pace.
  await until(
    'the sweep at its pace',
    async () =>
      ((await sandboxControl(fx.sandbox.url, '/sandbox/calls', undefined, 'GET')) as { calls: LoggedCall[] }).calls.length >= RATE,
    WAIT_MARGIN * idealMs(reads),
    { everyMs: SECOND_MS / RATE },
  );
  const busy: number[] = [];
  while (!done && busy.length < PERSON_SAMPLES) busy.push(await personSample(first!, slack, PERSON_SAMPLES + busy.length));
  const reports = await ticks;
  const seconds = (Date.now() - started) / 1000;
  if (reports.some((r) => r.polled !== fx.requests.length || r.pending !== fx.requests.length))
    throw new Error(`${label}: ${JSON.stringify(reports)}`);
  const logged = (await sandboxControl(fx.sandbox.url, '/sandbox/calls', undefined, 'GET')) as { calls: LoggedCall[] };
  const faults = (await sandboxControl(fx.sandbox.url, '/sandbox/faults', {})) as { faults: { rateLimited: number } };
  await sandboxControl(fx.sandbox.url, '/sandbox/faults', undefined, 'DELETE');
  // Idle again, as before the sweep: the null ratio's second runs.
  const after = await personSamples(first!, slack, PERSON_SAMPLES, 2 * PERSON_SAMPLES);
  const readCalls = logged.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/api/v1/limits/request/'));
  const peak = peakPerSecond(logged.calls.map((c) => c.at));
  const ideal = idealMs(reads) / SECOND_MS;
  return [
    absoluteFigure({
      name: `Pix budget, ${label}: sweep of ${reads} reads at PIX_RATE_LIMIT=${RATE}, against ${TIME_BOUND}× the pace's ${ideal} s`,
      value: seconds,
      unit: 's',
      op: '≤',
      bound: TIME_BOUND * ideal,
      digits: 1,
      detail: `${(seconds / ideal).toFixed(2)}× the pace`,
    }),
    countFigure({ name: `Pix budget, ${label}: reads of the requests at the Pix API`, value: readCalls.length, op: '=', bound: reads }),
    countFigure({ name: `Pix budget, ${label}: peak calls in any 1 s window at the Pix API`, value: peak, op: '≤', bound: PEAK_BOUND }),
    countFigure({
      name: `Pix budget, ${label}: 429s from a Pix API limited to ${SERVICE_RATE}/s`,
      value: faults.faults.rateLimited,
      op: '=',
      bound: 0,
    }),
    countFigure({
      name: `Pix budget, ${label}: a person's /pix limits answered during the sweep`,
      value: busy.length,
      op: '=',
      bound: PERSON_SAMPLES,
    }),
    // None answered during the sweep (the count above says so): no ratio to judge.
    ...(busy.length === 0
      ? []
      : [
          ratioFigure({
            name: `Pix budget, ${label}: a person's /pix limits during the sweep vs idle (${busy.length} paired)`,
            ratios: busy.map((ms, i) => ms / idle[i]!),
            nulls: busy.map((_, i) => after[i]! / idle[i]!),
            bound: PERSON_BOUND,
            detail: `medians ${percentile(busy, 50)} / ${percentile(idle, 50)} ms, after ${percentile(after, 50)} ms`,
          }),
        ]),
  ];
}

const appEnv = (fx: Fixture, slack: SlackStandIn) => ({
  SLACK_API_URL: slack.apiUrl,
  PIX_API_URL: fx.sandbox.url,
  PIX_APP_ID: fx.sandbox.main.mainAppId,
  PIX_RATE_LIMIT: String(RATE),
  // Enough reads in flight for the budget to be what paces the sweep, not the answers' latency on a
  // loaded machine (at 50 a second, 16 in flight cover answers of up to 320 ms).
  POLL_CONCURRENCY: '16',
  ACCESS_VIEWERS: PERSON,
});

async function sqliteSweep(fx: Fixture): Promise<Figure[]> {
  const slack = await new SlackStandIn().start();
  slack.botToken = BOT_TOKEN;
  const app = await startBotInProcess(appEnv(fx, slack));
  try {
    await trackAll(app.deps.store, fx.requests);
    return await sweep('sqlite, 1 instance', fx, [app], slack, REQUESTS);
  } finally {
    await app.stopAll();
    await slack.close();
  }
}

/** Two instances on one Redis, sweeping half as many requests each at the same moment: the same reads in all. */
async function redisSweep(fx: Fixture): Promise<Figure[]> {
  const namespace = `pix-ops-bench-budget-${process.pid}-${Date.now().toString(36)}`;
  const secret = 'b'.repeat(40);
  const store = await openStore({ url: REDIS_URL, secret, namespace });
  const slack = await new SlackStandIn().start();
  slack.botToken = BOT_TOKEN;
  const env = { ...appEnv(fx, slack), STORE_URL: REDIS_URL, STORE_SECRET: secret, STORE_NAMESPACE: namespace };
  const apps = await Promise.all([startBotInProcess(env), startBotInProcess(env)]);
  try {
    const half = fx.requests.slice(0, Math.floor(REQUESTS / 2));
    await trackAll(store, half);
    return await sweep('Redis, 2 instances', { ...fx, requests: half }, apps, slack, half.length * 2);
  } finally {
    await Promise.all(apps.map((a) => a.stopAll()));
    await store.close();
    const { createClient } = await import('@keyv/redis');
    const client = createClient({ url: REDIS_URL });
    await client.connect();
    for await (const keys of client.scanIterator({ MATCH: `${namespace}*`, COUNT: 1000 })) if (keys.length) await client.del(keys);
    await client.close();
    await slack.close();
  }
}

/** The sweeps: one instance on sqlite, then two on Redis, against one sandbox Pix API limited to SERVICE_RATE a second. */
export const pixBudget = benchmark(
  // The fixture; each sweep's requests tracked, the person's idle commands and the sweep at its bound.
  WAIT_MARGIN *
    (fixtureMs(REQUESTS) + 2 * (setupMs(REQUESTS) + 3 * PERSON_SAMPLES * (PERSON_CALLS + 1) * WINDOW_MS + TIME_BOUND * idealMs(REQUESTS))),
  async (): Promise<Figure[]> => {
    const fx = await limitRequestsInReview(REQUESTS);
    try {
      return [...(await sqliteSweep(fx)), ...(await redisSweep(fx))];
    } finally {
      await fx.sandbox.stop();
    }
  },
);

/**
 * What metrics cost an acknowledgement: 200 signed `/pix help` at once against the bot with metrics
 * (and /metrics served on HEALTH_PORT) and the same bot counting nothing
 * (bench/bot-no-metrics.ts, twice: the null's second baseline), all in child processes, in paired
 * rounds (see pairedAckRounds).
 */
export const metricsAck = benchmark(
  // Four processes started (the sandbox, the three bots), then the rounds.
  WAIT_MARGIN * 4 * START_BOUND_MS + pairedAckRoundsMs(ACK_ROUNDS),
  async (): Promise<Figure[]> => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-bench-metrics-'));
    const slack = await new SlackStandIn().start();
    const sandbox = await startSandboxProcess();
    const pinning = pinCpus();
    const env = (file: string) => ({
      SLACK_API_URL: slack.apiUrl,
      LOG_LEVEL: 'info',
      PIX_API_URL: sandbox.url,
      PIX_APP_ID: sandbox.main.mainAppId,
      STORE_URL: `sqlite://${path.join(dir, file)}`,
      ACCESS_VIEWERS: PERSON,
      POLL_SCHEDULE: '0 0 1 1 *',
      HEALTH_PORT: '0',
    });
    const on = await startBotProcess(env('on.sqlite'), 'src/main.js', pinning?.apps);
    const off = await startBotProcess(env('off.sqlite'), 'bench/bot-no-metrics.js', pinning?.apps);
    // The null's second baseline: the bot counting nothing, against itself.
    const offAgain = await startBotProcess(env('off-again.sqlite'), 'bench/bot-no-metrics.js', pinning?.apps);
    try {
      const result = await pairedAckRounds({
        ours: on,
        theirs: off,
        theirsAgain: offAgain,
        userId: PERSON,
        text: 'help',
        slack,
        rounds: ACK_ROUNDS,
        concurrent: ACK_CONCURRENT,
      });
      const figure = (p: 50 | 99, label: string): Figure => {
        const pooled = result.pooled(p);
        return ratioFigure({
          name: `metrics on vs off: slash ack ${label} (${ACK_CONCURRENT} at once, ${ACK_ROUNDS} paired rounds)`,
          ratios: result.ratios(p),
          nulls: result.nulls(p),
          bound: ACK_BOUND,
          detail: `all rounds: ${pooled.ours.toFixed(0)} / ${pooled.theirs.toFixed(0)} ms`,
        });
      };
      return [figure(50, 'median'), figure(99, 'p99')];
    } finally {
      pinning?.restore();
      await Promise.all([on.stop(), off.stop(), offAgain.stop()]);
      await sandbox.stop();
      await slack.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
