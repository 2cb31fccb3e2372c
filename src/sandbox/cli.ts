import { z } from 'zod';
import { errorText } from '../errors';
import { DEFAULT_SEED, type SandboxCompany, startSandbox } from './index';

// `npm run sandbox`: the sandbox Pix API alone, on SANDBOX_PORT (default 4010), its ids derived from
// SANDBOX_SEED (default: the seed of the bot's in-process sandbox, so the printed AppIDs are the bot's);
// SANDBOX_WEBHOOK_RETRY_MS (default 100) is the unit of its webhook retries (the service's is 10000:
// retries 10·2ⁿ s apart).
const PORT_HINT = 'expected a port number, 0 to 65535 (0: any free port)';
const SEED_HINT = 'expected at most 200 characters and no control characters (any text: the same seed gives the same ids on every start)';
const RETRY_HINT = 'expected a whole number of milliseconds from 1 to 10000';
const orDefault = (fallback: string) => (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : fallback);

// Like the bot's configuration: every problem at once, naming the variable, never quoting the value.
const SandboxEnv = z.object({
  SANDBOX_PORT: z.preprocess(
    orDefault('4010'),
    z
      .string()
      .trim()
      .regex(/^\d{1,5}$/, PORT_HINT)
      .transform(Number)
      .pipe(z.number().max(65535, PORT_HINT)),
  ),
  SANDBOX_SEED: z.preprocess(
    orDefault(DEFAULT_SEED),
    z
      .string()
      .max(200, SEED_HINT)
      .regex(/^\P{Cc}*$/u, SEED_HINT),
  ),
  SANDBOX_WEBHOOK_RETRY_MS: z.preprocess(
    orDefault('100'),
    z
      .string()
      .trim()
      .regex(/^\d{1,5}$/, RETRY_HINT)
      .transform(Number)
      .pipe(z.number().min(1, RETRY_HINT).max(10_000, RETRY_HINT)),
  ),
});

function readEnv(env: NodeJS.ProcessEnv): z.infer<typeof SandboxEnv> {
  const parsed = SandboxEnv.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `  - ${String(issue.path[0])}: ${issue.message}`);
  process.stderr.write(`Sandbox configuration problems:\n${problems.join('\n')}\n`);
  process.exit(1);
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
  const env = readEnv(process.env);
  const sandbox = await startSandbox({ port: env.SANDBOX_PORT, seed: env.SANDBOX_SEED, webhookRetryUnitMs: env.SANDBOX_WEBHOOK_RETRY_MS });
  process.stdout.write(
    [
      `Sandbox Pix API listening on ${sandbox.url}  (PIX_API_URL=${sandbox.url})`,
      '',
      describe('main', sandbox.companies.main),
      '',
      describe('other', sandbox.companies.other),
      '',
      `Control routes: ${sandbox.url}/sandbox/info, /sandbox/limit-requests/:id/approve, ...`,
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
