import { randomBytes } from 'node:crypto';
import { createClient } from '@keyv/redis';
import { APPROVAL_KINDS } from '../commands';
import { runApprovalTick } from '../src/approvals/tick';
import type { Deps } from '../src/deps';
import { SlackStandIn } from '../src/slack-standin/web-api';
import {
  APPROVAL_TTL_MS,
  benchmark,
  type Figure,
  percentile,
  START_BOUND_MS,
  seedApprovals,
  startBotInProcess,
  timedApprovalClaims,
  timeSlackCalls,
  WAIT_MARGIN,
} from './lib';

const APPROVALS = 200;
const ROUNDS = 3;
const P95_BOUND_MS = 50;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHANNEL = 'C0BENCHAPPROVALS';
/** Ticks with none due, timed one after another. */
const IDLE_TICKS = 50;

/**
 * 200 pending approvals whose reminder is due, two instances on one Redis ticking at the same moment,
 * three times (each reminder's turn). Every reminder must be posted once, and each approval's handling
 * (from taking its claim to giving it back) must cost at most 50 ms at p95 beyond its Slack calls
 * (timed at the client: `WebClient.apiCall`).
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
    const slackMs = new Map<string, number>();
    // Slack's part of each approval's handling: its reminder post, found by the thread it goes to.
    const untimed = timeSlackCalls((_method, options, ms) => {
      const thread = typeof options?.thread_ts === 'string' ? options.thread_ts : undefined;
      if (thread) slackMs.set(thread, (slackMs.get(thread) ?? 0) + ms);
    });
    try {
      const store = a.deps.store;
      const seeded = await seedApprovals(store, slack, CHANNEL, APPROVALS, APPROVAL_TTL_MS);
      const ids = seeded.map((s) => s.id);
      const rootOf = new Map(seeded.map((s) => [s.id, s.rootTs]));

      const costs: number[] = [];
      // Slack's part, by the approval's root (its thread), taken once.
      const slackOf = (id: string) => {
        const ts = rootOf.get(id)!;
        const ms = slackMs.get(ts) ?? 0;
        slackMs.delete(ts);
        return ms;
      };
      const timedDeps = (deps: Deps) => timedApprovalClaims(deps, costs, slackOf);
      const [da, db] = [timedDeps(a.deps), timedDeps(b.deps)];
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
      const p95 = percentile(costs, 95);
      return [
        {
          name: `approval reminders posted (${APPROVALS} approvals × ${ROUNDS}, 2 instances)`,
          value: `${posts.length} (${reminded} by the ticks)`,
          bound: `${expected}, each once`,
          ok: once && posts.length === expected,
        },
        {
          name: 'approval tick: one approval’s handling beyond Slack, p95',
          value: `${p95.toFixed(1)} ms (median ${percentile(costs, 50).toFixed(1)})`,
          bound: `≤ ${P95_BOUND_MS} ms`,
          ok: p95 <= P95_BOUND_MS,
        },
        {
          // This process's CPU per reminder: both instances, their Slack client and the Slack stand-in itself.
          name: 'approval tick: CPU per reminder, this whole process (information)',
          value: `${(cpuMicros / 1000 / (APPROVALS * ROUNDS)).toFixed(2)} ms`,
          bound: '(information)',
          ok: true,
        },
        {
          name: `approval tick with ${APPROVALS} pending, none due, p95`,
          value: `${percentile(idle, 95).toFixed(2)} ms`,
          bound: `≤ ${P95_BOUND_MS} ms`,
          ok: percentile(idle, 95) <= P95_BOUND_MS,
        },
      ];
    } finally {
      untimed();
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
