import { EventEmitter } from 'node:events';
import { SlackStandIn } from '../src/slack-standin/web-api';
import { openStore, type Store } from '../src/store';
import { absoluteFigure, countsFigure } from './judge';
import {
  benchmark,
  type Child,
  exposedGc,
  type Figure,
  inBatches,
  logLines,
  MiB,
  START_BOUND_MS,
  sandboxControl,
  startBotInProcess,
  startBotProcess,
  startSandboxProcess,
  until,
  WAIT_MARGIN,
} from './lib';

const REQUESTS = Number(process.env.BENCH_POLL_REQUESTS ?? 2_000);
const LATENCY_MS = 50;
const CONCURRENCY = 16;
const BOUND_S = (REQUESTS * LATENCY_MS) / CONCURRENCY / 1000;
/** A tick's bound: half again the ideal time of its reads. */
const TICK_BOUND_MS = 1.5 * BOUND_S * 1000;
const TICKS = 5;
const HEAP_SPREAD_BOUND_MIB = 4;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The Redis cycle's schedule: a tick every this many seconds (node-cron's seconds field). */
const POLL_EVERY_S = 10;
const POLL_EVERY_MS = POLL_EVERY_S * 1000;
/** Ticks the Redis cycle waits for. */
const REDIS_TICKS = 2;
/** How many set-up calls (the sandbox's accounts and requests, the store's records) are made at once. */
export const SETUP_CONCURRENCY = 16;

/**
 * What setting up `calls` calls takes (`concurrency` at once), each counted at the cycle's own latency
 * per call (LATENCY_MS, far above a local call's): set-up is held to no bound of its own.
 */
export const setupMs = (calls: number, concurrency = SETUP_CONCURRENCY) => (calls * LATENCY_MS) / concurrency;
/** limitRequestsInReview(count): the sandbox's start, then an account and a request for each. */
export const fixtureMs = (count: number) => START_BOUND_MS + setupMs(2 * count);

type Sandbox = Awaited<ReturnType<typeof startSandboxProcess>>;
interface Fixture {
  sandbox: Sandbox;
  requests: Array<{ id: string; accountId: string }>;
}

const PDF = Buffer.from('%PDF-1.4\n% bench proof\n%%EOF\n', 'latin1');

/** A call to the sandbox's Pix API; its JSON answer, taken to be of the shape `T` the caller names. */
async function pix<T>(sandbox: Sandbox, method: string, pathname: string, appId: string, body?: unknown): Promise<T> {
  const res = await fetch(`${sandbox.url}${pathname}`, {
    method,
    headers: { authorization: appId, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json: unknown = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${pathname}: ${res.status} ${JSON.stringify(json)}`);
  return json as T;
}

/**
 * The sandbox in a process of its own with `count` limit requests in review, one per account (the
 * service allows one in review per account), all with the same proof.
 */
export async function limitRequestsInReview(count: number): Promise<Fixture> {
  const sandbox = await startSandboxProcess();
  const main = sandbox.main;
  const form = new FormData();
  form.append('purpose', 'ACCOUNT_LIMIT_REQUEST');
  form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'proof.pdf');
  const up = await fetch(`${sandbox.url}/api/v1/files`, { method: 'POST', headers: { authorization: main.mainAppId }, body: form });
  const fileId = ((await up.json()) as { file: { id: string } }).file.id;
  const requests = await inBatches(count, SETUP_CONCURRENCY, async () => {
    const { account } = await pix<{ account: { accountId: string } }>(sandbox, 'POST', '/api/v1/account', main.masterAppId);
    const { limitRequest } = await pix<{ limitRequest: { id: string } }>(sandbox, 'POST', '/api/v1/limits/request', main.mainAppId, {
      companyBankAccountId: account.accountId,
      pixDayLimit: 10_000_000,
      pixNightLimit: 2_000_000,
      documents: [{ fileId }],
    });
    return { id: limitRequest.id, accountId: account.accountId };
  });
  await sandboxControl(sandbox.url, '/sandbox/calls', undefined, 'DELETE');
  return { sandbox, requests };
}

export async function trackAll(store: Store, requests: Fixture['requests']): Promise<void> {
  await inBatches(requests.length, SETUP_CONCURRENCY, (i) =>
    store.trackedRequests.track({
      limitRequestId: requests[i]!.id,
      accountId: requests[i]!.accountId,
      requesterId: 'U0BENCH01',
      channel: 'C0BENCH',
      rootTs: `1700000000.${String(i).padStart(6, '0')}`,
      requested: { pixDayLimit: 10_000_000, pixNightLimit: 2_000_000 },
      documents: [{ fileName: 'proof.pdf', contentType: 'application/pdf' }],
      source: 'filed',
    }),
  );
}

/**
 * The poll cycle: the bot in this process (sqlite store), the sandbox in its own with 50 ms on
 * every call, 2,000 tracked requests, POLL_CONCURRENCY 16. Each of five ticks is timed; the heap
 * after a full GC at ticks 2..5 shows whether a tick leaves anything behind.
 */
async function sqliteCycle(fx: Fixture): Promise<Figure[]> {
  const gc = exposedGc();
  const slack = await new SlackStandIn().start();
  const app = await startBotInProcess({
    SLACK_API_URL: slack.apiUrl,
    PIX_API_URL: fx.sandbox.url,
    PIX_APP_ID: fx.sandbox.main.mainAppId,
    POLL_CONCURRENCY: String(CONCURRENCY),
    // What a tick itself costs, not the Pix budget (bench/pix-budget.ts): a budget that never binds.
    PIX_RATE_LIMIT: '1000',
  });
  try {
    await trackAll(app.deps.store, fx.requests);
    await sandboxControl(fx.sandbox.url, '/sandbox/faults', { latencyMs: LATENCY_MS });
    const seconds: number[] = [];
    const heaps: number[] = [];
    for (let t = 1; t <= TICKS; t++) {
      const started = process.hrtime.bigint();
      const report = await app.poller.tick();
      seconds.push(Number(process.hrtime.bigint() - started) / 1e9);
      if (report.pending !== REQUESTS) throw new Error(`tick ${t}: ${JSON.stringify(report)}`);
      gc();
      gc();
      heaps.push(process.memoryUsage().heapUsed);
    }
    const slowest = Math.max(...seconds);
    const steady = heaps.slice(1);
    const spread = (Math.max(...steady) - Math.min(...steady)) / MiB;
    return [
      absoluteFigure({
        name: `poll cycle, sqlite: one tick, ${REQUESTS} requests, +${LATENCY_MS} ms, concurrency ${CONCURRENCY} (slowest of ${TICKS}), against 1.5× the pace's ${BOUND_S} s`,
        value: slowest,
        unit: 's',
        op: '≤',
        bound: TICK_BOUND_MS / 1000,
        digits: 2,
      }),
      absoluteFigure({
        name: `poll cycle, sqlite: heap after GC, ticks 2..${TICKS} (max − min)`,
        value: spread,
        unit: 'MiB',
        op: '≤',
        bound: HEAP_SPREAD_BOUND_MIB,
        digits: 2,
        detail: steady.map((h) => (h / MiB).toFixed(1)).join(' / '),
      }),
    ];
  } finally {
    await sandboxControl(fx.sandbox.url, '/sandbox/faults', undefined, 'DELETE');
    await app.stopAll();
    await slack.close();
  }
}

/** The bots' start, then REDIS_TICKS ticks of the schedule, the last of them taking up to its bound (with the margin). */
const REDIS_TICKS_WAIT_MS = WAIT_MARGIN * START_BOUND_MS + REDIS_TICKS * POLL_EVERY_MS + WAIT_MARGIN * TICK_BOUND_MS;

/**
 * Two bot processes on one Redis, every POLL_EVERY_S seconds: each tick runs on one instance only and polls all
 * 2,000 requests (N = 2,000, the same bound as above). Timed by the bots' own tick log lines.
 */
async function redisCycle(fx: Fixture): Promise<Figure[]> {
  const namespace = `pix-ops-bench-${process.pid}-${Date.now().toString(36)}`;
  const secret = 'b'.repeat(40);
  const store = await openStore({ url: REDIS_URL, secret, namespace });
  const slack = await new SlackStandIn().start();
  const bots: Child[] = [];
  try {
    await trackAll(store, fx.requests);
    await sandboxControl(fx.sandbox.url, '/sandbox/faults', { latencyMs: LATENCY_MS });
    const env = {
      SLACK_API_URL: slack.apiUrl,
      PIX_API_URL: fx.sandbox.url,
      PIX_APP_ID: fx.sandbox.main.mainAppId,
      STORE_URL: REDIS_URL,
      STORE_SECRET: secret,
      STORE_NAMESPACE: namespace,
      POLL_SCHEDULE: `*/${POLL_EVERY_S} * * * * *`,
      POLL_CONCURRENCY: String(CONCURRENCY),
      PIX_RATE_LIMIT: '1000',
    };
    bots.push(...(await Promise.all([startBotProcess(env), startBotProcess(env)])));
    const ticks = () =>
      bots.flatMap((bot, i) =>
        logLines(bot)
          .filter((l) => l.msg === 'limit request poll tick')
          .map((l) => ({ bot: i, at: Number(l.time), ...(l.poll as { polled: number; pending: number; ms: number }) })),
      );
    await until('the Redis cycle’s poll ticks', () => ticks().length >= REDIS_TICKS, REDIS_TICKS_WAIT_MS, {
      emitter: mergedOutput(bots),
      events: ['output'],
    });
    const done = ticks().sort((a, b) => a.at - b.at);
    // One instance per tick: ticks (POLL_EVERY_S apart) never come in pairs, and each polled everything.
    const slots = new Set(done.map((t) => Math.round((t.at - t.ms) / POLL_EVERY_MS)));
    const exclusive = slots.size === done.length && done.every((t) => t.polled === REQUESTS && t.pending === REQUESTS);
    const slowest = Math.max(...done.map((t) => t.ms)) / 1000;
    return [
      absoluteFigure({
        name: `poll cycle, Redis, 2 instances: one tick of ${REQUESTS} (slowest of ${done.length}), against 1.5× the pace's ${BOUND_S} s`,
        value: slowest,
        unit: 's',
        op: '≤',
        bound: TICK_BOUND_MS / 1000,
        digits: 2,
      }),
      countsFigure({
        name: 'poll cycle, Redis, 2 instances: ticks, each run by one instance and polling every request',
        value: `${done.length} ticks, by ${done.map((t) => `#${t.bot + 1}`).join(', ')}${exclusive ? '' : ' (overlap!)'}`,
        bound: 'one instance each',
        ok: exclusive,
      }),
    ];
  } finally {
    await Promise.all(bots.map((b) => b.stop()));
    await sandboxControl(fx.sandbox.url, '/sandbox/faults', undefined, 'DELETE');
    await store.close();
    await deleteNamespace(namespace);
    await slack.close();
  }
}

/** One emitter for several children's output: a wait on what any of them writes. */
function mergedOutput(children: Child[]): EventEmitter {
  const merged = new EventEmitter();
  for (const child of children) child.events.on('output', () => merged.emit('output'));
  return merged;
}

async function deleteNamespace(namespace: string): Promise<void> {
  const { createClient } = await import('@keyv/redis');
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${namespace}*`, COUNT: 1000 })) if (keys.length) await client.del(keys);
  } finally {
    await client.close();
  }
}

export const pollCycle = benchmark(
  // The fixture; on sqlite, the requests tracked and TICKS ticks at their bound; on Redis, the same
  // requests tracked and the wait for REDIS_TICKS ticks.
  WAIT_MARGIN * (fixtureMs(REQUESTS) + 2 * setupMs(REQUESTS) + TICKS * TICK_BOUND_MS) + REDIS_TICKS_WAIT_MS,
  async (): Promise<Figure[]> => {
    const fx = await limitRequestsInReview(REQUESTS);
    try {
      return [...(await sqliteCycle(fx)), ...(await redisCycle(fx))];
    } finally {
      await fx.sandbox.stop();
    }
  },
);
