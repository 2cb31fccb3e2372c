import { WebClient } from '@slack/web-api';
import type { Logger } from '../runtime/logger';
import { boltLogger } from './bolt-logger';

/** Time limit of each call of the exact client: a hung call must not hold a tick (and a stop) forever. */
export const SLACK_CALL_TIMEOUT_MS = 10_000;

const byClient = new WeakMap<WebClient, WebClient>();

/**
 * A client for the posts that must happen once (thread roots, decisions, announcements) and the
 * poller's calls: the app's token and URL (SLACK_API_URL), but no retries of its own. The app's client
 * retries a failed call up to 10 times over about 30 minutes and, on a 429, pauses every call of the
 * app for Retry-After; worse, it repeats a `chat.postMessage` whose answer was lost, and Slack has no
 * idempotency key to stop a second message. Through this client a failed call fails at once, and the
 * caller decides, after looking for the message first (post-once.ts). (Setting this on the app's own
 * client is not an option: Socket Mode reconnects through the same client options, and relies on
 * their retries.)
 *
 * One per app client; a client that is not a real WebClient (a test double) is used as it is.
 */
export function exactClient(deps: { slack: WebClient; botToken: string; logger: Logger }): WebClient {
  const client = deps.slack;
  if (!(client instanceof WebClient)) return client;
  let exact = byClient.get(client);
  if (!exact) {
    exact = new WebClient(deps.botToken, {
      slackApiUrl: client.slackApiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout: SLACK_CALL_TIMEOUT_MS,
      logger: boltLogger(deps.logger),
    });
    byClient.set(client, exact);
  }
  return exact;
}
