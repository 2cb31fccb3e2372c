import { startPixOps } from '../src/app';
import { loadConfig } from '../src/runtime/config';

/**
 * The yardstick of the metrics benchmark: the bot exactly as `npm start` runs it (same configuration,
 * same store), but counting nothing and serving no /metrics. Run as a child process, like the bot.
 */
async function main(): Promise<void> {
  const result = loadConfig(process.env);
  if (!result.ok) throw new Error(result.problems.join('; '));
  const running = await startPixOps(result.config, { metrics: false });
  process.on('SIGTERM', () => void running.stop().then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  process.stderr.write(`the bot without metrics failed: ${String(err)}\n`);
  process.exit(1);
});
