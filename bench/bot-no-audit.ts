import { startPixOps } from '../src/app';
import { loadConfig } from '../src/runtime/config';

/**
 * The yardstick of the audit benchmark: the bot exactly as `npm start` runs it (same configuration,
 * same store), but recording nothing in the audit trail. Run as a child process, like the bot.
 */
async function main(): Promise<void> {
  const result = loadConfig(process.env);
  if (!result.ok) throw new Error(result.problems.join('; '));
  const running = await startPixOps(result.config, { auditTrail: false });
  process.on('SIGTERM', () => void running.stop().then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  process.stderr.write(`the bot without audit trail failed: ${String(err)}\n`);
  process.exit(1);
});
