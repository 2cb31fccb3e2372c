import { WebClient, type WebClientOptions } from '@slack/web-api';
import { PixOpsError } from '../errors';

/**
 * A Web API client that makes each call once: no retries, and a rate-limited call rejected rather
 * than waited out, whatever the options say. What a post that must happen once needs (post-once.ts):
 * Bolt's own client retries a failed call up to 10 times over about 30 minutes and repeats a
 * `chat.postMessage` whose answer was lost, and Slack has no idempotency key to stop a second
 * message. Here a failed call fails at once, and the caller decides, after looking for the message.
 *
 * A class of its own so that only such a client satisfies a must-once helper's parameter (its private
 * member makes the type nominal), and so that the helper can check it as it runs (`assertExact`).
 */
export class ExactWebClient extends WebClient {
  private readonly eachCallOnce = true;

  constructor(token: string, options: WebClientOptions) {
    super(token, { ...options, retryConfig: { retries: 0 }, rejectRateLimitedCalls: true });
  }

  /** Whether `client` makes each call once (a test double made from one counts as one). */
  static isExact(client: unknown): client is ExactWebClient {
    return client instanceof ExactWebClient && client.eachCallOnce;
  }
}

/** A post that must happen once was handed a client that may repeat it: refused before anything is sent. */
export class NotExactClientError extends PixOpsError {
  readonly code = 'pixops_slack_not_exact_client';

  constructor(what: string) {
    super(`${what} must go through a client that makes each call once (deps.slack.exact), not one that retries`);
  }
}

/** The guard of every must-once post, for the caller that bypassed the type (a cast, a test double). */
export function assertExact(client: WebClient, what: string): asserts client is ExactWebClient {
  if (!ExactWebClient.isExact(client)) throw new NotExactClientError(what);
}
