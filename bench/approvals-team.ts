import { randomBytes } from 'node:crypto';
import { WebClient } from '@slack/web-api';
import { APPROVAL_KINDS } from '../commands';
import { approve } from '../src/approvals/deciding';
import { delegationsIn } from '../src/approvals/delegations-repo';
import { runApprovalTick } from '../src/approvals/tick';
import type { Deps } from '../src/entry/deps';
import { startSandbox } from '../src/sandbox';
import { SlackStandIn } from '../src/slack-standin/web-api';
import { dropNamespace } from './approvals';
import { benchmark, botPaceMs, type Figure, inBatches, percentile, RIG_START_MS, startBotInProcess, WAIT_MARGIN } from './lib';

const APPROVALS = 200;
const P95_BOUND_MS = 50;
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHANNEL = 'C0BENCHTEAM';
const MAKER = 'U0MAKER01';
const CHECKER_A = 'U0CHECKA1';
const CHECKER_B = 'U0CHECKB1';
/** Away, with BRUNO deciding for them. */
const ABEL = 'U0ABEL001';
const BRUNO = 'U0BRUNO01';
const MANAGER = 'U0MANAGER';
const HEADS = ['U0HEAD001', 'U0HEAD002'];

/**
 * Approvals at team scale on two instances sharing Redis: 200 pending approvals that need two
 * checkers, each with its escalation due (to a manager and a group of two) while an approver is away
 * and has a delegate. Both instances tick at the same moment: each escalation posted once in its
 * thread and once in each member's DM, and each approval's handling (from taking its claim to giving
 * it back) at most 50 ms at p95 beyond its Slack calls (timed at the client, `WebClient.apiCall`, for
 * the calls that name the approval: its thread, its root, its DMs). Then the first approvals, and the
 * second raced on the two instances (a checker on one, the away approver's delegate on the other):
 * each approval's Pix write made once.
 */
export const approvalsAtTeamScale = benchmark(
  // The rig; the escalations' thread posts in one channel at the bot's pace; each approval handled three
  // times (escalated, approved once, approved again) at its bound.
  WAIT_MARGIN * (RIG_START_MS + botPaceMs(APPROVALS) + 3 * APPROVALS * P95_BOUND_MS),
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
    const a = await startBotInProcess(env);
    const b = await startBotInProcess(env);
    // Slack's part of each approval's handling, by the approval its calls name (its thread, its root, its
    // DMs' metadata). A DM's conversations.open goes with the DM posted to that user next, a group's look-up
    // with the next escalation posted in a thread: as many of each as there are approvals, so they add up.
    const slackMs = new Map<string, number>();
    const approvalOfTs = new Map<string, string>();
    const opening = new Map<string, number[]>();
    const lookups: number[] = [];
    const charge = (id: string, ms: number) => slackMs.set(id, (slackMs.get(id) ?? 0) + ms);
    const apiCall = WebClient.prototype.apiCall;
    WebClient.prototype.apiCall = async function timed(this: WebClient, method: string, options?: Record<string, unknown>) {
      const started = performance.now();
      try {
        return await apiCall.call(this, method, options);
      } finally {
        const ms = performance.now() - started;
        const ts = [options?.thread_ts, options?.message_ts, options?.ts].find((v) => typeof v === 'string') as string | undefined;
        const payload = (options?.metadata as { event_payload?: { approval_id?: unknown } } | undefined)?.event_payload;
        const id = (ts && approvalOfTs.get(ts)) ?? (typeof payload?.approval_id === 'string' ? payload.approval_id : undefined);
        if (method === 'conversations.open') opening.set(String(options?.users), [...(opening.get(String(options?.users)) ?? []), ms]);
        else if (method === 'usergroups.users.list') lookups.push(ms);
        else if (id) {
          charge(id, ms);
          const channel = String(options?.channel ?? '');
          if (method === 'chat.postMessage' && channel.startsWith('D')) charge(id, opening.get(`U${channel.slice(1)}`)?.shift() ?? 0);
          if (method === 'chat.postMessage' && options?.thread_ts) charge(id, lookups.shift() ?? 0);
        }
      }
    } as typeof apiCall;
    try {
      const store = a.deps.store;
      await delegationsIn(store).set(
        ABEL,
        { delegate: BRUNO, until: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10), setAt: new Date().toISOString() },
        new Date(),
      );
      const ids: string[] = [];
      const now = Date.now();
      for (let i = 0; i < APPROVALS; i++) {
        const id = randomBytes(8).toString('hex');
        await store.approvals.create({
          id,
          makerId: MAKER,
          makerLocale: 'en',
          channel: CHANNEL,
          payload: {
            action: 'key-add',
            accountId: sandbox.companies.main.defaultAccountId,
            pixKey: `team-${i}-${id}@example.com`,
            type: 'EMAIL',
          },
          expiresAt: new Date(now + 86_400_000).toISOString(),
          escalateAt: new Date(now - 1_000).toISOString(),
          required: 2,
        });
        const root = slack.addMessage({ channel: CHANNEL, text: 'approval root', bot_id: 'B0BOT', user: 'U0BOT' });
        await store.approvals.update(id, (r) => ({ ...r, rootTs: root.ts }));
        ids.push(id);
        approvalOfTs.set(root.ts, id);
      }

      const costs: number[] = [];
      const spans = new Map<string, number>();
      const timedDeps = (deps: Deps): Deps => ({
        ...deps,
        store: {
          ...deps.store,
          async claim(key, ttlMs) {
            const got = await deps.store.claim(key, ttlMs);
            if (got && key.startsWith('approval:')) spans.set(key, performance.now());
            return got;
          },
          async release(key) {
            await deps.store.release(key);
            const started = spans.get(key);
            if (started === undefined) return;
            spans.delete(key);
            const id = key.slice('approval:'.length);
            costs.push(performance.now() - started - (slackMs.get(id) ?? 0));
            slackMs.delete(id);
          },
        },
      });
      const [da, db] = [timedDeps(a.deps), timedDeps(b.deps)];
      const cpu = process.cpuUsage();
      // The two instances' ticks at the same moment (a poller never overlaps its own ticks), then again.
      const tick = () => Promise.all([da, db].map((deps) => runApprovalTick(deps, APPROVAL_KINDS, { stopping: () => false })));
      const reports = [...(await tick()), ...(await tick())];
      const used = process.cpuUsage(cpu);
      const escalatedByTicks = reports.reduce((n, r) => n + r.escalated, 0);

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
      const inDms = escalations.filter((m) => m.channel.startsWith('D'));
      const threadOnce = perKey(inThreads).size === APPROVALS && [...perKey(inThreads).values()].every((n) => n === 1);
      // The manager and the group's two members (Abel, away, is not on the list): three DMs each.
      const dmsOnce = perKey(inDms).size === APPROVALS * 3 && [...perKey(inDms).values()].every((n) => n === 1);

      // The first approvals, then the second raced on the two instances: Abel's delegate on one, against
      // another checker (even ones) or Abel himself (odd ones: one person, whoever clicks) on the other.
      const actor = (userId: string) => ({ userId, role: 'operator' as const, locale: 'en' as const });
      await inBatches(APPROVALS, 10, (i) => approve(a.deps, APPROVAL_KINDS, ids[i]!, actor(CHECKER_A)));
      const writesBefore = sandbox.calls.filter((c) => c.method === 'POST' && c.path === '/api/v1/pix-keys').length;
      const raced = performance.now();
      await inBatches(APPROVALS, 10, (i) =>
        Promise.all([
          approve(a.deps, APPROVAL_KINDS, ids[i]!, actor(i % 2 === 0 ? CHECKER_B : ABEL)),
          approve(b.deps, APPROVAL_KINDS, ids[i]!, actor(BRUNO)),
        ]),
      );
      const racedMs = performance.now() - raced;
      const writes = sandbox.calls.filter((c) => c.method === 'POST' && c.path === '/api/v1/pix-keys').slice(writesBefore);
      const keys = new Set(writes.map((c) => (c.body as { pixKey?: string }).pixKey));
      const records = await Promise.all(ids.map((id) => store.approvals.get(id)));
      const done = records.filter((r) => r?.state === 'done' && r.approvedBy?.length === 2).length;
      const byDelegate = records.filter((r) => r?.approvedBy?.[1]?.forUserId === ABEL).length;

      const p95 = percentile(costs, 95);
      return [
        {
          name: `escalations (${APPROVALS} due, 2 instances ticking at once, twice)`,
          value: `${inThreads.length} in threads, ${inDms.length} DMs (${escalatedByTicks} by the ticks)`,
          bound: `${APPROVALS} and ${APPROVALS * 3}, each once`,
          ok: threadOnce && dmsOnce && escalatedByTicks === APPROVALS,
        },
        {
          name: 'approval tick (escalations): one approval’s handling beyond Slack, p95',
          value: `${p95.toFixed(1)} ms (median ${percentile(costs, 50).toFixed(1)})`,
          bound: `≤ ${P95_BOUND_MS} ms`,
          ok: p95 <= P95_BOUND_MS,
        },
        {
          name: 'approval tick (escalations): CPU per escalation, this whole process (information)',
          value: `${((used.user + used.system) / 1000 / APPROVALS).toFixed(2)} ms`,
          bound: '(information)',
          ok: true,
        },
        {
          name: `second approvals raced on 2 instances (${APPROVALS}, a delegate against a checker or the one away): Pix writes`,
          value: `${writes.length} (${keys.size} keys; ${done} done, ${byDelegate} by the delegate; ${(racedMs / 1000).toFixed(1)} s)`,
          bound: `${APPROVALS}, each once`,
          ok: writes.length === APPROVALS && keys.size === APPROVALS && done === APPROVALS,
        },
      ];
    } finally {
      WebClient.prototype.apiCall = apiCall;
      await Promise.all([a.stopAll(), b.stopAll()]);
      await sandbox.close();
      await slack.close();
      await dropNamespace(namespace);
    }
  },
);
