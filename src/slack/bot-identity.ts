import type { WebClient } from '@slack/web-api';
import { IncompleteSlackAnswerError } from './incomplete-answer';

const known = new WeakMap<WebClient, Promise<string>>();

/**
 * This app's own `bot_id` (from `auth.test`, asked once per client): messages are trusted as ours only
 * when they carry it, since any app can post a message with the same metadata.
 * https://docs.slack.dev/reference/methods/auth.test
 */
export function ownBotId(slack: WebClient): Promise<string> {
  let id = known.get(slack);
  if (!id) {
    id = slack.auth.test().then((res) => {
      if (typeof res.bot_id !== 'string' || !res.bot_id) throw new IncompleteSlackAnswerError('auth.test gave no bot_id: not a bot token');
      return res.bot_id;
    });
    // A failure is not remembered: the next caller asks again.
    id.catch(() => known.delete(slack));
    known.set(slack, id);
  }
  return id;
}
