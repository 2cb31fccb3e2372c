import { ackLatency } from './ack-latency';
import { approvalReminders } from './approvals';
import { approvalsAtTeamScale } from './approvals-team';
import { auditAck, auditExport } from './audit';
import { digest } from './digest';
import { exitCode, type Figure, failedFigure, table } from './judge';
import { type Benchmark, runBenchmark } from './lib';
import { modalLatency } from './modal-latency';
import { moneyOut } from './money-out';
import { metricsAck, pixBudget } from './pix-budget';
import { pixEvents } from './pix-events';
import { playground } from './playground';
import { pollCycle } from './poll-cycle';
import { proofStreaming } from './proof-streaming';
import { rateLimit } from './rate-limit';
import { startup } from './startup';
import { storeBackends } from './store-backends';

/**
 * Every benchmark of `npm run bench`, in the order they run: the id BENCH_ONLY picks it by, what it
 * measures, and the benchmark (lib.ts's `benchmark`).
 */
const BENCHMARKS: Array<{ id: string; name: string; run: Benchmark }> = [
  { id: 'modal', name: 'modal latency', run: modalLatency },
  { id: 'proofs', name: 'proof streaming', run: proofStreaming },
  { id: 'poll', name: 'poll cycle (sqlite, then Redis with 2 instances)', run: pollCycle },
  { id: 'slack-pace', name: 'rate limits (60 decisions in one channel, 60 in six others)', run: rateLimit },
  { id: 'ack', name: 'slash-command acknowledgement under load', run: ackLatency },
  { id: 'start-up', name: 'start-up', run: startup },
  { id: 'audit', name: 'audit trail on vs off: slash-command acknowledgement', run: auditAck },
  { id: 'audit-export', name: 'audit export of 100,000 entries', run: auditExport },
  { id: 'playground', name: 'playground: start, page load, a command typed to its answer', run: playground },
  { id: 'reminders', name: 'approval reminders (200 due, 2 instances on Redis)', run: approvalReminders },
  {
    id: 'team',
    name: 'approvals at team scale (200 with two checkers, escalations due, a delegate; 2 instances on Redis)',
    run: approvalsAtTeamScale,
  },
  { id: 'pix-events', name: 'pix events (60 dispute webhooks in one second)', run: pixEvents },
  { id: 'pix-budget', name: 'pix budget (2,000 reads at PIX_RATE_LIMIT=50, sqlite then Redis with 2 instances)', run: pixBudget },
  { id: 'metrics', name: 'metrics on vs off: slash-command acknowledgement', run: metricsAck },
  { id: 'digest', name: 'digest (500 approvals, 2,000 in review, 200 disputes) and balance sweeps of 150 accounts', run: digest },
  {
    id: 'stores',
    name: 'stores side by side: sqlite, Redis and Postgres (ack under load, a poll tick, approvals raced by 2 instances)',
    run: storeBackends,
  },
  { id: 'money-out', name: 'money out (200 payments raced on 2 instances on Redis, their ends by webhook and poll)', run: moneyOut },
];

/**
 * `npm run bench` (BENCH_ONLY: a comma-separated list of benchmark ids): every benchmark, one table,
 * each figure beside its bound and the noise it is judged with (judge.ts). A benchmark that fails (an
 * error, or out of its time limit) is a row marked NO, and the others still run; the exit code is 1
 * exactly when a row is NO: a figure out of bounds by judge.ts's rule, or a benchmark that failed.
 */
async function main(): Promise<void> {
  const only = process.env.BENCH_ONLY?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = only?.filter((id) => !BENCHMARKS.some((b) => b.id === id)) ?? [];
  if (unknown.length > 0) {
    process.stderr.write(`BENCH_ONLY: no benchmark ${unknown.join(', ')}; the ids are ${BENCHMARKS.map((b) => b.id).join(', ')}\n`);
    process.exit(2);
  }
  const figures: Figure[] = [];
  const started = Date.now();
  for (const { id, name, run } of BENCHMARKS) {
    if (only && !only.includes(id)) continue;
    process.stderr.write(`running ${name}…\n`);
    const t = Date.now();
    try {
      figures.push(...(await runBenchmark(run)));
    } catch (err) {
      process.stderr.write(`  ${name} failed: ${err instanceof Error ? err.stack : String(err)}\n`);
      figures.push(failedFigure(name, reasonOf(err)));
    }
    process.stderr.write(`  ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
  }
  process.stderr.write(`all benchmarks: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  // Nothing of the machine is printed: the figures are judged against their own baselines and noise.
  process.stdout.write(`\nPix Ops benchmarks — Node ${process.version}\n\n${table(figures)}`);
  // Whatever a failed benchmark left behind (a server, a timer) must not keep the process from ending.
  process.exit(exitCode(figures));
}

/** The first line of an error's message: a table cell. */
function reasonOf(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
}

main().catch((err: unknown) => {
  process.stderr.write(`benchmark failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
