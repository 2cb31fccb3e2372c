import { randomBytes } from 'node:crypto';
import { APPROVAL_KINDS } from '../commands';
import { approve } from '../src/approvals/deciding';
import { delegationsIn } from '../src/approvals/delegations-repo';
import { runApprovalTick } from '../src/approvals/tick';
import { type ClaimSpan, startBotInProcess, timedApprovalClaims } from './lib';

// One instance of the team-scale approvals benchmark (approvals-team.ts), in a process of its own as
// instances run, driven by the bench over IPC: each command a message with its `seq`, each answer a
// message with the same `seq`. Each approval's handling is timed here, through the store the instance
// is given (from taking its claim to giving it back); its Slack calls are timed by the Slack stand-in,
// in the bench's process.

export type TeamCommand =
  | { op: 'start'; env: Record<string, string> }
  | { op: 'seed'; roots: string[]; seed: TeamSeed }
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
  /** Each approval's handling, from taking its claim to giving it back. */
  spans: ClaimSpan[];
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

const spans: ClaimSpan[] = [];

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
    case 'tick': {
      const cpu = process.cpuUsage();
      const report = await runApprovalTick(timedApprovalClaims(running().deps, spans), APPROVAL_KINDS, { stopping: () => false });
      const used = process.cpuUsage(cpu);
      return { report, spans: spans.splice(0), cpuMs: (used.user + used.system) / 1000 } satisfies TickAnswer;
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
