import { WebClient } from '@slack/web-api';
import { createMetrics, type Metrics } from '../../src/runtime/metrics';
import { slackClientOptions, slackClients } from '../../src/slack/clients';
import { SlackStandIn } from '../../src/slack-standin/web-api';

// The counting fetch (slack/clients.ts) against the Slack stand-in, through the real Web API clients:
// each call counted by its result, and every answer still read whole by the client that made it.

const TOKEN = 'xoxb-test-bot-token-0123456789';

/** `pixops_slack_calls_total` by `method result`, as /metrics serves it. */
async function counted(metrics: Metrics): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const body = (await metrics.scrape())?.body ?? '';
  for (const m of body.matchAll(/^pixops_slack_calls_total\{method="([^"]+)",result="([^"]+)"\} (\S+)$/gm)) {
    out[`${m[1]} ${m[2]}`] = Number(m[3]);
  }
  return out;
}

describe('Slack calls counted by the fetch of every client', () => {
  const slack = new SlackStandIn();
  let metrics: Metrics;
  let quick: WebClient;
  beforeAll(async () => {
    await slack.start();
  });
  beforeEach(() => {
    metrics = createMetrics();
    const options = slackClientOptions({ slackApiUrl: slack.apiUrl, metrics });
    quick = slackClients(new WebClient(TOKEN, options), { token: TOKEN }, options).quick;
  });
  afterEach(() => {
    for (const method of ['conversations.open', 'users.info', 'chat.update']) slack.off(method);
  });
  afterAll(() => slack.close());

  test('an answer with ok: true counts ok, and the client reads it whole', async () => {
    slack.on('conversations.open', () => ({ ok: true, channel: { id: 'D0COUNTED' }, note: 'x'.repeat(200_000) }));
    const answer = await quick.conversations.open({ users: 'U0COUNTED' });
    expect(answer.channel?.id).toBe('D0COUNTED');
    expect((answer as { note?: string }).note).toHaveLength(200_000);
    expect(await counted(metrics)).toEqual({ 'conversations.open ok': 1 });
  });

  test("Slack's ok: false counts error, and the client still gets Slack's error code", async () => {
    slack.on('users.info', () => ({ ok: false, error: 'user_not_found' }));
    await expect(quick.users.info({ user: 'U0MISSING' })).rejects.toMatchObject({ data: { ok: false, error: 'user_not_found' } });
    expect(await counted(metrics)).toEqual({ 'users.info error': 1 });
  });

  test('a 429 counts rate_limited and an HTTP error failed', async () => {
    slack.on('chat.update', () => ({ httpStatus: 429, headers: { 'retry-after': '1' }, body: { ok: false, error: 'ratelimited' } }));
    await expect(quick.chat.update({ channel: 'C0COUNTED', ts: '1.000001', text: 'x' })).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
    });
    slack.on('users.info', () => ({ httpStatus: 500, body: { ok: false } }));
    await expect(quick.users.info({ user: 'U0BROKEN' })).rejects.toMatchObject({ code: 'slack_webapi_http_error', statusCode: 500 });
    expect(await counted(metrics)).toEqual({ 'chat.update rate_limited': 1, 'users.info failed': 1 });
  });
});
