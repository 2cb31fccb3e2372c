import type { Deps } from '../entry/deps';
import type { SlackMessage } from '../../views/message';
import { errorText } from '../runtime/error-text';

export const ROOT_EVENT_TYPE = 'pix_limit_request';

/**
 * Posts a message that starts a thread (a limit request's, an approval's) in the channel, or, when
 * the bot cannot post there (not a member, archived, a DM it is not in…), in a direct message to
 * `userId`. The metadata names what the thread is about, so it can be recognized later. Undefined
 * when neither post worked; `dm` says where it went.
 */
export async function postRootMessage(
  deps: Pick<Deps, 'slack' | 'logger'>,
  input: { channel: string; userId: string; message: SlackMessage; metadata: { event_type: string; event_payload: Record<string, string> } },
): Promise<{ channel: string; ts: string; dm: boolean } | undefined> {
  const post = async (channel: string, dm: boolean) => {
    const res = await deps.slack.chat.postMessage({ channel, ...input.message, metadata: input.metadata });
    return res.ts && res.channel ? { channel: res.channel, ts: res.ts, dm } : undefined;
  };
  try {
    return await post(input.channel, false);
  } catch (err) {
    deps.logger.info({ channel: input.channel, err: errorText(err) }, 'cannot post in the channel; trying a DM');
  }
  try {
    const dm = await deps.slack.conversations.open({ users: input.userId });
    return dm.channel?.id ? await post(dm.channel.id, true) : undefined;
  } catch (err) {
    deps.logger.warn({ user: input.userId, err: errorText(err) }, 'cannot post the thread root');
    return undefined;
  }
}

/** A limit request's thread root (see postRootMessage), its metadata naming the request. */
export async function postThreadRoot(
  deps: Deps,
  input: { channel: string; userId: string; limitRequestId: string; message: SlackMessage },
): Promise<{ channel: string; ts: string } | undefined> {
  const metadata = { event_type: ROOT_EVENT_TYPE, event_payload: { limit_request_id: input.limitRequestId } };
  const root = await postRootMessage(deps, { channel: input.channel, userId: input.userId, message: input.message, metadata });
  return root && { channel: root.channel, ts: root.ts };
}
