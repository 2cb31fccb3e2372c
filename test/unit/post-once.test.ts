import type { WebClient } from '@slack/web-api';
import { SlackPaceError } from '../../src/poller/pacing';
import { noticeMetadata, postOnce } from '../../src/slack/post-once';

/** A client whose every call is counted; chat.postMessage fails with `error`. */
function failingClient(error: unknown) {
  const calls: string[] = [];
  const client = {
    chat: {
      postMessage: async () => {
        calls.push('chat.postMessage');
        throw error;
      },
    },
    conversations: {
      history: async () => {
        calls.push('conversations.history');
        return { ok: true, messages: [] };
      },
    },
    auth: { test: async () => ({ ok: true, bot_id: 'B0PIXOPS' }) },
  };
  return { client: client as unknown as WebClient, calls };
}

describe('postOnce', () => {
  test('a post the pacer held back was never sent: it fails at once, nothing looked up or sent again', async () => {
    const held = new SlackPaceError('chat.postMessage', 'C0BUSY', 20_000);
    const { client, calls } = failingClient(held);
    await expect(postOnce(client, { channel: 'C0BUSY', text: 'hi' }, noticeMetadata())).rejects.toBe(held);
    expect(calls).toEqual(['chat.postMessage']);
  });

  test('no answer leaves the post in doubt: the channel is looked at before it is sent again', async () => {
    const { client, calls } = failingClient(Object.assign(new Error('socket hang up'), { code: 'slack_webapi_request_error' }));
    await expect(postOnce(client, { channel: 'C0QUIET', text: 'hi' }, noticeMetadata())).rejects.toThrow('socket hang up');
    expect(calls.slice(0, 3)).toEqual(['chat.postMessage', 'conversations.history', 'chat.postMessage']);
  });
});
