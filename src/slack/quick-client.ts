import { createHash } from 'node:crypto';
import { LogLevel, WebClient } from '@slack/web-api';

/** Time limit of one call through the quick client. */
const QUICK_TIMEOUT_MS = 3_000;

const byWorkspace = new Map<string, WebClient>();
const byClient = new WeakMap<object, WebClient>();

/**
 * A client for the look-ups that stand before an answer (a user's locale, a user group's members,
 * a file's metadata): no retries, no waiting out a rate limit, a short time limit. The app's own
 * client retries a failed call for up to half an hour, which would hold an acknowledgement that Slack
 * waits three seconds for. One per bot (token and API URL); a client that is not a real WebClient (a
 * test double) is used as it is.
 */
export function quickClient(client: WebClient): WebClient {
  if (!(client instanceof WebClient) || !client.token) return client;
  const known = byClient.get(client);
  if (known) return known;
  // The token only as a hash: the key says which bot this is without holding its secret.
  const key = createHash('sha256').update(`${client.slackApiUrl}\0${client.token}`).digest('hex');
  let quick = byWorkspace.get(key);
  if (!quick) {
    quick = new WebClient(client.token, {
      slackApiUrl: client.slackApiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
      timeout: QUICK_TIMEOUT_MS,
      logLevel: LogLevel.ERROR,
    });
    byWorkspace.set(key, quick);
  }
  byClient.set(client, quick);
  return quick;
}
