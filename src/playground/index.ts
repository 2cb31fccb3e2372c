import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RunningApp, startPixOps } from '../app';
import { loadConfig } from '../runtime/config';
import type { SandboxHandle } from '../sandbox';
import { SlackDeliveries } from '../slack-standin/deliveries';
import { SlackStandInUploads } from '../slack-standin/uploads';
import { SlackStandIn } from '../slack-standin/web-api';
import { SlackWorkspace } from '../slack-standin/workspace';
import { PERSONAS, PLAYGROUND_ACCESS } from './personas';
import { type PageServer, startPageServer } from './server';

export interface Playground {
  /** The page's address, `http://127.0.0.1:<port>/`. */
  url: string;
  app: RunningApp;
  slack: SlackStandIn;
  sandbox: SandboxHandle;
  workspace: SlackWorkspace;
  stop(): Promise<void>;
}

export interface PlaygroundOptions {
  port: number;
  /** The bot's LOG_LEVEL (default `warn`: the page is where things are seen). */
  logLevel?: string;
}

/** The playground's balance alert threshold (reais): the seeded default account's R$ 15.000,00 is above it. */
const PLAYGROUND_ALERT_BELOW = '10000';

/** The channel the page shows. */
export const PLAYGROUND_CHANNEL = { id: 'C0FINANCE', name: 'finance' };

/**
 * The whole app without a workspace: the sandbox Pix API, the Slack stand-in (Web API, uploads,
 * deliveries), the bot as in production (HTTP mode on a loopback port of its own, pointed at both),
 * and the page on 127.0.0.1, answering its own origin alone (server.ts).
 *
 * The bot runs in its own sandbox mode (no PIX_API_URL: it starts the sandbox, its messages say
 * SANDBOX); the access lists are set, so the personas' roles hold as they would in production.
 */
export async function startPlayground(options: PlaygroundOptions): Promise<Playground> {
  const slack = await new SlackStandIn().start();
  const uploads = await new SlackStandInUploads(slack).start();
  // Fresh secrets and store each run: the sandbox starts from its seed every time, so must the state.
  slack.botToken = `xoxb-playground-${randomBytes(12).toString('hex')}`;
  const signingSecret = randomBytes(16).toString('hex');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pix-ops-playground-'));
  const cleanUp = async () => {
    await uploads.close();
    await slack.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let app: RunningApp;
  try {
    const config = loadConfig({
      SLACK_BOT_TOKEN: slack.botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      PORT: '0',
      SLACK_API_URL: slack.apiUrl,
      STORE_URL: `sqlite://${path.join(dataDir, 'pix-ops.sqlite')}`,
      // Every 5 s, so a decision made in the sandbox panel reaches its thread soon (the panel also asks for a tick).
      POLL_SCHEDULE: '*/5 * * * * *',
      // The sandbox is the playground's own, shared with no company's systems: a budget that never holds
      // a person typing commands back (the default 5 a second protects a real service's allowance).
      PIX_RATE_LIMIT: '100',
      // The dispute desk in the page's one channel: the sandbox delivers its webhooks to the bot's receiver.
      PIX_EVENTS_CHANNEL: PLAYGROUND_CHANNEL.id,
      // The morning digest and the balance alerts in the same channel: an account set below R$ 10.000,00 in
      // the panel is alerted on the next tick (within 5 s), and the panel's button posts the digest at once.
      DIGEST_CHANNEL: PLAYGROUND_CHANNEL.id,
      BALANCE_ALERT_BELOW: PLAYGROUND_ALERT_BELOW,
      LOG_LEVEL: options.logLevel ?? 'warn',
      ...PLAYGROUND_ACCESS,
    });
    if (!config.ok) throw new Error(`the playground's own configuration is refused: ${config.problems.join('; ')}`);
    // Its Slack is the stand-in on this machine: the bot's listener on loopback, like everything else here.
    app = await startPixOps({ ...config.config, slack: { ...config.config.slack, host: '127.0.0.1' } });
  } catch (err) {
    await cleanUp();
    throw err;
  }
  // Sandbox mode always starts one (config without PIX_API_URL).
  const sandbox = app.sandbox!;
  const deliveries = new SlackDeliveries(slack, `http://127.0.0.1:${app.port}/slack/events`, signingSecret);
  const workspace = new SlackWorkspace({ slack, uploads, deliveries, channel: PLAYGROUND_CHANNEL, people: PERSONAS });
  let page: PageServer;
  try {
    page = await startPageServer({
      port: options.port,
      workspace,
      slack,
      sandbox,
      tick: () => app.poller.tick(),
      // DIGEST_CHANNEL is set above: the digest runs.
      postDigest: () => app.digest!.postNow(),
      logger: app.deps.logger,
    });
  } catch (err) {
    await app.stop();
    await cleanUp();
    throw err;
  }
  return {
    url: page.url,
    app,
    slack,
    sandbox,
    workspace,
    async stop() {
      await page.close();
      await app.stop();
      await cleanUp();
    },
  };
}
