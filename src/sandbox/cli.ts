import { DEFAULT_SEED, startSandbox, type SandboxCompany } from './index';
import { errorText } from '../runtime/error-text';

/**
 * Runs the sandbox Pix API alone: `SANDBOX_PORT` (default 4010); `SANDBOX_SEED` (default: the bot's own)
 * fixes the ids; `SANDBOX_WEBHOOK_RETRY_MS` (default 100) is the unit of its webhook retries (the
 * service's is 10000: retries 10·2ⁿ s apart).
 */

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 4010;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`SANDBOX_PORT must be a port number (0-65535), got "${value}"\n`);
    process.exit(1);
  }
  return port;
}

function describe(label: string, c: SandboxCompany): string {
  return [
    `Company "${label}" (companyId ${c.companyId}, taxId ${c.taxId})`,
    `  MASTER AppID:     ${c.masterAppId}`,
    `  main AppID:       ${c.mainAppId}`,
    `  limited AppID:    ${c.limitedAppId}   (no scopes)`,
    `  default account:  ${c.defaultAccountId}`,
    `  subscription:     ${c.subscriptionId}   dispute: ${c.disputeId}`,
  ].join('\n');
}

async function main(): Promise<void> {
  const retry = process.env.SANDBOX_WEBHOOK_RETRY_MS;
  const retryUnitMs = retry ? Number(retry) : undefined;
  if (retryUnitMs !== undefined && !(Number.isInteger(retryUnitMs) && retryUnitMs >= 1 && retryUnitMs <= 10_000)) {
    process.stderr.write('SANDBOX_WEBHOOK_RETRY_MS must be a whole number of milliseconds from 1 to 10000\n');
    process.exit(1);
  }
  const sandbox = await startSandbox({ port: parsePort(process.env.SANDBOX_PORT), seed: process.env.SANDBOX_SEED || DEFAULT_SEED, webhookRetryUnitMs: retryUnitMs });
  process.stdout.write(
    [
      `Sandbox Pix API listening on ${sandbox.url}  (PIX_API_URL=${sandbox.url})`,
      '',
      describe('main', sandbox.companies.main),
      '',
      describe('other', sandbox.companies.other),
      '',
      `Control routes: ${sandbox.url}/sandbox/info, /sandbox/limit-requests/:id/approve, /sandbox/disputes, /sandbox/webhooks/target, ...`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );

  const stop = (): void => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`Sandbox failed to start: ${errorText(error)}\n`);
  process.exit(1);
});
