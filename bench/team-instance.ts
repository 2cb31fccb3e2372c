import { randomBytes } from 'node:crypto';
import { APPROVAL_KINDS } from '../commands';
import { approve } from '../src/approvals/deciding';
import { delegationsIn } from '../src/approvals/delegations-repo';
import { runApprovalTick } from '../src/approvals/tick';
import type { Deps } from '../src/deps';
import { startBotInProcess, timedApprovalClaims, timeSlackCalls } from './lib';

// One instance of the team-scale approvals benchmark (approvals-team.ts), in a process of its own as
// instances run, driven by the bench over IPC: each command a message with its `seq`, each answer a
// message with the same `seq`. What an approval's handling costs beyond its Slack calls is timed here,
// where its Slack calls are made.

export type TeamCommand =
  | { op: 'start'; env: Record<string, string> }
  | { op: 'seed'; roots: string[]; seed: TeamSeed }
  | { op: 'know'; roots: Array<[ts: string, id: string]> }
  | { op: 'tick' }
  | { op: 'approve'; id: string; userId: string }
  | { op: 'records'; ids: string[] }
  | { op: 'stop' };

/** What instance A writes to the store before the ticks: the approvals and the away approver's delegation. */
export interface TeamSeed {
  channel: string;
  maker: string;
  accountId: string;
  away: { userId: string; delegate: string };
}

export interface TickAnswer {
  report: Awaited<ReturnType<typeof runApprovalTick>>;
  /** Each approval's handling beyond its Slack calls (ms), from taking its claim to giving it back. */
  costs: number[];
  cpuMs: number;
}

export interface RecordSummary {
  state?: string;
  approvals: number;
  /** For whom the second approval was given, when by a delegate. */
  secondFor?: string;
}

let app: Awaited<ReturnType<typeof startBotInProcess>> | undefined;
const running = () => {
  if (!app) throw new Error('not started');
  return app;
};

// Slack's part of each approval's handling, by the approval its calls name (its thread, its root, its
// DMs' metadata). A DM's conversations.open goes with the DM posted to that user next, a group's look-up
// with the next escalation posted in a thread: as many of each as there are approvals, so they add up.
const slackMs = new Map<string, number>();
const approvalOfTs = new Map<string, string>();
const opening = new Map<string, number[]>();
const lookups: number[] = [];
const charge = (id: string, ms: number) => slackMs.set(id, (slackMs.get(id) ?? 0) + ms);
timeSlackCalls((method, options, ms) => {
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
});

const costs: number[] = [];
/** The instance's deps, its approvals' claims timed (timedApprovalClaims), Slack's part taken once. */
const timed = (deps: Deps): Deps =>
  timedApprovalClaims(deps, costs, (id) => {
    const ms = slackMs.get(id) ?? 0;
    slackMs.delete(id);
    return ms;
  });

async function seed(roots: string[], s: TeamSeed): Promise<string[]> {
  const { store } = running().deps;
  const until = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  await delegationsIn(store).set(s.away.userId, { delegate: s.away.delegate, until, setAt: new Date().toISOString() }, new Date());
  const now = Date.now();
  const ids: string[] = [];
  for (const [i, rootTs] of roots.entries()) {
    const id = randomBytes(8).toString('hex');
    await store.approvals.create({
      id,
      makerId: s.maker,
      makerLocale: 'en',
      channel: s.channel,
      payload: { action: 'key-add', accountId: s.accountId, pixKey: `team-${i}-${id}@example.com`, type: 'EMAIL' },
      expiresAt: new Date(now + 86_400_000).toISOString(),
      escalateAt: new Date(now - 1_000).toISOString(),
      required: 2,
    });
    await store.approvals.update(id, (r) => ({ ...r, rootTs }));
    approvalOfTs.set(rootTs, id);
    ids.push(id);
  }
  return ids;
}

async function handle(command: TeamCommand): Promise<unknown> {
  switch (command.op) {
    case 'start':
      app = await startBotInProcess(command.env);
      return undefined;
    case 'seed':
      return seed(command.roots, command.seed);
    case 'know':
      for (const [ts, id] of command.roots) approvalOfTs.set(ts, id);
      return undefined;
    case 'tick': {
      const cpu = process.cpuUsage();
      const report = await runApprovalTick(timed(running().deps), APPROVAL_KINDS, { stopping: () => false });
      const used = process.cpuUsage(cpu);
      return { report, costs: costs.splice(0), cpuMs: (used.user + used.system) / 1000 } satisfies TickAnswer;
    }
    case 'approve':
      return approve(running().deps, APPROVAL_KINDS, command.id, { userId: command.userId, role: 'operator', locale: 'en' });
    case 'records': {
      const records = await Promise.all(command.ids.map((id) => running().deps.store.approvals.get(id)));
      return records.map(
        (r): RecordSummary => ({
          ...(r?.state ? { state: r.state } : {}),
          approvals: r?.approvedBy?.length ?? 0,
          ...(r?.approvedBy?.[1]?.forUserId ? { secondFor: r.approvedBy[1].forUserId } : {}),
        }),
      );
    }
    case 'stop':
      await app?.stopAll();
      app = undefined;
      return undefined;
  }
}

process.on('message', (message: { seq: number; command: TeamCommand }) => {
  handle(message.command).then(
    (value) => process.send?.({ seq: message.seq, value }),
    (err: unknown) => process.send?.({ seq: message.seq, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
  );
});
