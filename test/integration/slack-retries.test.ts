import { WebClient } from '@slack/web-api';
import type { RunningApp } from '../../src/app';
import { deliveryMiddleware, InFlight } from '../../src/entry/delivery';
import { createLogger, SecretRegistry } from '../../src/runtime/logger';
import { slackClients } from '../../src/slack/clients';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { MemoryClaims } from '../../src/store/claims';
import { StoreUnavailableError } from '../../src/store/errors';
import { type Harness, poster, signedForm, slashBody, startHarness } from '../support/harness';
import { startAppLike } from '../support/limit-requests';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { deliveriesDone, waitFor } from '../support/wait';

const OPERATOR = 'U0OPERATR1';
const CHANNEL = 'C0RETRIES1';

/** Slack's headers on a repeated delivery. */
const retryHeaders = (n: number, reason = 'http_timeout') => ({ 'x-slack-retry-num': String(n), 'x-slack-retry-reason': reason });

/** `/pix <text>` from the operator in the channel, as Slack sends it; its modal comes with trigger `trigger-<id>`. */
const commandBody = (h: Pick<Harness, 'slack'>, text: string, id: string) =>
  slashBody(h.slack, OPERATOR, text, { channelId: CHANNEL }, id).body;

/** Posts a form body to an app, signed as Slack signs it (a fresh timestamp on every try); the acknowledgement judged as Slack would. */
const deliver = (h: Pick<Harness, 'slack'>, url: string, body: string, headers: Record<string, string> = {}) =>
  poster(url, h.slack)(body, { ...signedForm(body), ...headers });

describe("Slack's retries never perform an action twice (sqlite store, one instance)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ ACCESS_OPERATORS: OPERATOR });
  });
  afterAll(() => h.close());

  test('a slash command repeated with x-slack-retry-num: acknowledged, the modal opened once', async () => {
    const body = commandBody(h, 'limit request', 'retry-cmd-1');
    const first = await deliver(h, h.eventsUrl, body);
    expect(first.status).toBe(200);
    await waitFor('the modal', () => h.slack.callsOf('views.open').find((c) => c.args.trigger_id === 'trigger-retry-cmd-1'));

    const taken = h.app.inFlight.total;
    for (const n of [1, 2]) {
      const again = await deliver(h, h.eventsUrl, body, retryHeaders(n));
      expect(again.status).toBe(200);
      expect(again.text).toBe('');
    }
    await deliveriesDone(h.app, taken + 2);
    expect(h.slack.callsOf('views.open').filter((c) => c.args.trigger_id === 'trigger-retry-cmd-1')).toHaveLength(1);

    // Another command (another trigger) is handled normally.
    const other = await deliver(h, h.eventsUrl, commandBody(h, 'limit request', 'retry-cmd-2'));
    expect(other.status).toBe(200);
    await waitFor('the second modal', () => h.slack.callsOf('views.open').find((c) => c.args.trigger_id === 'trigger-retry-cmd-2'));
  });

  test('a retry that arrives while the first delivery is still being handled is skipped too', async () => {
    const body = commandBody(h, 'limit request', 'retry-cmd-3');
    const taken = h.app.inFlight.total;
    const [a, b] = await Promise.all([deliver(h, h.eventsUrl, body), deliver(h, h.eventsUrl, body, retryHeaders(1, 'http_error'))]);
    expect([a.status, b.status]).toEqual([200, 200]);
    await deliveriesDone(h.app, taken + 2);
    expect(h.slack.callsOf('views.open').filter((c) => c.args.trigger_id === 'trigger-retry-cmd-3')).toHaveLength(1);
  });

  test('an Events API event repeated (same event_id): handled once', async () => {
    const event = {
      token: 'legacy-verification-token',
      team_id: 'T0FAKE',
      api_app_id: 'A0PIXOPS',
      type: 'event_callback',
      event_id: 'Ev0RETRY0001',
      event_time: Math.floor(Date.now() / 1000),
      event: {
        type: 'app_home_opened',
        user: OPERATOR,
        channel: 'D0RETRY01',
        tab: 'home',
        event_ts: `${Math.floor(Date.now() / 1000)}.000100`,
      },
    };
    const body = JSON.stringify(event);
    const published = () => h.slack.callsOf('views.publish').filter((c) => c.args.user_id === OPERATOR);
    const json = (headers: Record<string, string> = {}) =>
      deliver(h, h.eventsUrl, body, { 'content-type': 'application/json', ...headers });
    expect((await json()).status).toBe(200);
    await waitFor('the Home tab', () => published().length >= 1);
    const count = published().length;
    const taken = h.app.inFlight.total;
    expect((await json(retryHeaders(1))).status).toBe(200);
    expect((await json(retryHeaders(2))).status).toBe(200);
    await deliveriesDone(h.app, taken + 2);
    expect(published()).toHaveLength(count);
  });

  test('a button click repeated (same trigger_id): answered once, the Pix API read once', async () => {
    const payload = {
      type: 'block_actions',
      user: { id: OPERATOR, username: 'operator', name: 'operator', team_id: 'T0FAKE' },
      api_app_id: 'A0PIXOPS',
      token: 'legacy-verification-token',
      container: { type: 'message', message_ts: '1700000000.000900', channel_id: CHANNEL, is_ephemeral: true },
      trigger_id: 'trigger-retry-click-1',
      team: { id: 'T0FAKE', domain: 'fake' },
      channel: { id: CHANNEL, name: 'finance' },
      state: { values: {} },
      response_url: h.slack.responseUrl('retry-click-1'),
      actions: [
        {
          action_id: 'limit_list_next',
          block_id: 'limit_list_nav',
          type: 'button',
          value: '2',
          text: { type: 'plain_text', text: 'Next' },
          action_ts: '1700000000.000901',
        },
      ],
    };
    const body = `payload=${encodeURIComponent(JSON.stringify(payload))}`;
    const reads = () => h.sandbox.calls.filter((c) => c.method === 'GET' && c.path === '/api/v1/limits/request').length;
    const readsBefore = reads();
    expect((await deliver(h, h.eventsUrl, body)).status).toBe(200);
    await waitFor('the answer', () => h.slack.responsesTo('retry-click-1')[0]);
    const taken = h.app.inFlight.total;
    expect((await deliver(h, h.eventsUrl, body, retryHeaders(1))).status).toBe(200);
    await deliveriesDone(h.app, taken + 1);
    expect(h.slack.responsesTo('retry-click-1')).toHaveLength(1);
    expect(reads() - readsBefore).toBe(1);
  });
});

describe("Slack's retries across instances (Redis, 127.0.0.1:6379)", () => {
  test('the first delivery on one instance, its retry on another (a load balancer): the retry is skipped', async () => {
    const namespace = testNamespace('retries');
    const env = { ACCESS_OPERATORS: OPERATOR, STORE_URL: SHARED_REDIS_URL, STORE_SECRET: 'r'.repeat(40), STORE_NAMESPACE: namespace };
    const h = await startHarness(env);
    let other: RunningApp | undefined;
    try {
      other = (await startAppLike(h, env)).app;

      const body = commandBody(h, 'limit request', 'retry-lb-1');
      expect((await deliver(h, h.eventsUrl, body)).status).toBe(200);
      await waitFor('the modal', () => h.slack.callsOf('views.open').find((c) => c.args.trigger_id === 'trigger-retry-lb-1'));
      const again = await deliver(h, `http://127.0.0.1:${other.port}/slack/events`, body, retryHeaders(1));
      expect(again.status).toBe(200);
      await deliveriesDone(other, 1);
      expect(h.slack.callsOf('views.open').filter((c) => c.args.trigger_id === 'trigger-retry-lb-1')).toHaveLength(1);
    } finally {
      await other?.stop();
      await h.close();
      await deleteKeys(SHARED_REDIS_URL, namespace);
    }
  });
});

describe('the delivery middleware, when a handler finds the store unavailable', () => {
  const logger = createLogger({ level: 'silent', secrets: new SecretRegistry() });
  const failing = { route: async () => Promise.reject(new StoreUnavailableError('get', new Error('The client is offline'))) };
  let slack: SlackStandIn;
  beforeAll(async () => {
    slack = await new SlackStandIn().start();
  });
  afterAll(() => slack.close());
  /** The app's clients (deps.slack), on the stand-in: the only way the middleware reaches Slack. */
  const clients = () => {
    const options = { slackApiUrl: slack.apiUrl };
    return slackClients(new WebClient(slack.botToken, options), { token: slack.botToken }, options);
  };
  const middleware = (inFlight = new InFlight()) =>
    deliveryMiddleware({
      inFlight,
      dedupe: { claims: new MemoryClaims(`mw-${Date.now()}`, 'me') },
      logger,
      sandboxMode: false,
      router: failing,
      slack: clients(),
    });

  test('a button: the person is told through the response_url, nothing else', async () => {
    const said: unknown[] = [];
    const inFlight = new InFlight();
    await middleware(inFlight)({
      body: { type: 'block_actions', trigger_id: 'trigger-mw-1', user: { id: OPERATOR } },
      context: {},
      respond: async (m: unknown) => void said.push(m),
      ack: async () => undefined,
      next: async () => undefined,
    } as never);
    expect(said).toHaveLength(1);
    expect(JSON.stringify(said[0])).toContain('storage is unavailable, so nothing was done');
    expect(inFlight.size).toBe(0);
  });

  test('a modal submission not yet acknowledged: the answer replaces the modal', async () => {
    const acks: unknown[] = [];
    await middleware()({
      body: { type: 'view_submission', trigger_id: 'trigger-mw-2', user: { id: OPERATOR }, view: { id: 'V1' } },
      context: {},
      ack: async (r: unknown) => void acks.push(r),
      next: async () => undefined,
    } as never);
    expect(acks).toHaveLength(1);
    expect(acks[0]).toMatchObject({ response_action: 'update', view: { type: 'modal', title: { text: 'Not available' } } });
    expect(JSON.stringify(acks[0])).toContain('storage is unavailable');
  });

  // Bolt's per-delivery client (args.client) is not given: only deps.slack can reach the stand-in.
  test('a modal submission the handler acknowledged already: the modal is changed through deps.slack', async () => {
    await middleware()({
      body: { type: 'view_submission', trigger_id: 'trigger-mw-3', user: { id: OPERATOR }, view: { id: 'V0ACKED1' } },
      context: {},
      ack: async () => Promise.reject(new Error('already acknowledged')),
      next: async () => undefined,
    } as never);
    const updates = slack.callsOf('views.update').filter((c) => c.args.view_id === 'V0ACKED1');
    expect(updates).toHaveLength(1);
    expect(JSON.stringify(updates[0]!.args.view)).toContain('storage is unavailable');
  });

  test('a delivery with no response_url: the person is told in a DM, through deps.slack', async () => {
    await middleware()({
      body: { type: 'block_actions', trigger_id: 'trigger-mw-4', user: { id: 'U0NORESP01' } },
      context: {},
      ack: async () => undefined,
      next: async () => undefined,
    } as never);
    const posts = slack.callsOf('chat.postMessage').filter((c) => c.args.channel === 'U0NORESP01');
    expect(posts).toHaveLength(1);
    expect(String(posts[0]!.args.text)).toContain('storage is unavailable');
  });
});
