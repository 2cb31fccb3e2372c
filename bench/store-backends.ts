import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@keyv/redis';
import pg from 'pg';
import { APPROVAL_KINDS } from '../commands';
import { runApprovalTick } from '../src/approvals/tick';
import type { Deps } from '../src/deps';
import { SlackStandIn } from '../src/slack-standin/web-api';
import { schemaOf } from '../src/store/postgres/db';
import { absoluteFigure, countFigure, countsFigure, ratioFigure } from './judge';
import {
  ACK_WARM_UPS,
  APPROVAL_TTL_MS,
  benchmark,
  beyondSlack,
  type Child,
  type ClaimSpan,
  callsByApproval,
  type Figure,
  percentile,
  pinCpus,
  roundOrder,
  SLACK_ACK_MS,
  START_BOUND_MS,
  seedApprovals,
  signedCommandRequest,
  startBotInProcess,
  startBotProcess,
  timedApprovalClaims,
  WAIT_MARGIN,
} from './lib';
import { PgWireCounter, type WireStatement } from './pg-wire';
import { fixtureMs, limitRequestsInReview, setupMs, trackAll } from './poll-cycle';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** PostgreSQL against Redis, for the acknowledgement and the poll tick (both in-memory work for Redis, a commit or none for PostgreSQL). */
const RATIO_BOUND = 1.15;
const QUERY_P99_BOUND_MS = 50;
const HANDLING_P95_BOUND_MS = 50;
const ACK_CONCURRENT = 100;
const ACK_ROUNDS = 16;
const POLL_REQUESTS = 2_000;
const POLL_ROUNDS = 4;
/** The poll tick's budget (PIX_RATE_LIMIT): it never binds the store, and paces the tick at a read a millisecond. */
const POLL_RATE = 1_000;
/** A poll tick at that pace. */
const POLL_TICK_PACE_MS = (POLL_REQUESTS / POLL_RATE) * 1000;
const APPROVALS = 200;
const APPROVAL_ROUNDS = 3;
/** Slack calls one reminder makes: its post in the approval's thread. */
const SLACK_CALLS_PER_REMINDER = 1;
/**
 * PostgreSQL statements one reminder takes part in, an instance alone, read on the wire: its claim
 * (one statement with the other claims asked at the same moment), the read of its record, its two
 * writes (the reminder's number before the post, the next one's time after it), its release. A change
 * of the store's statements changes this number, and the bound with it.
 */
const STATEMENTS_PER_REMINDER = 5;
/**
 * A tick's own statements at most, whatever is due: the count of the open approvals, the due ones'
 * ids, the delegations in force, and the lapsed claims deleted in passing (at most once a minute).
 */
const TICK_STATEMENTS = 4;
const CHANNEL = 'C0BENCHSTORES';

type Kind = 'sqlite' | 'Redis' | 'Postgres';
const KINDS: Kind[] = ['sqlite', 'Redis', 'Postgres'];

/** Each backend's store for one run: its STORE_* variables, and how its state goes after. */
interface Backend {
  kind: Kind;
  env: Record<string, string>;
  dispose(): Promise<void>;
}

/** A store in Redis under `namespace`, removed after by a SCAN for it (never KEYS or FLUSHALL: the Redis is shared). */
function redisBackend(namespace: string, secret: string): Backend {
  return {
    kind: 'Redis',
    env: { STORE_URL: REDIS_URL, STORE_SECRET: secret, STORE_NAMESPACE: namespace },
    dispose: async () => {
      const client = createClient({ url: REDIS_URL });
      await client.connect();
      for await (const keys of client.scanIterator({ MATCH: `${namespace}*`, COUNT: 1000 })) if (keys.length) await client.del(keys);
      await client.close();
    },
  };
}

/**
 * The three backends (and, with `again`, a second Redis store: the ratio's null baseline, a process
 * or an app of its own as the others are); PostgreSQL reached through `wire` when given (its
 * statements counted there), else directly (where a ratio is taken: the proxy's hop would weigh on
 * PostgreSQL's side alone).
 */
function backendsFor(label: string, options: { wire?: PgWireCounter; again?: boolean } = {}): Backend[] {
  const { wire } = options;
  const secret = randomBytes(24).toString('hex');
  const namespace = `pix-ops-bench-${label}-${process.pid}-${randomBytes(3).toString('hex')}`;
  const dir = mkdtempSync(path.join(tmpdir(), `pix-ops-bench-${label}-`));
  return [
    {
      kind: 'sqlite',
      env: { STORE_URL: `sqlite://${path.join(dir, 'store.sqlite')}` },
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    },
    redisBackend(namespace, secret),
    {
      kind: 'Postgres',
      env: { STORE_URL: wire ? wire.through(POSTGRES_URL) : POSTGRES_URL, STORE_SECRET: secret, STORE_NAMESPACE: namespace },
      dispose: async () => {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schemaOf(namespace)}" CASCADE`);
        await client.end();
      },
    },
    ...(options.again ? [redisBackend(`${namespace}-again`, secret)] : []),
  ];
}

/** Which backend each run of a round is: PostgreSQL against Redis, a second Redis the null's, sqlite shown beside them. */
type Run = 'sqlite' | 'ours' | 'base' | 'again';
const RUN_OF_BACKEND: Run[] = ['sqlite', 'base', 'ours', 'again'];

/**
 * The order of a round's four runs: PostgreSQL, Redis and the second Redis in roundOrder (the ratio
 * and its null), and sqlite, shown beside them, before them in every other round and after them in
 * the others.
 */
const fourOrder = (round: number): Run[] => (round % 2 === 0 ? ['sqlite', ...roundOrder(round)] : [...roundOrder(round), 'sqlite']);

/**
 * `/pix help` under load on bot processes, one per backend and a second on Redis (each delivery's
 * repeat check is a claim in its store): 100 signed commands at once to each, in rounds (fourOrder),
 * so that the ratio PostgreSQL ÷ Redis has its null ratio (Redis ÷ the second Redis).
 */
async function ackLatency(): Promise<Figure[]> {
  const slack = await new SlackStandIn().start();
  const backends = backendsFor('ack', { again: true });
  const pinning = pinCpus();
  const bots = new Map<Run, Child & { port: number }>();
  try {
    for (const [i, b] of backends.entries()) {
      bots.set(
        RUN_OF_BACKEND[i]!,
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
    for (const bot of bots.values()) {
      for (let i = 0; i < ACK_WARM_UPS; i++) await burst(bot.port, 1);
      await burst(bot.port, ACK_CONCURRENT);
    }
    const runs = { sqlite: [], ours: [], base: [], again: [] } as Record<Run, number[][]>;
    for (let r = 0; r < ACK_ROUNDS; r++) {
      for (const run of fourOrder(r)) runs[run].push(await burst(bots.get(run)!.port, ACK_CONCURRENT));
    }
    const figure = (p: 50 | 99, label: string): Figure => {
      const of = (run: keyof typeof runs) => runs[run].map((times) => percentile(times, p));
      const [sq, ours, base, again] = [of('sqlite'), of('ours'), of('base'), of('again')];
      return ratioFigure({
        name: `slash ack under load (${ACK_CONCURRENT} at once, ${ACK_ROUNDS} rounds), ${label}: Postgres ÷ Redis`,
        ratios: ours.map((v, i) => v / base[i]!),
        nulls: again.map((v, i) => v / base[i]!),
        bound: RATIO_BOUND,
        detail: `sqlite / Redis / Postgres ${[sq, base, ours].map((xs) => percentile(xs, 50).toFixed(1)).join(' / ')} ms`,
      });
    };
    return [figure(50, 'median'), figure(99, 'p99')];
  } finally {
    pinning?.restore();
    for (const bot of bots.values()) await bot.stop();
    await slack.close();
    for (const b of backends) await b.dispose();
  }
}

/**
 * One poll tick of 2,000 requests in review, a bot in this process on each backend and a second on
 * Redis (all up at once), the sandbox in its own without added latency (so the store's part shows):
 * rounds in fourOrder, so that PostgreSQL ÷ Redis has its null ratio (Redis ÷ the second Redis).
 */
async function pollTick(): Promise<Figure> {
  const fx = await limitRequestsInReview(POLL_REQUESTS);
  const slack = await new SlackStandIn().start();
  const backends = backendsFor('poll', { again: true });
  const apps = new Map<Run, Awaited<ReturnType<typeof startBotInProcess>>>();
  try {
    for (const [i, b] of backends.entries()) {
      const app = await startBotInProcess({
        SLACK_API_URL: slack.apiUrl,
        PIX_API_URL: fx.sandbox.url,
        PIX_APP_ID: fx.sandbox.main.mainAppId,
        POLL_CONCURRENCY: '16',
        PIX_RATE_LIMIT: String(POLL_RATE),
        ...b.env,
      });
      apps.set(RUN_OF_BACKEND[i]!, app);
      await trackAll(app.deps.store, fx.requests);
    }
    const tick = async (run: Run) => {
      const started = performance.now();
      const report = await apps.get(run)!.poller.tick();
      if (report.pending !== POLL_REQUESTS) throw new Error(`${run} tick: ${JSON.stringify(report)}`);
      return (performance.now() - started) / 1000;
    };
    // A first tick each, not counted: connections, statements prepared, code compiled.
    for (const run of RUN_OF_BACKEND) await tick(run);
    const runs = { sqlite: [], ours: [], base: [], again: [] } as Record<Run, number[]>;
    for (let r = 0; r < POLL_ROUNDS; r++) for (const run of fourOrder(r)) runs[run].push(await tick(run));
    return ratioFigure({
      name: `poll tick of ${POLL_REQUESTS} requests in review (${POLL_ROUNDS} rounds): Postgres ÷ Redis`,
      ratios: runs.ours.map((v, i) => v / runs.base[i]!),
      nulls: runs.again.map((v, i) => v / runs.base[i]!),
      bound: RATIO_BOUND,
      detail: `sqlite / Redis / Postgres ${[runs.sqlite, runs.base, runs.ours].map((xs) => percentile(xs, 50).toFixed(2)).join(' / ')} s`,
    });
  } finally {
    for (const app of apps.values()) await app.stopAll();
    await slack.close();
    await fx.sandbox.stop();
    for (const b of backends) await b.dispose();
  }
}

/**
 * 200 approvals whose reminder is due, on each backend as it is deployed (sqlite: one instance, its
 * claims in its memory; Redis and PostgreSQL: two instances ticking at the same moment), three
 * rounds: each reminder posted once, with as many Slack calls as a reminder makes, and one approval's
 * handling beyond its Slack calls (lib.ts's timedApprovalClaims and beyondSlack) at most 50 ms at p95
 * on every backend. Then, on PostgreSQL, a third instance reaching it through `wire` ticks alone with
 * the 200 due: each statement is counted there, and given to the approvals its parameters name.
 */
async function approvalsRaced(wire: PgWireCounter): Promise<Figure[]> {
  const slack = await new SlackStandIn().start();
  const backends = backendsFor('approvals');
  const figures: Figure[] = [];
  const tick = (deps: Deps) => runApprovalTick(deps, APPROVAL_KINDS, { stopping: () => false });
  try {
    for (const b of backends) {
      const env = { SLACK_API_URL: slack.apiUrl, APPROVALS: 'key-add', ...b.env };
      const count = b.kind === 'sqlite' ? 1 : 2;
      const instances = [];
      for (let i = 0; i < count; i++) instances.push(await startBotInProcess(env));
      const label = `${b.kind}, ${count === 1 ? 'one instance' : `${count} instances at once`}`;
      try {
        const channel = `${CHANNEL}${b.kind.toUpperCase()}`;
        const store = instances[0]!.deps.store;
        const seeded = await seedApprovals(store, slack, channel, APPROVALS, APPROVAL_TTL_MS);
        const idOfRoot = new Map(seeded.map((s) => [s.rootTs, s.id]));
        // Each round the first reminder again (an approval has three at most), due now.
        const dueNow = async () => {
          const due = new Date().toISOString();
          for (const { id } of seeded) await store.approvals.update(id, (r) => ({ ...r, remindAt: due, reminders: 0 }));
        };
        const spans: ClaimSpan[] = [];
        const timed = instances.map((app) => timedApprovalClaims(app.deps, spans));
        const callsBefore = slack.calls.length;
        const postsBefore = slack.messages.length;
        let reminded = 0;
        for (let round = 0; round < APPROVAL_ROUNDS; round++) {
          await dueNow();
          const reports = await Promise.all(timed.map(tick));
          reminded += reports.reduce((n, r) => n + r.reminded, 0);
        }
        const calls = slack.calls.slice(callsBefore);
        const byApproval = callsByApproval(calls, (c) => idOfRoot.get(String(c.args.thread_ts)));
        const costs = beyondSlack(spans, (id) => byApproval.get(id) ?? []);
        const posts = slack.messages
          .slice(postsBefore)
          .filter((m) => m.channel === channel && m.metadata?.event_type === 'pix_approval_notice');
        const perThread = new Map<string, number>();
        for (const m of posts) perThread.set(String(m.thread_ts), (perThread.get(String(m.thread_ts)) ?? 0) + 1);
        const expected = APPROVAL_ROUNDS * APPROVALS;
        figures.push(
          countsFigure({
            name: `approvals' reminders, ${label}: ${APPROVALS} due, ${APPROVAL_ROUNDS} rounds, posts`,
            value: `${posts.length} (${reminded} by the ticks, ${perThread.size} threads)`,
            bound: `${expected}, ${APPROVAL_ROUNDS} a thread`,
            ok:
              posts.length === expected &&
              reminded === expected &&
              perThread.size === APPROVALS &&
              [...perThread.values()].every((n) => n === APPROVAL_ROUNDS),
          }),
          countFigure({
            name: `approvals' reminders, ${label}: Slack calls`,
            value: calls.length,
            op: '=',
            bound: expected * SLACK_CALLS_PER_REMINDER,
          }),
          absoluteFigure({
            name: `approvals' reminders, ${label}: one approval’s handling beyond its Slack calls, p95`,
            value: percentile(costs, 95),
            unit: 'ms',
            op: '≤',
            bound: HANDLING_P95_BOUND_MS,
            digits: 1,
            detail: `median ${percentile(costs, 50).toFixed(1)}, ${costs.length} handled`,
          }),
        );
        if (b.kind === 'Postgres')
          figures.push(...(await statementsOfReminders(wire, { ...env, STORE_URL: wire.through(POSTGRES_URL) }, dueNow, seeded)));
      } finally {
        await Promise.all(instances.map((app) => app.stopAll()));
      }
    }
    return figures;
  } finally {
    await slack.close();
    for (const b of backends) await b.dispose();
  }
}

/**
 * What one reminder costs PostgreSQL, counted on the wire: an instance alone (through `wire`) ticks
 * once to warm up (its statements prepared on its connections), then with the approvals due. Each
 * statement is given to the approvals whose ids its parameters carry (a batch of claims to each of
 * its keys): the count a reminder takes part in is exact whatever the batching, and is bounded
 * exactly; the tick's total and what it is made of are shown beside it.
 */
async function statementsOfReminders(
  wire: PgWireCounter,
  env: Record<string, string>,
  dueNow: () => Promise<void>,
  seeded: Array<{ id: string }>,
): Promise<Figure[]> {
  const app = await startBotInProcess(env);
  try {
    const tick = () => runApprovalTick(app.deps, APPROVAL_KINDS, { stopping: () => false });
    await tick();
    await dueNow();
    const from = wire.statements.length;
    const report = await tick();
    const statements = wire.statements.slice(from);
    const per = seeded.map(({ id }) => statements.filter((st) => st.params.some((p) => p?.includes(id))).length);
    const tickOwn = statements.filter((st) => !seeded.some(({ id }) => st.params.some((p) => p?.includes(id)))).length;
    const [least, most] = [Math.min(...per), Math.max(...per)];
    const times = statements.map((st) => st.ms);
    return [
      countsFigure({
        name: `approvals' reminders, Postgres, one instance: statements each reminder takes part in (${APPROVALS} due)`,
        value: least === most ? `${most} each` : `${least} to ${most}`,
        bound: `${STATEMENTS_PER_REMINDER} each`,
        ok: report.reminded === APPROVALS && least === STATEMENTS_PER_REMINDER && most === STATEMENTS_PER_REMINDER,
      }),
      countFigure({
        name: `approvals' reminders, Postgres, one instance: statements of the tick (${APPROVALS} due)`,
        value: statements.length,
        op: '≤',
        bound: TICK_STATEMENTS + STATEMENTS_PER_REMINDER * APPROVALS,
        detail: `${tickOwn} the tick's own; ${statementKinds(statements)}`,
      }),
      absoluteFigure({
        name: `approvals' reminders, Postgres, one instance: the tick's statements, p99 at the wire`,
        value: percentile(times, 99),
        unit: 'ms',
        op: '≤',
        bound: QUERY_P99_BOUND_MS,
        digits: 1,
        detail: `median ${percentile(times, 50).toFixed(2)}, max ${Math.max(...times).toFixed(1)}`,
      }),
    ];
  } finally {
    await app.stopAll();
  }
}

/** What statements were run, by their first words and table (`INSERT claims ×3, SELECT approvals ×200`). */
function statementKinds(statements: WireStatement[]): string {
  const counts = new Map<string, number>();
  for (const { sql } of statements) {
    const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? '?';
    const table = /\b(?:FROM|INTO|UPDATE)\s+"?[\w-]+"?\.(\w+)/i.exec(sql)?.[1] ?? '';
    const key = `${verb} ${table}`.trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k} ×${n}`).join(', ');
}

/**
 * The stores side by side, in one run: what a Slack acknowledgement, a poll tick and an approval
 * tick cost on sqlite, Redis and PostgreSQL, and the PostgreSQL statements of the reminders counted
 * and timed on the wire (pg-wire.ts).
 */
export const storeBackends = benchmark(
  // The ack's bots, their warm-ups and bursts at Slack's three seconds each; the poll's fixture, its
  // requests tracked on each backend and its ticks at the budget's pace; the approvals' instances and
  // their rounds (each approval at the handling bound), and the lone instance's two ticks.
  WAIT_MARGIN *
    (RUN_OF_BACKEND.length * (START_BOUND_MS + (ACK_WARM_UPS + 1) * SLACK_ACK_MS) +
      4 * ACK_ROUNDS * SLACK_ACK_MS +
      fixtureMs(POLL_REQUESTS) +
      RUN_OF_BACKEND.length * setupMs(POLL_REQUESTS) +
      (RUN_OF_BACKEND.length + 4 * POLL_ROUNDS) * POLL_TICK_PACE_MS +
      6 * START_BOUND_MS +
      (KINDS.length * APPROVAL_ROUNDS + 2) * APPROVALS * HANDLING_P95_BOUND_MS),
  async (): Promise<Figure[]> => {
    const target = new URL(POSTGRES_URL);
    const wire = await PgWireCounter.start({ host: target.hostname, port: Number(target.port || 5432) });
    try {
      const figures = await ackLatency();
      figures.push(await pollTick());
      figures.push(...(await approvalsRaced(wire)));
      return figures;
    } finally {
      await wire.close();
    }
  },
);
