import type { Deps } from '../entry/deps';
import type { SlackMessage } from '../../views/message';
import { errorText } from '../runtime/error-text';

export const ROOT_EVENT_TYPE = 'pix_limit_request';

/**
 * Posts a limit request's thread root in the channel, or, when the bot cannot post there (not a
 * member, archived, a DM it is not in…), in a direct message to the requester. The metadata names
 * the request, so the thread can be recognized later. Undefined when neither post worked.
 */
export async function postThreadRoot(
  deps: Deps,
  input: { channel: string; userId: string; limitRequestId: string; message: SlackMessage },
): Promise<{ channel: string; ts: string } | undefined> {
  const metadata = { event_type: ROOT_EVENT_TYPE, event_payload: { limit_request_id: input.limitRequestId } };
  const post = async (channel: string) => {
    const res = await deps.slack.chat.postMessage({ channel, ...input.message, metadata });
    return res.ts && res.channel ? { channel: res.channel, ts: res.ts } : undefined;
  };
  try {
    return await post(input.channel);
  } catch (err) {
    deps.logger.info({ channel: input.channel, err: errorText(err) }, 'cannot post in the channel; trying a DM');
  }
  try {
    const dm = await deps.slack.conversations.open({ users: input.userId });
    return dm.channel?.id ? await post(dm.channel.id) : undefined;
  } catch (err) {
    deps.logger.warn({ user: input.userId, err: errorText(err) }, 'cannot post the thread root');
    return undefined;
  }
}
