import { WebClient } from '@slack/web-api';
import type { Deps } from '../entry/deps';
import { boltLogger } from '../slack/bolt-logger';
import { SLACK_CALL_TIMEOUT_MS } from '../slack/exact-client';
import { PacedWebClient, type SlackPacer } from './pacing';

/**
 * The poller's Web API client: the exact client's settings (../slack/exact-client.ts: the app's token
 * and URL, no retries, a time limit: a failed call fails the request's turn, and the next tick resumes
 * it after looking in the thread first, which keeps the reply single), paced per method and channel.
 * The one call made again is a 429, a call Slack did not perform: the pacer (pacing.ts) makes it again
 * after its Retry-After, holding back that method in that channel only.
 *
 * A `deps.slack` that is not a real WebClient (a test double) is used as it is.
 */
export function pollerSlackClient(deps: Deps, pacer: SlackPacer): WebClient {
  if (!(deps.slack instanceof WebClient)) return deps.slack;
  return new PacedWebClient(
    deps.botToken,
    {
      slackApiUrl: deps.slack.slackApiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout: SLACK_CALL_TIMEOUT_MS,
      logger: boltLogger(deps.logger),
    },
    pacer,
  );
}
