import type { AddressInfo } from 'node:net';
import type { SandboxCall } from './context';
import { Faults } from './faults';
import { type SandboxCompany, seedState } from './seed';
import { createSandboxServer, DEFAULT_MAX_LOGGED_CALLS } from './server';
import { type KeyBits, SandboxWebhooks } from './webhooks';

export type { SandboxCall } from './context';
export type { SandboxCompany } from './seed';

export interface SandboxHandle {
  /** Base URL, the part before `/api/v1`, e.g. `http://127.0.0.1:43121`. */
  url: string;
  companies: { main: SandboxCompany; other: SandboxCompany };
  /** The `/api/v1` requests received, in order, the latest `maxLoggedCalls` of them; a live array. */
  calls: SandboxCall[];
  /** Its webhooks: the target, the signing keys, the deliveries made. */
  webhooks: SandboxWebhooks;
  close(): Promise<void>;
}

/**
 * The seed of the bot's in-process sandbox and of `npm run sandbox`, so that the AppIDs the latter
 * prints are the ones the former uses.
 */
export const DEFAULT_SEED = 'pix-ops';

/** The sandbox's retry unit (the service's is 10 s): retries 100 ms, 200 ms, … 12.8 s apart. */
export const DEFAULT_WEBHOOK_RETRY_UNIT_MS = 100;

/**
 * Starts the in-memory sandbox Pix API; port 0 (the default) picks a free port. Its call log is
 * bounded (`maxLoggedCalls`, default 5,000): the bot's in-process sandbox runs as long as the bot.
 */
export async function startSandbox(
  opts: {
    port?: number;
    host?: string;
    seed?: string;
    maxLoggedCalls?: number;
    webhookRetryUnitMs?: number;
    webhookKeyBits?: KeyBits;
  } = {},
): Promise<SandboxHandle> {
  const host = opts.host ?? '127.0.0.1';
  const { state, companies } = seedState(opts.seed);
  const calls: SandboxCall[] = [];
  let url = '';
  const maxLoggedCalls = opts.maxLoggedCalls ?? DEFAULT_MAX_LOGGED_CALLS;
  // Retries 10·2ⁿ units apart: the service's unit is 10 s; the sandbox's a tenth of a second unless told.
  const webhooks = new SandboxWebhooks({
    retryUnitMs: opts.webhookRetryUnitMs ?? DEFAULT_WEBHOOK_RETRY_UNIT_MS,
    ...(opts.webhookKeyBits ? { keyBits: opts.webhookKeyBits } : {}),
  });
  const server = createSandboxServer({ state, companies, calls, maxLoggedCalls, faults: new Faults(), webhooks, baseUrl: () => url });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  url = `http://${urlHost(host)}:${port}`;

  return {
    url,
    companies,
    calls,
    webhooks,
    close: () =>
      new Promise<void>((resolve, reject) => {
        webhooks.close();
        state.clock.close();
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive connections would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

/** A wildcard bind address is reached through loopback; IPv6 literals need brackets in a URL. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
