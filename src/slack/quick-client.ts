import type { WebClient } from '@slack/web-api';
import { slackClientsOf } from './clients';

/**
 * The client for the look-ups that stand before an answer (a user's locale, a user group's members,
 * a file's metadata): see clients.ts. A client that is not a real WebClient (a test double) is used
 * as it is.
 */
export function quickClient(client: WebClient): WebClient {
  return slackClientsOf(client)?.quick() ?? client;
}
