import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@keyv/redis';
import pg from 'pg';
import { APPROVAL_KINDS } from '../commands';
import { runApprovalTick } from '../src/approvals/tick';
import { SlackStandIn } from '../src/slack-standin/web-api';
import { schemaOf } from '../src/store/postgres/db';
import {
  ACK_WARM_UPS,
  benchmark,
  type Child,
  type Figure,
  percentile,
  pinCpus,
  RIG_START_MS,
  SLACK_ACK_MS,
  seedApprovals,
  signedCommandRequest,
  startBotInProcess,
  startBotProcess,
  WAIT_MARGIN,
} from './lib';
import { limitRequestsInReview, trackAll } from './poll-cycle';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const RATIO_BOUND = 1.15;
const QUERY_P99_BOUND_MS = 50;
const ACK_CONCURRENT = 100;
const ACK_ROUNDS = 15;
const POLL_REQUESTS = 2_000;
const POLL_TICKS = 3;
const APPROVALS = 200;
const APPROVAL_ROUNDS = 7;
const CHANNEL = 'C0BENCHSTORES';

type Kind = 'sqlite' | 'Redis' | 'Postgres';
const KINDS: Kind[] = ['sqlite', 'Redis', 'Postgres'];

/** Each backend's store for one run: its STORE_* variables, and how its state goes after. */
interface Backend {
  kind: Kind;
  env: Record<string, string>;
  dispose(): Promise<void>;
}

function backendsFor(label: string): Backend[] {
  const secret = randomBytes(24).toString('hex');
  const namespace = `pix-ops-bench-${label}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const dir = mkdtempSync(path.join(tmpdir(), `pix-ops-bench-${label}-`));
  return [
    {
      kind: 'sqlite',
      env: { STORE_URL: `sqlite://${path.join(dir, 'store.sqlite')}` },
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    },
    {
      kind: 'Redis',
      env: { STORE_URL: REDIS_URL, STORE_SECRET: secret, STORE_NAMESPACE: namespace },
      dispose: async () => {
        // SCAN for the namespace, never KEYS or FLUSHALL: the Redis is shared.
        const client = createClient({ url: REDIS_URL });
        await client.connect();
        for await (const keys of client.scanIterator({ MATCH: `${namespace}*`, COUNT: 1000 })) if (keys.length) await client.del(keys);
        await client.close();
      },
    },
    {
      kind: 'Postgres',
      env: { STORE_URL: POSTGRES_URL, STORE_SECRET: secret, STORE_NAMESPACE: namespace },
      dispose: async () => {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schemaOf(namespace)}" CASCADE`);
        await client.end();
      },
    },
  ];
}

/** Every statement this process sends to Postgres, timed from the call to its answer. */
function timeQueries(): { times: number[]; restore(): void } {
  const times: number[] = [];
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function timed(this: pg.Client, ...args: unknown[]) {
    const started = performance.now();
    const done = () => times.push(performance.now() - started);
    // The pool passes a callback (its answer then comes there); a caller of its own gets a promise.
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (...answer: unknown[]) => {
        done();
        return (callback as (...a: unknown[]) => unknown)(...answer);
      };
    }
    const result = (query as (...a: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise) void result.finally(done).catch(() => undefined);
    return result;
  } as typeof query;
  return {
    times,
    restore: () => {
      pg.Client.prototype.query = query;
    },
  };
}

const ratioFigure = (name: string, values: Record<Kind, number>, unit: string, digits: number): Figure => {
  const ratio = values.Postgres / values.Redis;
  return {
    name: `${name}: sqlite / Redis / Postgres`,
    value: `${KINDS.map((k) => values[k].toFixed(digits)).join(' / ')} ${unit} (Postgres ÷ Redis ${ratio.toFixed(2)})`,
    bound: `Postgres ≤ ${RATIO_BOUND} × Redis`,
    ok: ratio <= RATIO_BOUND,
  };
};

/**
 * `/pix help` under load on three bot processes, one per backend (each delivery's repeat check is a
 * claim in its store): 100 signed commands at once to each, in rounds whose order turns, so all three
 * meet the same machine. A backend's figure is the median over the rounds of its round's percentile.
 */
async function ackLatency(): Promise<Figure[]> {
  const slack = await new SlackStandIn().start();
  const backends = backendsFor('ack');
  const pinning = pinCpus();
  const bots: Array<Child & { port: number }> = [];
  try {
    for (const b of backends) {
      bots.push(
        await startBotProcess(
          { SLACK_API_URL: slack.apiUrl, ACCESS_VIEWERS: 'U0BENCH01', POLL_SCHEDULE: '0 0 1 1 *', ...b.env },
          'src/main.js',
          pinning?.apps,
        ),
      );
    }
    const burst = async (port: number, n: number) => {
      const requests = Array.from({ length: n }, (_, i) =>
        signedCommandRequest(port, 'U0BENCH01', 'help', slack.responseUrl(`store-ack-${i}`)),
      );
      return Promise.all(
        requests.map(async ({ url, init }) => {
          const started = performance.now();
          const res = await fetch(url, init);
          await res.text();
          if (res.status !== 200) throw new Error(`status ${res.status}`);
          return performance.now() - started;
        }),
      );
    };
    for (const bot of bots) {
      for (let i = 0; i < ACK_WARM_UPS; i++) await burst(bot.port, 1);
      await burst(bot.port, ACK_CONCURRENT);
    }
    const rounds: Record<Kind, { 50: number[]; 99: number[] }> = {
      sqlite: { 50: [], 99: [] },
      Redis: { 50: [], 99: [] },
      Postgres: { 50: [], 99: [] },
    };
    for (let r = 0; r < ACK_ROUNDS; r++) {
      for (let j = 0; j < KINDS.length; j++) {
        const i = (r + j) % KINDS.length;
        const times = await burst(bots[i]!.port, ACK_CONCURRENT);
        for (const p of [50, 99] as const) rounds[KINDS[i]!][p].push(percentile(times, p));
      }
    }
    const median = (p: 50 | 99) => Object.fromEntries(KINDS.map((k) => [k, percentile(rounds[k][p], 50)])) as Record<Kind, number>;
    return [
      ratioFigure(`slash ack under load (${ACK_CONCURRENT} at once, ${ACK_ROUNDS} rounds), median`, median(50), 'ms', 1),
      ratioFigure(`slash ack under load (${ACK_CONCURRENT} at once, ${ACK_ROUNDS} rounds), p99`, median(99), 'ms', 1),
    ];
  } finally {
    pinning?.restore();
    for (const bot of bots) await bot.stop();
    await slack.close();
    for (const b of backends) await b.dispose();
  }
}

/**
 * One poll tick of 2,000 requests in review, the bot in this process on each backend, the sandbox in
 * its own without added latency (so the store's part shows): the median of three ticks.
 */
async function pollTick(): Promise<Figure> {
  const fx = await limitRequestsInReview(POLL_REQUESTS);
  const slack = await new SlackStandIn().start();
  const backends = backendsFor('poll');
  const ticks = {} as Record<Kind, number>;
  try {
    for (const b of backends) {
      const app = await startBotInProcess({
        SLACK_API_URL: slack.apiUrl,
        PIX_API_URL: fx.sandbox.url,
        PIX_APP_ID: fx.sandbox.main.mainAppId,
        POLL_CONCURRENCY: '16',
        PIX_RATE_LIMIT: '1000',
        ...b.env,
      });
      try {
        await trackAll(app.deps.store, fx.requests);
        const seconds: number[] = [];
        for (let t = 0; t < POLL_TICKS; t++) {
          const started = performance.now();
          const report = await app.poller.tick();
          seconds.push((performance.now() - started) / 1000);
          if (report.pending !== POLL_REQUESTS) throw new Error(`${b.kind} tick: ${JSON.stringify(report)}`);
        }
        ticks[b.kind] = percentile(seconds, 50);
      } finally {
        await app.stopAll();
      }
    }
    return ratioFigure(`poll tick of ${POLL_REQUESTS} requests in review (median of ${POLL_TICKS})`, ticks, 's', 2);
  } finally {
    await slack.close();
    await fx.sandbox.stop();
    for (const b of backends) await b.dispose();
  }
}

/**
 * 200 approvals whose reminder is due, two instances ticking at the same moment on each backend, all
 * three rigs up at once: rounds in turning order (so all three meet the same machine, as the ack's
 * do), the time of a round (both ticks done); every reminder posted once. The figure is the median of
 * the rounds' Postgres ÷ Redis ratios, each backend's time the median of its rounds.
 */
async function approvalsRaced(): Promise<Figure[]> {
  const slack = await new SlackStandIn().start();
  const backends = backendsFor('approvals');
  const rigs: Array<{ kind: Kind; channel: string; instances: Awaited<ReturnType<typeof startBotInProcess>>[]; ids: string[] }> = [];
  try {
    for (const b of backends) {
      const env = { SLACK_API_URL: slack.apiUrl, APPROVALS: 'key-add', ...b.env };
      const instances = [await startBotInProcess(env), await startBotInProcess(env)];
      const channel = `${CHANNEL}${b.kind.toUpperCase()}`;
      const seeded = await seedApprovals(instances[0]!.deps.store, slack, channel, APPROVALS, 86_400_000);
      rigs.push({ kind: b.kind, channel, instances, ids: seeded.map((s) => s.id) });
    }
    const times = { sqlite: [], Redis: [], Postgres: [] } as Record<Kind, number[]>;
    let once = true;
    for (let round = 0; round < APPROVAL_ROUNDS; round++) {
      for (let j = 0; j < rigs.length; j++) {
        const rig = rigs[(round + j) % rigs.length]!;
        const store = rig.instances[0]!.deps.store;
        const due = new Date(Date.now() - 1_000).toISOString();
        // Each round the first reminder again (an approval has three at most), due now.
        for (const id of rig.ids) await store.approvals.update(id, (r) => ({ ...r, remindAt: due, reminders: 0 }));
        const before = slack.messages.length;
        const started = performance.now();
        await Promise.all(rig.instances.map((app) => runApprovalTick(app.deps, APPROVAL_KINDS, { stopping: () => false })));
        times[rig.kind].push(performance.now() - started);
        const posts = slack.messages
          .slice(before)
          .filter((m) => m.channel === rig.channel && m.metadata?.event_type === 'pix_approval_notice');
        once &&= posts.length === APPROVALS && new Set(posts.map((m) => m.thread_ts)).size === APPROVALS;
      }
    }
    const ratios = times.Postgres.map((ms, round) => ms / times.Redis[round]!);
    const ratio = percentile(ratios, 50);
    return [
      {
        name: `${APPROVALS} approvals' reminders raced by 2 instances (${APPROVAL_ROUNDS} rounds in turning order): sqlite / Redis / Postgres`,
        value: `${KINDS.map((k) => percentile(times[k], 50).toFixed(0)).join(' / ')} ms (Postgres ÷ Redis, median of the rounds' ${ratio.toFixed(2)})`,
        bound: `Postgres ≤ ${RATIO_BOUND} × Redis`,
        ok: ratio <= RATIO_BOUND,
      },
      {
        name: `${APPROVALS} approvals raced by 2 instances: each reminder posted once, on every backend`,
        value: once ? 'yes' : 'no',
        bound: 'once each',
        ok: once,
      },
    ];
  } finally {
    for (const rig of rigs) await Promise.all(rig.instances.map((app) => app.stopAll()));
    await slack.close();
    for (const b of backends) await b.dispose();
  }
}

/**
 * The stores side by side, in one run: what a Slack acknowledgement, a poll tick and an approval
 * tick cost on sqlite, Redis and Postgres, and every Postgres statement of the in-process parts timed.
 */
export const storeBackends = benchmark(
  // Per backend: its rig; the ack rounds at Slack's three seconds each; the poll ticks, each request's
  // read at the query bound (the sandbox adds no latency: a store round trip is what a call costs);
  // the approval rounds at the query bound per approval.
  WAIT_MARGIN *
    KINDS.length *
    (RIG_START_MS +
      ACK_ROUNDS * SLACK_ACK_MS +
      POLL_TICKS * POLL_REQUESTS * QUERY_P99_BOUND_MS +
      APPROVAL_ROUNDS * APPROVALS * QUERY_P99_BOUND_MS),
  async (): Promise<Figure[]> => {
    const figures = await ackLatency();
    const queries = timeQueries();
    try {
      figures.push(await pollTick());
      figures.push(...(await approvalsRaced()));
    } finally {
      queries.restore();
    }
    const p99 = percentile(queries.times, 99);
    figures.push({
      name: `Postgres statements of the poll ticks and the approvals (${queries.times.length}), p99`,
      value: `${p99.toFixed(1)} ms (median ${percentile(queries.times, 50).toFixed(2)}, max ${Math.max(...queries.times).toFixed(1)})`,
      bound: `≤ ${QUERY_P99_BOUND_MS} ms`,
      ok: p99 <= QUERY_P99_BOUND_MS,
    });
    return figures;
  },
);
