import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RunningApp, type StartOptions, startPixOps } from '../../src/app';
import { loadConfig } from '../../src/runtime/config';
import { createLogger, SecretRegistry } from '../../src/runtime/logger';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { slashCommandBody } from '../../src/slack-standin/deliveries';
import { slackSignatureHeaders } from '../../src/slack-standin/signing';
import { SlackStandIn } from '../../src/slack-standin/web-api';

export const SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';
export const BOT_TOKEN = 'xoxb-test-bot-token-0123456789';

export interface Harness {
  app: RunningApp;
  slack: SlackStandIn;
  sandbox: SandboxHandle;
  /** Every line the app logged, as written. */
  logs: string[];
  dataDir: string;
  eventsUrl: string;
  slash(userId: string, text: string, options?: { channelId?: string }): Promise<SlashResult>;
  post(body: string, headers: Record<string, string>): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

export interface SlashResult {
  status: number;
  /** The acknowledgement's body (an ephemeral message, or empty). */
  ack: Record<string, unknown> | undefined;
  /** The id of the response_url this command was given (see SlackStandIn.responsesTo). */
  responseId: string;
}

let counter = 0;

/**
 * The real app in HTTP mode on an ephemeral port, a fake Slack on 127.0.0.1, and the sandbox Pix API
 * on 127.0.0.1 (as an external service, through PIX_API_URL, unless `sandboxMode`).
 */
export async function startHarness(
  env: Record<string, string> = {},
  options: { sandboxMode?: boolean; beforeSealing?: StartOptions['beforeSealing'] } = {},
): Promise<Harness> {
  const slack = await new SlackStandIn().start();
  const sandbox = options.sandboxMode ? undefined : await startSandbox({ port: 0 });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pix-ops-test-'));
  const { app, logs } = await startLoggedApp(harnessEnv({ slack, sandbox, dataDir }, env), options);
  const eventsUrl = `http://127.0.0.1:${app.port}/slack/events`;

  const post = poster(eventsUrl, slack);

  return {
    app,
    slack,
    sandbox: sandbox ?? app.sandbox!,
    logs,
    dataDir,
    eventsUrl,
    post,
    slash: (userId, text, opts = {}) => sendSlash(post, slack, userId, text, opts, `${++counter}`),
    async close() {
      await app.stop();
      await sandbox?.close();
      await slack.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The environment of a test app on this fake Slack and sandbox (the sandbox built in when there is
 * none), with its store in `dataDir`; `env` on top.
 */
export function harnessEnv(
  parts: { slack: SlackStandIn; sandbox?: SandboxHandle; dataDir: string },
  env: Record<string, string> = {},
): Record<string, string> {
  const { slack, sandbox, dataDir } = parts;
  return {
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    PORT: '0',
    SLACK_API_URL: slack.apiUrl,
    ...(sandbox ? { PIX_API_URL: sandbox.url, PIX_APP_ID: sandbox.companies.main.mainAppId } : {}),
    STORE_URL: `sqlite://${path.join(dataDir, 'pix-ops.sqlite')}`,
    PIX_TIMEOUT_MS: '3000',
    // No scheduled poll unless a test asks for one (or calls poller.tick()): a tick landing in the
    // middle of a test would add Pix calls to what the test asserts on.
    POLL_SCHEDULE: '0 0 1 1 *',
    ...env,
  };
}

/** The app in this process on a test environment, its log lines kept (at debug). Stop it yourself. */
export async function startLoggedApp(
  env: Record<string, string>,
  options: Pick<StartOptions, 'beforeSealing'> = {},
): Promise<{ app: RunningApp; logs: string[] }> {
  const result = loadConfig(env);
  if (!result.ok) throw new Error(`bad test config: ${result.problems.join('; ')}`);
  const logs: string[] = [];
  const secrets = new SecretRegistry();
  const logger = createLogger({ level: 'debug', secrets, destination: { write: (line: string) => void logs.push(line) } });
  return { app: await startPixOps(result.config, { logger, secrets, ...options }), logs };
}

/** All the text of a message (its `text` and every text in its blocks), for assertions. */
export function messageText(message: unknown): string {
  const parts: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(message);
  return parts.join('\n');
}

type Post = (body: string, headers: Record<string, string>) => Promise<{ status: number; text: string }>;

/** Posts to an app's /slack/events; the acknowledgement is a payload too, judged as Slack judges it (a response_action, a command's answer). */
export function poster(eventsUrl: string, slack: SlackStandIn): Post {
  return async (body, headers) => {
    const res = await fetch(eventsUrl, { method: 'POST', body, headers });
    const text = await res.text();
    if (res.ok) slack.judgeAck(body, text);
    return { status: res.status, text };
  };
}

/** `/pix <text>` as Slack sends it, signed; its answers come to the response_url `cmd-<id>`. */
export async function sendSlash(post: Post, slack: SlackStandIn, userId: string, text: string, opts: { channelId?: string }, id: string) {
  const { body, responseId } = slashBody(slack, userId, text, opts, id);
  const res = await post(body, signedForm(body));
  return { status: res.status, ack: res.text ? (JSON.parse(res.text) as Record<string, unknown>) : undefined, responseId };
}

/** The headers of a form body as Slack signs it (a fresh timestamp each time, as on each of Slack's tries). */
export const signedForm = (body: string): Record<string, string> => ({
  'content-type': 'application/x-www-form-urlencoded',
  ...slackSignatureHeaders(body, SIGNING_SECRET),
});

/** The body of `/pix <text>` as Slack sends it (trigger `trigger-<id>`, response_url `cmd-<id>`), unsigned. */
export function slashBody(
  slack: SlackStandIn,
  userId: string,
  text: string,
  opts: { channelId?: string },
  id: string,
): { body: string; responseId: string } {
  const responseId = `cmd-${id}`;
  const body = slashCommandBody({
    userId,
    text,
    channelId: opts.channelId ?? 'C0CHANNEL',
    responseUrl: slack.responseUrl(responseId),
    triggerId: `trigger-${id}`,
  });
  return { body, responseId };
}
