import type { WebClient } from '@slack/web-api';
import type { Logger } from '../runtime/logger';
import { isWithoutRetries, slackClientsOf } from './clients';

export { SLACK_CALL_TIMEOUT_MS } from './clients';

/**
 * The client for the posts that must happen once (thread roots, decisions, announcements): see
 * clients.ts. A client that already fails at once (the poller's paced client, on the tick) is used as
 * it is, so what it posts keeps its pace; so is a client that is not a real WebClient (a test double).
 */
export function exactClient(deps: { slack: WebClient; botToken: string; logger: Logger }): WebClient {
  if (isWithoutRetries(deps.slack)) return deps.slack;
  return slackClientsOf(deps.slack, deps)?.exact() ?? deps.slack;
}
