import { config as loadDotenv } from 'dotenv';
import { startPixOps } from './app';
import { errorText } from './errors';
import { loadConfig, loadPlaygroundConfig, playgroundHelp, SETUP_HELP, wantsPlayground } from './runtime/config';

async function main(): Promise<void> {
  loadDotenv({ quiet: true });
  if (wantsPlayground(process.env)) return playground();
  const result = loadConfig(process.env);
  if (!result.ok) {
    if (result.missingBotToken) process.stderr.write(`${SETUP_HELP}\n\n`);
    process.stderr.write(`Configuration problems:\n${result.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    process.exit(1);
  }
  const running = await startPixOps(result.config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.deps.logger.info({ signal }, 'stopping');
    // Never hang on the way out: whatever is still open after 10 s is abandoned.
    setTimeout(() => process.exit(1), 10_000).unref();
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/** Nothing of a deployment set (wantsPlayground): the playground, until stopped. */
async function playground(): Promise<void> {
  const result = loadPlaygroundConfig(process.env);
  if (!result.ok) {
    process.stderr.write(`Configuration problems:\n${result.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    process.exit(1);
  }
  // Loaded only in this mode: a deployment's start-up does not pay for it.
  const { startPlayground } = require('./playground') as typeof import('./playground');
  const running = await startPlayground({ port: result.port, logLevel: result.logLevel });
  process.stdout.write(`${playgroundHelp(running.url)}\n`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => process.exit(1), 10_000).unref();
    running.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((err: unknown) => {
  // No stack trace and no value: start-up errors can quote configuration.
  process.stderr.write(`Pix Ops could not start: ${errorText(err)}\n`);
  process.exit(1);
});
