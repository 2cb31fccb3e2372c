import { type FetchFunction, LogLevel, WebClient, type WebClientOptions } from '@slack/web-api';
import type { Logger } from '../runtime/logger';
import type { Metrics, SlackCallResult } from '../runtime/metrics';
import { boltLogger } from './bolt-logger';
import { ExactWebClient } from './exact-client';
import { PacedWebClient, type SlackPacer } from './pacing';
import { LocaleResolver, slackLocaleLookup } from './user-locale';

/** Time limit of each call of the exact client: a hung call must not hold a tick (and a stop) forever. */
const SLACK_CALL_TIMEOUT_MS = 10_000;
/** Time limit of one call through the quick client. */
const QUICK_TIMEOUT_MS = 3_000;
const SLACK_API_URL = 'https://slack.com/api/';

/**
 * Every way the app reaches Slack's Web API, named for what each client promises; built once in the
 * composition root (src/app.ts) and carried in `deps.slack`. Every call of every one is counted
 * (`pixops_slack_calls_total{method,result}`).
 */
export interface SlackClients {
  /**
   * Bolt's own client, for the calls a repeat does no harm (views, ephemeral answers, updates): it
   * retries a failed call up to 10 times over about 30 minutes and, on a 429, pauses every call of
   * the app for Retry-After. On the poller's tick (`paced`), the paced client.
   */
  readonly retried: WebClient;
  /**
   * For the posts that must happen once (thread roots, decisions, announcements, DMs): each call made
   * once, failing at once; the caller decides, after looking for the message first (post-once.ts).
   * On the poller's tick (`paced`), the paced client, which is one too.
   */
  readonly exact: ExactWebClient;
  /**
   * For the look-ups that stand before an answer (a user's locale, a group's members, a file's
   * metadata): no retries, no waiting out a rate limit, a short time limit, since Slack waits three
   * seconds for an acknowledgement.
   */
  readonly quick: WebClient;
  /** Each user's language, asked of Slack through the quick client once and cached (shared by every set). */
  readonly locales: LocaleResolver;
  /**
   * The same clients for the background work (the poller's jobs, the events outbox): ordinary and
   * must-once calls alike through a client of the exact client's settings whose every call takes its
   * turn per method and channel (pacing.ts): it makes again only what Slack did not perform (a 429).
   */
  paced(pacer: SlackPacer): SlackClients;
}

export interface SlackClientSettings {
  token: string;
  /** SLACK_API_URL; Slack's own when unset. */
  slackApiUrl?: string;
  logger?: Logger;
  /** Every call of every client made with these settings is counted. */
  metrics?: Metrics;
}

/** Bolt's client options: the URL, and the calls counted. Given to Bolt's App, then to `slackClients` with its client. */
export function slackClientOptions(settings: Omit<SlackClientSettings, 'token' | 'logger'>): WebClientOptions {
  return {
    ...(settings.slackApiUrl ? { slackApiUrl: settings.slackApiUrl } : {}),
    ...(settings.metrics ? { fetch: countingFetch(settings.metrics, settings.slackApiUrl ?? SLACK_API_URL) } : {}),
  };
}

/** The app's clients, around Bolt's own (made with `appOptions`, from slackClientOptions). */
export function slackClients(
  retried: WebClient,
  settings: Pick<SlackClientSettings, 'token' | 'logger'>,
  appOptions: WebClientOptions,
): SlackClients {
  const logger = settings.logger ? { logger: boltLogger(settings.logger) } : {};
  const exactOptions: WebClientOptions = { ...appOptions, timeout: SLACK_CALL_TIMEOUT_MS, ...logger };
  const quick = new WebClient(settings.token, {
    ...appOptions,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: QUICK_TIMEOUT_MS,
    logLevel: LogLevel.ERROR,
    // Through the app's log like the others (its redaction included), not the Web API's console.
    ...logger,
  });
  const locales = new LocaleResolver({ lookup: slackLocaleLookup(quick) });
  const paced = (pacer: SlackPacer): SlackClients => {
    const client = new PacedWebClient(settings.token, exactOptions, pacer);
    return { retried: client, exact: client, quick, locales, paced };
  };
  return { retried, exact: new ExactWebClient(settings.token, exactOptions), quick, locales, paced };
}

/**
 * A fetch that counts each Web API call by method and result: `ok` or `error` (Slack's `ok: false`,
 * read from a copy of the answer, `clone()`, so that the answer itself reaches the Web API client
 * untouched), `rate_limited` (429), `failed` (no answer, or an HTTP error, or an answer that is not
 * JSON). A call to another address (a file upload's URL) counts as `files.upload`. The copy is read
 * before the answer is handed on, so a call is counted by the time its caller has its result.
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
      count(
        await (response as Response)
          .clone()
          .text()
          .then(okOf, () => 'failed' as const),
      );
    }
    return response;
  };
}

const okOf = (body: string): SlackCallResult => {
  try {
    return (JSON.parse(body) as { ok?: unknown } | null)?.ok === true ? 'ok' : 'error';
  } catch {
    return 'failed';
  }
};
