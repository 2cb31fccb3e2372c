import type { App as BoltApp } from '@slack/bolt';
import { BoltListenerRefusedError } from '../../src/slack/bolt-app';
import {
  blockSuggestionPayload,
  interactionBody,
  slashCommandBody,
  submittedView,
  viewSubmissionPayload,
} from '../../src/slack-standin/deliveries';
import { type Harness, messageText, signedForm, startHarness } from '../support/harness';
import { blockAction } from '../support/interactions';
import { deliveriesDone } from '../support/wait';

// A delivery no row of the entry table answers to is acknowledged and logged as unknown, and goes
// no further: a listener registered the Bolt way (`app.action()`…), which would skip the role check
// and the audit trail, is never reached; and once the app is wired, Bolt refuses to register one.

const OPERATOR = 'U0OPERSTRAY';
const CHANNEL = 'C0STRAYS01';

describe('deliveries no row of the entry table answers to', () => {
  let h: Harness;
  let bolt: BoltApp | undefined;
  const reached: string[] = [];

  beforeAll(async () => {
    h = await startHarness(
      { ACCESS_OPERATORS: OPERATOR },
      {
        beforeSealing: (app) => {
          bolt = app;
          // Registered as a stray `app.action()` would be: each one notes that it ran, then answers.
          app.use(async ({ next }) => {
            reached.push('middleware');
            await next();
          });
          app.action('stray_button', async ({ ack }) => {
            reached.push('action');
            await ack();
          });
          app.command('/stray', async ({ ack }) => {
            reached.push('command');
            await ack();
          });
          app.view('stray_form', async ({ ack }) => {
            reached.push('view');
            await ack();
          });
          app.options('stray_search', async ({ ack }) => {
            reached.push('options');
            await ack({ options: [{ text: { type: 'plain_text', text: 'stray' }, value: 'stray' }] });
          });
        },
      },
    );
  });
  afterAll(() => h.close());

  const unknownLines = () => h.logs.filter((l) => l.includes('unknown delivery'));
  const post = (payload: Record<string, unknown>) => {
    const body = interactionBody(payload);
    return h.post(body, signedForm(body));
  };

  test('a button a stray app.action() listens to: acknowledged, logged as unknown, the listener never reached', async () => {
    const taken = h.app.inFlight.total;
    const slackCalls = h.slack.calls.length;
    const res = await blockAction(h, { userId: OPERATOR, actionId: 'stray_button', value: 'x', channelId: CHANNEL, responseId: 'stray-1' });
    expect(res.status).toBe(200);
    await deliveriesDone(h.app, taken + 1);
    expect(reached).toEqual([]);
    expect(h.slack.responsesTo('stray-1')).toEqual([]);
    // Nothing of Slack's asked (Bolt's own auth.test, made once before the first delivery, aside).
    expect(h.slack.calls.slice(slackCalls).filter((c) => c.method !== 'auth.test')).toEqual([]);
    const lines = unknownLines().map((l) => JSON.parse(l) as { delivery?: unknown });
    expect(lines.at(-1)?.delivery).toEqual({ kind: 'action', id: 'stray_button' });
  });

  test('a slash command other than /pix, a form and a search no row has: each acknowledged, none reached', async () => {
    const taken = h.app.inFlight.total;
    const command = slashCommandBody({
      userId: OPERATOR,
      text: 'anything',
      channelId: CHANNEL,
      command: '/stray',
      responseUrl: h.slack.responseUrl('stray-cmd'),
      triggerId: 'trigger-stray-cmd',
    });
    const answered = await h.post(command, signedForm(command));
    expect(answered).toEqual({ status: 200, text: '' });

    const form = submittedView({ type: 'modal', callback_id: 'stray_form', title: { type: 'plain_text', text: 'Stray' } }, 'V0STRAY01', {});
    expect(await post(viewSubmissionPayload(OPERATOR, form))).toEqual({ status: 200, text: '' });

    // Options are the acknowledgement itself: Slack requires a list, so none (the stand-in judges it).
    const search = await post(blockSuggestionPayload(OPERATOR, { actionId: 'stray_search', value: 'st' }));
    expect(search.status).toBe(200);
    expect(JSON.parse(search.text)).toEqual({ options: [] });

    await deliveriesDone(h.app, taken + 3);
    expect(reached).toEqual([]);
    expect(
      unknownLines()
        .slice(-3)
        .map((l) => (JSON.parse(l) as { delivery?: unknown }).delivery),
    ).toEqual([
      { kind: 'command', id: '/stray' },
      { kind: 'view', id: 'stray_form' },
      { kind: 'options', id: 'stray_search' },
    ]);
  });

  test('/pix and the rows of the table still answer (the same app, the same middleware)', async () => {
    const res = await h.slash(OPERATOR, 'help');
    expect(res.status).toBe(200);
    expect(messageText(res.ack)).toContain('/pix');
    expect(reached).toEqual([]);
  });

  test('once the app is wired, Bolt refuses to register a listener', () => {
    expect(bolt).toBeDefined();
    expect(() => bolt!.action('late_button', async () => undefined)).toThrow(BoltListenerRefusedError);
    expect(() => bolt!.use(async ({ next }) => next())).toThrow(/entry table/);
    expect(() => bolt!.event('app_mention', async () => undefined)).toThrow(BoltListenerRefusedError);
  });
});
