import { randomBytes } from 'node:crypto';
import { startSandbox } from '../src/sandbox';
import { type SlackApiCall, SlackStandIn } from '../src/slack-standin/web-api';
import { dropNamespace } from './approvals';
import { absoluteFigure, countsFigure, infoFigure } from './judge';
import { benchmark, beyondSlack, botPaceMs, type Figure, inBatches, percentile, RIG_START_MS, spawnNode, WAIT_MARGIN } from './lib';
import type { RecordSummary, TeamCommand, TickAnswer } from './team-instance';

const APPROVALS = 200;
const P95_BOUND_MS = 50;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHANNEL = 'C0BENCHTEAM';
const WARM_UP_CHANNEL = 'C0BENCHWARM';
const WARM_UPS = 20;
const MAKER = 'U0MAKER01';
const CHECKER_A = 'U0CHECKA1';
const CHECKER_B = 'U0CHECKB1';
/** Away, with BRUNO deciding for them. */
const ABEL = 'U0ABEL001';
const BRUNO = 'U0BRUNO01';
const MANAGER = 'U0MANAGER';
const HEADS = ['U0HEAD001', 'U0HEAD002'];

/** An instance of the bench in a process of its own (team-instance.ts), and how to tell it what to do. */
interface Instance {
  ask<T>(command: TeamCommand): Promise<T>;
  stop(): Promise<void>;
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawnNode('bench/team-instance.js', {}, [], undefined, { ipc: true });
  const waiting = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  let seq = 0;
  child.process.on('message', (answer: { seq: number; value?: unknown; error?: string }) => {
    const waiter = waiting.get(answer.seq);
    waiting.delete(answer.seq);
    if (answer.error === undefined) waiter?.resolve(answer.value);
    else waiter?.reject(new Error(`${answer.error}\n${child.output()}`));
  });
  child.process.once('exit', (code) => {
    for (const waiter of waiting.values()) waiter.reject(new Error(`the instance exited (${code})\n${child.output()}`));
    waiting.clear();
  });
  const instance: Instance = {
    ask: <T>(command: TeamCommand) =>
      new Promise<T>((resolve, reject) => {
        const at = ++seq;
        waiting.set(at, { resolve: resolve as (value: unknown) => void, reject });
        child.process.send({ seq: at, command });
      }),
    async stop() {
      await instance.ask({ op: 'stop' }).catch(() => undefined);
      await child.stop();
    },
  };
  await instance.ask({ op: 'start', env });
  return instance;
}

/**
 * Approvals at team scale on two instances sharing Redis, each in a process of its own (as instances
 * run; the Slack stand-in and the sandbox in the bench's): 200 pending approvals that need two
 * checkers, each with its escalation due (to a manager and a group of two) while an approver is away
 * and has a delegate. Both instances tick at the same moment: each escalation posted once in its
 * thread and once in each member's DM, and each approval's handling (from taking its claim to giving
 * it back, timed in the instance) at most 50 ms at p95 beyond its Slack calls (timed by the Slack
 * stand-in, from each one's arrival to its answer: slackCallsByApproval). Then the
 * first approvals, and the second raced on the two instances (a checker on one, the away approver's
 * delegate on the other): each approval's Pix write made once.
 */
export const approvalsAtTeamScale = benchmark(
  // The rig; the warm-up's and the escalations' thread posts, each in one channel at the bot's pace; each
  // approval handled three times (escalated, approved once, approved again) at its bound.
  WAIT_MARGIN * (RIG_START_MS + botPaceMs(WARM_UPS) + botPaceMs(APPROVALS) + (WARM_UPS + 3 * APPROVALS) * P95_BOUND_MS),
  async (): Promise<Figure[]> => {
    const slack = await new SlackStandIn().start();
    slack.userGroups.set('S0HEADS', HEADS);
    const sandbox = await startSandbox({ port: 0 });
    const namespace = `bench-approvals-team-${randomBytes(4).toString('hex')}`;
    const env = {
      SLACK_API_URL: slack.apiUrl,
      PIX_API_URL: sandbox.url,
      PIX_APP_ID: sandbox.companies.main.mainAppId,
      // The sandbox is the bench's own: the budget is not what is measured.
      PIX_RATE_LIMIT: '1000',
      STORE_URL: REDIS_URL,
      STORE_SECRET: randomBytes(24).toString('hex'),
      STORE_NAMESPACE: namespace,
      APPROVALS: 'key-add',
      APPROVAL_QUORUM_ACTIONS: 'key-add',
      APPROVAL_ESCALATE_AFTER: '1h',
      ACCESS_ESCALATION: `${MANAGER},S0HEADS`,
      ACCESS_OPERATORS: [MAKER, CHECKER_A, CHECKER_B, ABEL, BRUNO, MANAGER].join(','),
      ACCESS_APPROVERS: [CHECKER_A, CHECKER_B, ABEL].join(','),
    };
    const instances: Instance[] = [];
    const approvalOfTs = new Map<string, string>();
    try {
      for (let i = 0; i < 2; i++) instances.push(await startInstance(env));
      const [a, b] = instances as [Instance, Instance];
      const seeded = async (channel: string, n: number) => {
        const roots = Array.from(
          { length: n },
          () => slack.addMessage({ channel, text: 'approval root', bot_id: 'B0BOT', user: 'U0BOT' }).ts,
        );
        const seed = { channel, maker: MAKER, accountId: sandbox.companies.main.defaultAccountId, away: { userId: ABEL, delegate: BRUNO } };
        const ids = await a.ask<string[]>({ op: 'seed', roots, seed });
        for (const [i, ts] of roots.entries()) approvalOfTs.set(ts, ids[i]!);
        return ids;
      };
      // The two instances' ticks at the same moment (a poller never overlaps its own ticks).
      const tick = () => Promise.all([a, b].map((x) => x.ask<TickAnswer>({ op: 'tick' })));
      // Warmed up as a running instance is (its code compiled, its DM channels opened): a first few
      // escalations, in a channel of their own, not counted.
      await seeded(WARM_UP_CHANNEL, WARM_UPS);
      await tick();

      const ids = await seeded(CHANNEL, APPROVALS);
      const callsBefore = slack.calls.length;
      const ticks: TickAnswer[] = [];
      for (let round = 0; round < 2; round++) ticks.push(...(await tick()));
      const byApproval = slackCallsByApproval(slack.calls.slice(callsBefore), approvalOfTs);
      const costs = beyondSlack(
        ticks.flatMap((t) => t.spans),
        (id) => byApproval.get(id) ?? [],
      );
      const cpuMs = ticks.reduce((sum, t) => sum + t.cpuMs, 0);
      const escalatedByTicks = ticks.reduce((n, t) => n + t.report.escalated, 0);

      const notices = (notice: string) => slack.messages.filter((m) => m.metadata?.event_payload?.notice === notice);
      const perKey = (messages: typeof slack.messages) => {
        const counts = new Map<string, number>();
        for (const m of messages) {
          const key = `${m.channel}:${String(m.metadata?.event_payload?.approval_id)}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        return counts;
      };
      const escalations = notices('escalation');
      const inThreads = escalations.filter((m) => m.channel === CHANNEL);
      const measured = new Set(ids);
      const inDms = escalations.filter((m) => m.channel.startsWith('D') && measured.has(String(m.metadata?.event_payload?.approval_id)));
      const threadOnce = perKey(inThreads).size === APPROVALS && [...perKey(inThreads).values()].every((n) => n === 1);
      // The manager and the group's two members (Abel, away, is not on the list): three DMs each.
      const dmsOnce = perKey(inDms).size === APPROVALS * 3 && [...perKey(inDms).values()].every((n) => n === 1);

      // The first approvals, then the second raced on the two instances: Abel's delegate on one, against
      // another checker (even ones) or Abel himself (odd ones: one person, whoever clicks) on the other.
      await inBatches(APPROVALS, 10, (i) => a.ask({ op: 'approve', id: ids[i]!, userId: CHECKER_A }));
      const writesBefore = sandbox.calls.filter((c) => c.method === 'POST' && c.path === '/api/v1/pix-keys').length;
      const raced = performance.now();
      await inBatches(APPROVALS, 10, (i) =>
        Promise.all([
          a.ask({ op: 'approve', id: ids[i]!, userId: i % 2 === 0 ? CHECKER_B : ABEL }),
          b.ask({ op: 'approve', id: ids[i]!, userId: BRUNO }),
        ]),
      );
      const racedMs = performance.now() - raced;
      const writes = sandbox.calls.filter((c) => c.method === 'POST' && c.path === '/api/v1/pix-keys').slice(writesBefore);
      const keys = new Set(writes.map((c) => (c.body as { pixKey?: string }).pixKey));
      const records = await a.ask<RecordSummary[]>({ op: 'records', ids });
      const done = records.filter((r) => r.state === 'done' && r.approvals === 2).length;
      const byDelegate = records.filter((r) => r.secondFor === ABEL).length;

      return [
        countsFigure({
          name: `escalations (${APPROVALS} due, 2 instances ticking at once, twice)`,
          value: `${inThreads.length} in threads, ${inDms.length} DMs (${escalatedByTicks} by the ticks)`,
          bound: `${APPROVALS} and ${APPROVALS * 3}, each once`,
          ok: threadOnce && dmsOnce && escalatedByTicks === APPROVALS,
        }),
        absoluteFigure({
          name: 'approval tick (escalations): one approval’s handling beyond Slack, p95',
          value: percentile(costs, 95),
          unit: 'ms',
          op: '≤',
          bound: P95_BOUND_MS,
          digits: 1,
          detail: `median ${percentile(costs, 50).toFixed(1)}, ${costs.length} handled`,
        }),
        infoFigure('approval tick (escalations): CPU per escalation, both instances', `${(cpuMs / APPROVALS).toFixed(2)} ms`),
        countsFigure({
          name: `second approvals raced on 2 instances (${APPROVALS}, a delegate against a checker or the one away): Pix writes`,
          value: `${writes.length} (${keys.size} keys; ${done} done, ${byDelegate} by the delegate; ${(racedMs / 1000).toFixed(1)} s)`,
          bound: `${APPROVALS}, each once`,
          ok: writes.length === APPROVALS && keys.size === APPROVALS && done === APPROVALS,
        }),
      ];
    } finally {
      await Promise.all(instances.map((x) => x.stop()));
      await sandbox.close();
      await slack.close();
      await dropNamespace(namespace);
    }
  },
);

/**
 * The Slack stand-in's calls (in the order they arrived) by the approval they were made for: those
 * naming it (its thread, its root, its DMs' metadata); a DM's conversations.open goes with the next DM
 * posted to that user, a group's look-up with the next escalation posted in a thread (as many of each
 * as there are approvals, so they add up).
 */
function slackCallsByApproval(calls: SlackApiCall[], approvalOfTs: Map<string, string>): Map<string, SlackApiCall[]> {
  const by = new Map<string, SlackApiCall[]>();
  const opening = new Map<string, SlackApiCall[]>();
  const lookups: SlackApiCall[] = [];
  const charge = (id: string, call: SlackApiCall | undefined) => {
    if (call) by.set(id, [...(by.get(id) ?? []), call]);
  };
  for (const call of calls) {
    const { args } = call;
    const ts = [args.thread_ts, args.message_ts, args.ts].find((v) => typeof v === 'string') as string | undefined;
    const payload = (args.metadata as { event_payload?: { approval_id?: unknown } } | undefined)?.event_payload;
    const id = (ts && approvalOfTs.get(ts)) ?? (typeof payload?.approval_id === 'string' ? payload.approval_id : undefined);
    if (call.method === 'conversations.open') opening.set(String(args.users), [...(opening.get(String(args.users)) ?? []), call]);
    else if (call.method === 'usergroups.users.list') lookups.push(call);
    else if (id) {
      charge(id, call);
      const channel = String(args.channel ?? '');
      if (call.method === 'chat.postMessage' && channel.startsWith('D')) charge(id, opening.get(`U${channel.slice(1)}`)?.shift());
      if (call.method === 'chat.postMessage' && args.thread_ts) charge(id, lookups.shift());
    }
  }
  return by;
}
