import { ExactWebClient } from '../../src/slack/exact-client';
import { postToUser } from '../../src/slack/post-once';
import { SlackStandIn } from '../../src/slack-standin/web-api';

// postToUser against the Slack stand-in: the DM is opened first, and both the post and the look-up
// that makes it once name the DM channel (`D…`); `conversations.history` takes no user ID.

describe('postToUser', () => {
  const slack = new SlackStandIn();
  let client: ExactWebClient;
  beforeAll(async () => {
    await slack.start();
    client = new ExactWebClient('xoxb-test-bot-token-0123456789', { slackApiUrl: slack.apiUrl });
  });
  afterAll(() => slack.close());

  test('the answer lost: the DM channel is read, the message found there, not posted again', async () => {
    slack.loseAnswers('chat.postMessage', 1);
    const metadata = { event_type: 'pix_ops_notice', event_payload: { notice_id: 'lost-once' } };
    const posted = await postToUser(client, 'U0MAKER01', { text: 'your secret' }, metadata);
    expect(posted.channel).toBe('D0MAKER01');
    const calls = slack.calls.map((c) => `${c.method} ${String(c.args.channel ?? c.args.users ?? '')}`);
    expect(calls.filter((c) => !c.startsWith('auth.test'))).toEqual([
      'conversations.open U0MAKER01',
      'chat.postMessage D0MAKER01',
      'conversations.history D0MAKER01',
    ]);
    expect(slack.messages.filter((m) => m.channel === 'D0MAKER01')).toHaveLength(1);
  });

  test('a user’s DM is opened once by a client: the next post to them is one call; another client opens its own', async () => {
    const notice = (id: string) => ({ event_type: 'pix_ops_notice', event_payload: { notice_id: id } });
    const methods = (from: number) => slack.calls.slice(from).map((c) => `${c.method} ${String(c.args.channel ?? c.args.users ?? '')}`);
    const from = slack.calls.length;
    await postToUser(client, 'U0OFTEN01', { text: 'first' }, notice('often-1'));
    await postToUser(client, 'U0OFTEN01', { text: 'second' }, notice('often-2'));
    expect(methods(from)).toEqual(['conversations.open U0OFTEN01', 'chat.postMessage D0OFTEN01', 'chat.postMessage D0OFTEN01']);
    const other = new ExactWebClient('xoxb-test-bot-token-0123456789', { slackApiUrl: slack.apiUrl });
    const next = slack.calls.length;
    await postToUser(other, 'U0OFTEN01', { text: 'third' }, notice('often-3'));
    expect(methods(next).filter((c) => !c.startsWith('auth.test'))).toEqual(['conversations.open U0OFTEN01', 'chat.postMessage D0OFTEN01']);
  });

  test('a DM that cannot be opened: rejected, nothing posted', async () => {
    slack.on('conversations.open', () => ({ ok: false, error: 'user_disabled' }));
    const from = slack.calls.length;
    await expect(
      postToUser(client, 'U0GONE001', { text: 'hi' }, { event_type: 'pix_ops_notice', event_payload: { notice_id: 'x' } }),
    ).rejects.toThrow(/user_disabled/);
    expect(slack.calls.slice(from).map((c) => c.method)).toEqual(['conversations.open']);
    slack.off('conversations.open');
  });
});
