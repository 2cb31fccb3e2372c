import { randomBytes } from 'node:crypto';
import { createClient } from '@keyv/redis';
import { APPROVAL_KINDS } from '../commands';
import { runApprovalTick } from '../src/approvals/tick';
import { SlackStandIn } from '../src/slack-standin/web-api';
import { absoluteFigure, countFigure, countsFigure, infoFigure } from './judge';
import {
  APPROVAL_TTL_MS,
  benchmark,
  beyondSlack,
  type ClaimSpan,
  callsByApproval,
  type Figure,
  percentile,
  START_BOUND_MS,
  seedApprovals,
  startBotInProcess,
  timedApprovalClaims,
  WAIT_MARGIN,
} from './lib';

const APPROVALS = 200;
const ROUNDS = 3;
const P95_BOUND_MS = 50;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHANNEL = 'C0BENCHAPPROVALS';
/** Slack calls one reminder makes: its post in the approval's thread. */
const SLACK_CALLS_PER_REMINDER = 1;
/** Ticks with none due, timed one after another. */
const IDLE_TICKS = 50;

/**
 * 200 pending approvals whose reminder is due, two instances on one Redis ticking at the same moment,
 * three times (each reminder's turn). Every reminder must be posted once, with as many Slack calls
 * as one reminder makes, and each approval's handling (from taking its claim to giving it back,
 * through the store the instances are given) must cost at most 50 ms at p95 beyond its Slack calls
 * (each call's time at the Slack stand-in, from its arrival to its answer: measured outside the client).
 */
export const approvalReminders = benchmark(
  // Two instances started; each round, every approval handled at its bound, and its one post to the
  // Slack stand-in (in this process) counted at the same; the idle ticks at the same bound.
  WAIT_MARGIN * (2 * START_BOUND_MS + (2 * ROUNDS * APPROVALS + IDLE_TICKS) * P95_BOUND_MS),
  async (): Promise<Figure[]> => {
    const slack = await new SlackStandIn().start();
    const namespace = `bench-approvals-${randomBytes(4).toString('hex')}`;
    const env = {
      SLACK_API_URL: slack.apiUrl,
      STORE_URL: REDIS_URL,
      STORE_SECRET: randomBytes(24).toString('hex'),
      STORE_NAMESPACE: namespace,
      APPROVALS: 'key-add',
    };
    const a = await startBotInProcess(env);
    const b = await startBotInProcess(env);
    try {
      const store = a.deps.store;
      const seeded = await seedApprovals(store, slack, CHANNEL, APPROVALS, APPROVAL_TTL_MS);
      const ids = seeded.map((s) => s.id);
      const idOfRoot = new Map(seeded.map((s) => [s.rootTs, s.id]));

      const spans: ClaimSpan[] = [];
      const [da, db] = [timedApprovalClaims(a.deps, spans), timedApprovalClaims(b.deps, spans)];
      const callsBefore = slack.calls.length;
      let reminded = 0;
      let cpuMicros = 0;
      for (let round = 1; round <= ROUNDS; round++) {
        // Due now: the ticks below run after it.
        const due = new Date().toISOString();
        for (const id of ids) await store.approvals.update(id, (r) => ({ ...r, remindAt: due }));
        const cpu = process.cpuUsage();
        const reports = await Promise.all([da, db].map((deps) => runApprovalTick(deps, APPROVAL_KINDS, { stopping: () => false })));
        const used = process.cpuUsage(cpu);
        cpuMicros += used.user + used.system;
        reminded += reports.reduce((n, r) => n + r.reminded, 0);
      }
      const calls = slack.calls.slice(callsBefore);
      // Slack's part of each approval's handling: the calls in its thread (its reminder).
      const byApproval = callsByApproval(calls, (c) => idOfRoot.get(String(c.args.thread_ts)));
      const costs = beyondSlack(spans, (id) => byApproval.get(id) ?? []);
      // A tick with 200 approvals pending and none due: one read of the index, whatever their number.
      const idle: number[] = [];
      for (let i = 0; i < IDLE_TICKS; i++) {
        const started = performance.now();
        await runApprovalTick(da, APPROVAL_KINDS, { stopping: () => false });
        idle.push(performance.now() - started);
      }
      const posts = slack.messages.filter((m) => m.channel === CHANNEL && m.metadata?.event_type === 'pix_approval_notice');
      const perKey = new Map<string, number>();
      for (const m of posts) {
        const key = `${m.thread_ts}:${String(m.metadata?.event_payload?.notice)}`;
        perKey.set(key, (perKey.get(key) ?? 0) + 1);
      }
      const expected = APPROVALS * ROUNDS;
      const once = perKey.size === expected && [...perKey.values()].every((n) => n === 1);
      const methods = [...new Set(calls.map((c) => c.method))].sort();
      return [
        countsFigure({
          name: `approval reminders posted (${APPROVALS} approvals × ${ROUNDS}, 2 instances)`,
          value: `${posts.length} (${reminded} by the ticks)`,
          bound: `${expected}, each once`,
          ok: once && posts.length === expected && reminded === expected,
        }),
        countFigure({
          name: `approval reminders: Slack calls of the ${ROUNDS} rounds (${methods.join(', ')})`,
          value: calls.length,
          op: '=',
          bound: expected * SLACK_CALLS_PER_REMINDER,
          detail: `${(calls.length / expected).toFixed(2)} a reminder`,
        }),
        absoluteFigure({
          name: 'approval tick: one approval’s handling beyond Slack, p95',
          value: percentile(costs, 95),
          unit: 'ms',
          op: '≤',
          bound: P95_BOUND_MS,
          digits: 1,
          detail: `median ${percentile(costs, 50).toFixed(1)}, ${costs.length} handled`,
        }),
        // This process's CPU per reminder: both instances, their Slack client and the Slack stand-in itself.
        infoFigure('approval tick: CPU per reminder, this whole process', `${(cpuMicros / 1000 / expected).toFixed(2)} ms`),
        absoluteFigure({
          name: `approval tick with ${APPROVALS} pending, none due, p95`,
          value: percentile(idle, 95),
          unit: 'ms',
          op: '≤',
          bound: P95_BOUND_MS,
          digits: 2,
        }),
      ];
    } finally {
      await Promise.all([a.stopAll(), b.stopAll()]);
      await slack.close();
      await dropNamespace(namespace);
    }
  },
);

/** The bench's keys go: SCAN for its namespace, never KEYS or FLUSHALL (the Redis is shared). */
export async function dropNamespace(namespace: string): Promise<void> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  try {
    for await (const keys of client.scanIterator({ MATCH: `${namespace}*`, COUNT: 500 })) {
      if (keys.length > 0) await client.del(keys);
    }
  } finally {
    await client.close();
  }
}
