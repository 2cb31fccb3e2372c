import os from 'node:os';
import type { Figure } from './lib';
import { modalLatency } from './modal-latency';
import { proofStreaming } from './proof-streaming';

/** `npm run bench`: every benchmark, one table, each figure beside its bound. */
async function main(): Promise<void> {
  const benches: Array<[string, () => Promise<Figure[]>]> = [
    ['modal latency', modalLatency],
    ['proof streaming', proofStreaming],
  ];
  const figures: Figure[] = [];
  for (const [name, run] of benches) {
    process.stderr.write(`running ${name}…\n`);
    figures.push(...(await run()));
  }
  const width = Math.max(...figures.map((f) => f.name.length));
  const valueWidth = Math.max(...figures.map((f) => f.value.length));
  process.stdout.write(`\nPix Ops benchmarks — ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}\n\n`);
  process.stdout.write(`${'figure'.padEnd(width)}  ${'value'.padEnd(valueWidth)}  bound        ok\n`);
  for (const f of figures) {
    process.stdout.write(`${f.name.padEnd(width)}  ${f.value.padEnd(valueWidth)}  ${f.bound.padEnd(11)}  ${f.ok ? 'yes' : 'NO'}\n`);
  }
  process.exitCode = figures.every((f) => f.ok) ? 0 : 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`benchmark failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
