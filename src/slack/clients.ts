import { createHash } from 'node:crypto';
import { type FetchFunction, LogLevel, WebClient, type WebClientOptions } from '@slack/web-api';
import type { Logger } from '../runtime/logger';
import type { Metrics, SlackCallResult } from '../runtime/metrics';
import { boltLogger } from './bolt-logger';
import { PacedWebClient, type SlackPacer } from './pacing';

/** Time limit of each call of the exact client: a hung call must not hold a tick (and a stop) forever. */
export const SLACK_CALL_TIMEOUT_MS = 10_000;
/** Time limit of one call through the quick client. */
const QUICK_TIMEOUT_MS = 3_000;
const SLACK_API_URL = 'https://slack.com/api/';

export interface SlackClientSettings {
  token: string;
  /** SLACK_API_URL; Slack's own when unset. */
  slackApiUrl?: string;
  logger?: Logger;
  /** Every call of every client made here is counted (`pixops_slack_calls_total{method,result}`). */
  metrics?: Metrics;
}

/** The clients made without retries: a call through them fails once, and the caller decides. */
const withoutRetries = new WeakSet<WebClient>();
const byAppClient = new WeakMap<WebClient, SlackClients>();
/** By bot (API URL and token, the token only hashed): Bolt makes more clients of the same bot. */
const byBot = new Map<string, SlackClients>();
const botKey = (apiUrl: string, token: string) => createHash('sha256').update(`${apiUrl}\0${token}`).digest('hex');

/**
 * Every Slack Web API client of the app comes from here, on one set of settings (token, URL, the
 * counting of calls):
 * - `appOptions()`: for Bolt's own client, which keeps its retries (Socket Mode reconnects through it);
 * - `exact()`: for the posts that must happen once (thread roots, decisions, announcements). The app's
 *   client retries a failed call up to 10 times over about 30 minutes and, on a 429, pauses every call
 *   of the app for Retry-After; worse, it repeats a `chat.postMessage` whose answer was lost, and Slack
 *   has no idempotency key to stop a second message. Here a failed call fails at once, and the caller
 *   decides, after looking for the message first (post-once.ts);
 * - `quick()`: for the look-ups that stand before an answer (a user's locale, a group's members, a
 *   file's metadata): no retries, no waiting out a rate limit, a short time limit, since Slack waits
 *   three seconds for an acknowledgement;
 * - `paced(pacer)`: the poller's, the exact client's settings with each call taking its turn per
 *   method and channel (pacing.ts).
 */
export class SlackClients {
  private exactClient: WebClient | undefined;
  private quickClient: WebClient | undefined;
  private readonly fetch: FetchFunction | undefined;

  constructor(private readonly settings: SlackClientSettings) {
    this.fetch = settings.metrics ? countingFetch(settings.metrics, settings.slackApiUrl ?? SLACK_API_URL) : undefined;
  }

  /** Bolt's client options: the URL, and the calls counted. */
  appOptions(): WebClientOptions {
    return {
      ...(this.settings.slackApiUrl ? { slackApiUrl: this.settings.slackApiUrl } : {}),
      ...(this.fetch ? { fetch: this.fetch } : {}),
    };
  }

  /** Lets `exactClient`, `quickClient` and the poller find these settings from the app's client. */
  register(appClient: WebClient): void {
    byAppClient.set(appClient, this);
    byBot.set(botKey(appClient.slackApiUrl, this.settings.token), this);
  }

  exact(): WebClient {
    this.exactClient ??= this.make({
      timeout: SLACK_CALL_TIMEOUT_MS,
      ...(this.settings.logger ? { logger: boltLogger(this.settings.logger) } : {}),
    });
    return this.exactClient;
  }

  quick(): WebClient {
    this.quickClient ??= this.make({ timeout: QUICK_TIMEOUT_MS, logLevel: LogLevel.ERROR });
    return this.quickClient;
  }

  paced(pacer: SlackPacer): WebClient {
    const client = new PacedWebClient(
      this.settings.token,
      this.options({ timeout: SLACK_CALL_TIMEOUT_MS, ...(this.settings.logger ? { logger: boltLogger(this.settings.logger) } : {}) }),
      pacer,
    );
    withoutRetries.add(client);
    return client;
  }

  private make(extra: WebClientOptions): WebClient {
    const client = new WebClient(this.settings.token, this.options(extra));
    withoutRetries.add(client);
    return client;
  }

  private options(extra: WebClientOptions): WebClientOptions {
    return { ...this.appOptions(), retryConfig: { retries: 0 }, rejectRateLimitedCalls: true, ...extra };
  }
}

/**
 * The settings behind an app client: those it was registered with, else (a client made elsewhere)
 * its own token and URL. Undefined for a client that is not a real WebClient (a test double).
 */
export function slackClientsOf(client: WebClient, fallback?: { botToken?: string; logger?: Logger }): SlackClients | undefined {
  if (!(client instanceof WebClient)) return undefined;
  let clients = byAppClient.get(client);
  if (!clients) {
    const token = client.token ?? fallback?.botToken;
    if (!token) return undefined;
    clients = byBot.get(botKey(client.slackApiUrl, token));
    clients ??= new SlackClients({ token, slackApiUrl: client.slackApiUrl, ...(fallback?.logger ? { logger: fallback.logger } : {}) });
    byAppClient.set(client, clients);
  }
  return clients;
}

/** Whether `client` already fails at once (an exact, quick or paced client): used as it is. */
export function isWithoutRetries(client: WebClient): boolean {
  return withoutRetries.has(client);
}

/**
 * A fetch that counts each Web API call by method and result: `ok` or `error` (Slack's `ok: false`,
 * read from a copy of the answer, off the caller's path), `rate_limited` (429), `failed` (no answer,
 * or an HTTP error). A call to another address (a file upload's URL) counts as `files.upload`.
 */
function countingFetch(metrics: Metrics, apiUrl: string): FetchFunction {
  return async (url, init) => {
    const href = typeof url === 'string' ? url : url.href;
    const method = href.startsWith(apiUrl) ? href.slice(apiUrl.length).split(/[?#/]/)[0]! : 'files.upload';
    const count = (result: SlackCallResult) => metrics.slackCall(method, result);
    let response: Awaited<ReturnType<FetchFunction>>;
    try {
      response = await globalThis.fetch(url, init as RequestInit);
    } catch (err) {
      count('failed');
      throw err;
    }
    if (response.status === 429) count('rate_limited');
    else if (response.status !== 200) count('failed');
    else if (method === 'files.upload') count('ok');
    else {
      (response as Response)
        .clone()
        .json()
        .then(
          (body) => count((body as { ok?: unknown } | null)?.ok === true ? 'ok' : 'error'),
          () => count('failed'),
        );
    }
    return response;
  };
}
