import { WebClient } from '@slack/web-api';
import type { Deps } from '../entry/deps';
import { boltLogger } from '../slack/bolt-logger';
import { PacedWebClient, type SlackPacer } from './pacing';

/** Time limit of each Slack call of the poller: a hung call must not hold a tick (and stop()) forever. */
export const SLACK_CALL_TIMEOUT_MS = 10_000;

/**
 * The poller's Web API client: the app's token and URL (SLACK_API_URL), but no retries of its own.
 * The shared client retries a failed call up to 10 times over about 30 minutes and, on a 429, pauses
 * every call of the app for Retry-After; worse, it would repeat a `chat.postMessage` whose answer was
 * lost, and Slack has no idempotency key to stop a second reply. Here a failed call fails the request's
 * turn, and the next tick resumes it after looking in the thread first, which keeps the reply single.
 * The one exception is a 429, a call Slack did not perform: the pacer (pacing.ts) makes it again
 * after its Retry-After, holding back that method in that channel only.
 * (Setting this on the app's own client is not an option: Socket Mode reconnects through the same
 * client options, and relies on their retries.)
 *
 * A `deps.slack` that is not a real WebClient (a test double) is used as it is.
 */
export function pollerSlackClient(deps: Deps, pacer: SlackPacer): WebClient {
  if (!(deps.slack instanceof WebClient)) return deps.slack;
  return new PacedWebClient(deps.botToken, {
    slackApiUrl: deps.slack.slackApiUrl,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: SLACK_CALL_TIMEOUT_MS,
    logger: boltLogger(deps.logger),
  }, pacer);
}
