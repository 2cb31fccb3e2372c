import type { WebClient } from '@slack/web-api';
import type { Deps } from '../entry/deps';
import { slackClientsOf } from './clients';
import type { SlackPacer } from './pacing';

/**
 * The poller's Web API client: the exact client's settings (../slack/clients.ts: the app's token and
 * URL, no retries, a time limit: a failed call fails the request's turn, and the next tick resumes
 * it after looking in the thread first, which keeps the reply single), paced per method and channel.
 * The one call made again is a 429, a call Slack did not perform: the pacer (pacing.ts) makes it again
 * after its Retry-After, holding back that method in that channel only.
 *
 * A `deps.slack` that is not a real WebClient (a test double) is used as it is.
 */
export function pollerSlackClient(deps: Deps, pacer: SlackPacer): WebClient {
  return slackClientsOf(deps.slack, deps)?.paced(pacer) ?? deps.slack;
}
