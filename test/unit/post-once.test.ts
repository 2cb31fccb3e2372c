import { WebClient } from '@slack/web-api';
import { createLogger, SecretRegistry } from '../../src/runtime/logger';
import { type SlackClients, slackClients } from '../../src/slack/clients';
import { ExactWebClient, NotExactClientError } from '../../src/slack/exact-client';
import { SlackPaceError, SlackPacer } from '../../src/slack/pacing';
import { noticeMetadata, postOnce, postToUser } from '../../src/slack/post-once';
import { postRootMessage, postThreadRoot } from '../../src/slack/thread-root';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { BOT_TOKEN } from '../support/harness';

/**
 * postOnce through the app's exact client (no retries of its own) against the Slack stand-in: what
 * reached Slack is read from the stand-in's calls, and what the channel holds from its messages.
 */
describe('postOnce', () => {
  const logger = createLogger({ level: 'silent', secrets: new SecretRegistry() });
  let slack: SlackStandIn;
  let clients: SlackClients;
  let client: ExactWebClient;
  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    // As the app makes them (src/app.ts): around a client with the default retries, as Bolt's is.
    clients = slackClients(
      new WebClient(BOT_TOKEN, { slackApiUrl: slack.apiUrl }),
      { token: BOT_TOKEN, logger },
      { slackApiUrl: slack.apiUrl },
    );
    client = clients.exact;
  });
  afterAll(() => slack.close());
  afterEach(() => slack.off('chat.postMessage'));

  const methodsSince = (from: number, channel: string) =>
    slack.calls
      .slice(from)
      .filter((c) => c.args.channel === channel)
      .map((c) => c.method);
  const postsIn = (channel: string) => slack.messages.filter((m) => m.channel === channel);

  test('a post the pacer held back was never sent: it fails at once, nothing looked up or sent again', async () => {
    const held = new SlackPaceError('chat.postMessage', 'C0BUSY', 20_000);
    // The pacer throws before the call leaves; every other call goes to Slack.
    const paced = Object.create(client) as ExactWebClient;
    Object.defineProperty(paced, 'chat', { value: { ...client.chat, postMessage: () => Promise.reject(held) } });
    const from = slack.calls.length;
    await expect(postOnce(paced, { channel: 'C0BUSY', text: 'hi' }, noticeMetadata())).rejects.toBe(held);
    expect(slack.calls.slice(from)).toEqual([]);
  });

  test('an answer lost after Slack took the post: the channel is looked at, the message found, nothing sent again', async () => {
    const from = slack.calls.length;
    slack.loseAnswers('chat.postMessage', 1);
    const posted = await postOnce(client, { channel: 'C0LOST', text: 'hi' }, noticeMetadata());
    expect(methodsSince(from, 'C0LOST')).toEqual(['chat.postMessage', 'conversations.history']);
    expect(postsIn('C0LOST')).toHaveLength(1);
    expect(posted).toEqual({ channel: 'C0LOST', ts: postsIn('C0LOST')[0]!.ts });
  });

  test('an in-doubt failure that posted nothing: looked at, then sent again, once', async () => {
    let failures = 1;
    slack.on('chat.postMessage', (args) =>
      failures-- > 0 ? { httpStatus: 500, body: { ok: false, error: 'internal_error' } } : slack.answerByDefault('chat.postMessage', args),
    );
    const from = slack.calls.length;
    const posted = await postOnce(client, { channel: 'C0QUIET', text: 'hi' }, noticeMetadata());
    expect(methodsSince(from, 'C0QUIET')).toEqual(['chat.postMessage', 'conversations.history', 'chat.postMessage']);
    expect(postsIn('C0QUIET')).toHaveLength(1);
    expect(posted.ts).toBe(postsIn('C0QUIET')[0]!.ts);
  });

  test('in doubt every time: three posts at most, each after a look, then the error', async () => {
    slack.on('chat.postMessage', () => ({ httpStatus: 500, body: { ok: false, error: 'internal_error' } }));
    const from = slack.calls.length;
    await expect(postOnce(client, { channel: 'C0DOWN', text: 'hi' }, noticeMetadata())).rejects.toThrow();
    expect(methodsSince(from, 'C0DOWN')).toEqual([
      'chat.postMessage',
      'conversations.history',
      'chat.postMessage',
      'conversations.history',
      'chat.postMessage',
      'conversations.history',
    ]);
    expect(postsIn('C0DOWN')).toEqual([]);
  });

  describe('only through a client that makes each call once', () => {
    const where = { channel: 'C0RETRIED', text: 'hi' };
    const retried = () => clients.retried as ExactWebClient;

    test('the app’s clients: the exact and the paced ones make each call once; the retried one does not', () => {
      expect(ExactWebClient.isExact(clients.exact)).toBe(true);
      expect(ExactWebClient.isExact(clients.paced(new SlackPacer({ maxWaitMs: 1_000 })).exact)).toBe(true);
      expect(ExactWebClient.isExact(clients.retried)).toBe(false);
      expect(ExactWebClient.isExact(clients.quick)).toBe(false);
    });

    test('a retried client handed to a must-once post (past the type, by a cast): refused before anything reaches Slack', async () => {
      const from = slack.calls.length;
      await expect(postOnce(retried(), where, noticeMetadata())).rejects.toBeInstanceOf(NotExactClientError);
      await expect(postToUser(retried(), 'U0SOMEONE', where, noticeMetadata())).rejects.toBeInstanceOf(NotExactClientError);
      const root = { channel: 'C0RETRIED', userId: 'U0SOMEONE', message: { text: 'hi', blocks: [] } };
      await expect(postRootMessage(retried(), logger, { ...root, metadata: noticeMetadata() })).rejects.toBeInstanceOf(NotExactClientError);
      await expect(postThreadRoot(retried(), logger, { ...root, limitRequestId: 'lr-1' })).rejects.toBeInstanceOf(NotExactClientError);
      expect(slack.calls.slice(from)).toEqual([]);
    });

    test('the type: a client that retries does not compile as a must-once post’s client', () => {
      const typeOnly = () => {
        // @ts-expect-error: Bolt's client (or any WebClient) is not an ExactWebClient
        void postOnce(clients.retried, where, noticeMetadata());
        // @ts-expect-error: nor is the quick client
        void postToUser(clients.quick, 'U0SOMEONE', where, noticeMetadata());
      };
      expect(typeOnly).toBeInstanceOf(Function);
    });
  });
});
