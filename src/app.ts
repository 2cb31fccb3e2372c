import type { AddressInfo } from 'node:net';
import { App, LogLevel } from '@slack/bolt';
import { AccessControl } from './access';
import type { Config } from './config';
import type { Deps } from './deps';
import { createLogger, SecretRegistry, type Logger } from './logger';
import { PixClient } from './pix/client';
import { DEFAULT_SEED, startSandbox, type SandboxHandle } from './sandbox';
import { boltLogger } from './slack/bolt-logger';
import { ENTRIES } from '../commands';
import { registerEntries } from './entries';
import { homeEntries } from './home';
import { startPoller, type Poller } from './poller';
import { registerSlashCommand } from './slash-router';
import { openStore } from './store';

export interface RunningApp {
  /** The HTTP port in HTTP mode (useful with PORT=0). */
  port?: number;
  sandbox?: SandboxHandle;
  deps: Deps;
  poller: Poller;
  stop(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  secrets?: SecretRegistry;
  /** Prefix of every store key (several deployments or test runs on one Redis). */
  storeNamespace?: string;
}

/** Config → (sandbox when no PIX_API_URL) → store → Bolt app → serve. */
export async function startPixOps(config: Config, options: StartOptions = {}): Promise<RunningApp> {
  const secrets = options.secrets ?? new SecretRegistry();
  for (const value of [config.slack.botToken, config.slack.appToken, config.slack.signingSecret, config.pix.appId, config.pix.masterAppId, config.store.secret]) {
    secrets.add(value);
  }
  const logger = options.logger ?? createLogger({ level: config.logLevel, secrets });

  let sandbox: SandboxHandle | undefined;
  let pixUrl = config.pix.apiUrl;
  let mainAppId = config.pix.appId;
  if (config.sandboxMode) {
    sandbox = await startSandbox({ port: 0, seed: DEFAULT_SEED });
    pixUrl = sandbox.url;
    mainAppId ??= sandbox.companies.main.mainAppId;
    secrets.add(mainAppId);
    logger.warn({ pixApiUrl: pixUrl }, 'SANDBOX mode: no PIX_API_URL, using the built-in sandbox Pix API');
  }
  if (!pixUrl || !mainAppId) throw new Error('PIX_API_URL and PIX_APP_ID are required outside sandbox mode');

  const store = await openStore({ ...config.store, namespace: options.storeNamespace, onSecret: (v) => secrets.add(v) });
  const pix = new PixClient({
    baseUrl: pixUrl,
    timeoutMs: config.pix.timeoutMs,
    onCall: (e) => logger.debug({ pix: e }, 'Pix API call'),
  });

  const app = new App({
    token: config.slack.botToken,
    signingSecret: config.slack.signingSecret,
    appToken: config.slack.appToken,
    socketMode: Boolean(config.slack.appToken),
    clientOptions: config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : undefined,
    logger: boltLogger(logger),
    logLevel: LogLevel.INFO,
  });

  const access = new AccessControl({
    lists: config.access,
    sandboxMode: config.sandboxMode,
    groupMembers: async (usergroup) => (await app.client.usergroups.users.list({ usergroup })).users ?? [],
    onGroupError: (usergroup, err) =>
      logger.warn({ usergroup, err: err instanceof Error ? err.message : String(err) }, 'could not resolve a user group'),
  });

  const deps: Deps = {
    pix,
    store,
    access,
    logger,
    mainAppId,
    masterAppId: config.pix.masterAppId,
    secrets,
    sandboxMode: config.sandboxMode,
    slack: app.client,
    botToken: config.slack.botToken,
  };
  registerSlashCommand(app, deps);
  registerEntries(app, deps, [...ENTRIES, ...homeEntries]);
  app.error(async (err) => {
    logger.error({ err: err.message, code: err.code }, 'unhandled error in a Slack listener');
  });

  let port: number | undefined;
  if (config.slack.appToken) {
    await app.start();
    logger.info({ mode: 'socket' }, 'Pix Ops is running (Socket Mode)');
  } else {
    const server = await app.start(config.slack.port);
    port = (server.address() as AddressInfo).port;
    logger.info({ mode: 'http', port }, 'Pix Ops is running (HTTP, /slack/events)');
  }
  const poller = startPoller(deps, config.poll);
  if (!config.access.viewer.length && !config.access.operator.length && !config.access.admin.length && !config.sandboxMode) {
    logger.warn('No ACCESS_VIEWERS, ACCESS_OPERATORS or ACCESS_ADMINS set: nobody is authorized');
  }

  let stopped: Promise<void> | undefined;
  return {
    port,
    sandbox,
    deps,
    poller,
    // Safe to call twice (a signal during a stop, a test cleaning up): the second call waits on the first.
    stop: () =>
      (stopped ??= (async () => {
        await poller.stop();
        await app.stop();
        await store.close();
        await sandbox?.close();
      })()),
  };
}
