import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebClient } from '@slack/web-api';
import { SlackDeliveries } from '../../src/slack-standin/deliveries';
import { SlackStandInUploads } from '../../src/slack-standin/uploads';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { SlackWorkspace } from '../../src/slack-standin/workspace';

/**
 * The workspace on the Slack stand-in, as strict as Slack about views and triggers, with a small app
 * of the test's own at the other end: each slash command runs `onCommand` with a real
 * @slack/web-api client pointed at the stand-in.
 */

let slack: SlackStandIn;
let uploads: SlackStandInUploads;
let workspace: SlackWorkspace;
let app: http.Server;
let onCommand: (body: URLSearchParams) => Promise<void>;
const client = () => new WebClient('xoxb-test', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });

beforeAll(async () => {
  slack = await new SlackStandIn().start();
  uploads = await new SlackStandInUploads(slack).start();
  app = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    await onCommand(new URLSearchParams(body)).catch(() => undefined);
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const deliveries = new SlackDeliveries(slack, `http://127.0.0.1:${(app.address() as AddressInfo).port}/slack/events`, 'secret');
  workspace = new SlackWorkspace({ slack, uploads, deliveries, channel: { id: 'C0FINANCE', name: 'finance' } });
});

afterAll(async () => {
  app.closeAllConnections();
  await new Promise<void>((resolve) => app.close(() => resolve()));
  await uploads.close();
  await slack.close();
});

const modal = (title: string) => ({ type: 'modal' as const, title: { type: 'plain_text' as const, text: title }, blocks: [] });

test('views.open needs a trigger Slack gave, once; a stale hash is refused; a closed modal cannot be updated', async () => {
  const errors: string[] = [];
  const record = (err: unknown) => errors.push((err as { data?: { error?: string } }).data?.error ?? String(err));
  onCommand = async (body) => {
    const web = client();
    const trigger = body.get('trigger_id')!;
    await web.views.open({ trigger_id: 'made-up', view: modal('x') }).catch(record);
    const opened = await web.views.open({ trigger_id: trigger, view: modal('First') });
    await web.views.open({ trigger_id: trigger, view: modal('Again') }).catch(record);
    const second = await web.views.update({ view_id: opened.view!.id!, hash: opened.view!.hash, view: modal('Updated') });
    await web.views.update({ view_id: opened.view!.id!, hash: opened.view!.hash, view: modal('Stale') }).catch(record);
    expect(second.ok).toBe(true);
  };
  await workspace.command('U0ADMIN', 'C0FINANCE', 'open');
  expect(errors).toEqual(['invalid_trigger_id', 'invalid_trigger_id', 'hash_conflict']);
  const { modals } = workspace.viewOf('U0ADMIN');
  expect(modals.map((v) => (v.title as { text: string }).text)).toEqual(['Updated']);
  expect(workspace.viewOf('U0VIEWER').modals).toEqual([]);

  const closed = modals[0]!.id;
  await workspace.closeView('U0ADMIN', closed);
  errors.length = 0;
  onCommand = async () => {
    await client()
      .views.update({ view_id: closed, view: modal('Closed') })
      .catch(record);
  };
  await workspace.command('U0ADMIN', 'C0FINANCE', 'update a closed one');
  expect(errors).toEqual(['not_found']);
});

test('a message posted to a user ID goes to their DM; an ephemeral only to its user', async () => {
  onCommand = async (body) => {
    const web = client();
    await web.chat.postMessage({ channel: body.get('user_id')!, text: 'to your DM' });
    await web.chat.postEphemeral({ channel: body.get('channel_id')!, user: body.get('user_id')!, text: 'just you' });
  };
  await workspace.command('U0OPERATOR', 'C0FINANCE', 'dm');
  const mine = workspace.viewOf('U0OPERATOR');
  expect(mine.dm).toMatchObject({ id: 'D0OPERATOR', messages: [expect.objectContaining({ text: 'to your DM' })] });
  expect(mine.ephemerals.map((e) => e.text)).toEqual(['just you']);
  expect(workspace.viewOf('U0ADMIN').ephemerals.map((e) => e.text)).not.toContain('just you');
});

test('views.push stacks views, up to three, with the trigger of a click in the modal', async () => {
  const errors: string[] = [];
  onCommand = async (body) => {
    const payload = body.get('payload');
    const trigger = payload ? (JSON.parse(payload) as { trigger_id: string }).trigger_id : body.get('trigger_id')!;
    const web = client();
    if (!payload) await web.views.open({ trigger_id: trigger, view: modal('Root') });
    else
      await web.views
        .push({ trigger_id: trigger, view: modal('Pushed') })
        .catch((err: { data?: { error?: string } }) => errors.push(err.data?.error ?? ''));
  };
  await workspace.command('U0VIEWER', 'C0FINANCE', 'open');
  const click = async () => {
    const top = workspace.viewOf('U0VIEWER').modals.at(-1)!;
    await workspace.clickInView('U0VIEWER', top.id, { type: 'button', action_id: 'more', value: 'x' });
  };
  await click();
  await click();
  await click();
  expect(workspace.viewOf('U0VIEWER').modals.map((v) => (v.title as { text: string }).text)).toEqual(['Root', 'Pushed', 'Pushed']);
  expect(errors).toEqual(['push_limit_reached']);
});
