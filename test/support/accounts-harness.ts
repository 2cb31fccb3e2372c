import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { startSandbox } from '../../src/sandbox';
import type { SlackApiCall } from '../../src/slack-standin/web-api';
import type { AccountAnswer, ApplicationAnswer } from '../sandbox/helpers';
import { type Harness, messageText, startHarness } from './harness';
import { sendInteraction, submittedView, viewSubmission } from './slack-payloads';
import { waitFor } from './wait';

/**
 * The harness with PIX_MASTER_APP_ID set: the sandbox is started first, so that its MASTER AppID is
 * known, and the app is pointed at it (the harness's own sandbox then stays unused).
 */
export async function startHarnessWithMaster(env: Record<string, string> = {}): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0 });
  const h = await startHarness({
    PIX_API_URL: sandbox.url,
    PIX_APP_ID: sandbox.companies.main.mainAppId,
    PIX_MASTER_APP_ID: sandbox.companies.main.masterAppId,
    ...env,
  });
  return {
    ...h,
    sandbox,
    async close() {
      await h.close();
      await sandbox.close();
    },
  };
}

export type ModalView = { callback_id?: string; private_metadata?: string; blocks: Array<Record<string, unknown>> };

/** The modal opened by the last `views.open` after `from`, and the id Slack gave it. */
export async function openedModal(
  h: Harness,
  from: number,
  callbackId: string,
): Promise<{ view: ModalView; viewId: string; call: SlackApiCall }> {
  const call = await waitFor(`views.open of ${callbackId}`, () =>
    h.slack.calls.slice(from).find((c) => c.method === 'views.open' && (c.args.view as ModalView).callback_id === callbackId),
  );
  const viewId = (call.response as { view: { id: string } }).view.id;
  return { view: call.args.view as ModalView, viewId, call };
}

export async function submitModal(
  h: Harness,
  userId: string,
  modal: { view: ModalView; viewId: string },
  values: Record<string, Record<string, unknown>>,
) {
  return sendInteraction(h, viewSubmission(userId, submittedView(modal.view as never, modal.viewId, values)));
}

/** Every `views.update` of one view after `from`, as text. */
export function viewUpdates(h: Harness, from: number, viewId: string): SlackApiCall[] {
  return h.slack.calls.slice(from).filter((c) => c.method === 'views.update' && c.args.view_id === viewId);
}

export const posts = (h: Harness, from = 0) => h.slack.calls.slice(from).filter((c) => c.method === 'chat.postMessage');

export interface CreatedCampaign {
  accountId: string;
  clientId: string;
  clientSecret: string;
  appId: string;
}

/** `/pix account create` driven through the modal, to the end; the AppID read back from the store. */
export async function createCampaign(h: Harness, userId: string, name: string, channelId = 'C0CAMPAIGN'): Promise<CreatedCampaign> {
  const from = h.slack.calls.length;
  await h.slash(userId, 'account create', { channelId });
  const modal = await openedModal(h, from, 'account_create');
  const res = await submitModal(h, userId, modal, { name: { name: { type: 'plain_text_input', value: name } } });
  if (res.body?.response_action !== 'update') throw new Error(`submission not accepted: ${JSON.stringify(res.body)}`);
  const final = await waitFor('the client secret in the modal', () =>
    viewUpdates(h, from, modal.viewId).find((c) => messageText(c.args.view).includes('Client secret')),
  );
  const text = messageText(final.args.view);
  const accountId = /Account `([0-9a-f]{24})` has its application/.exec(text)?.[1];
  const clientId = /has its application `([^`]+)`/.exec(text)?.[1];
  const clientSecret = /```([^`]+)```/.exec(text)?.[1];
  if (!accountId || !clientId || !clientSecret) throw new Error(`unexpected final view: ${text}`);
  const stored = await h.app.deps.store.accountApps.get(accountId);
  if (!stored?.appId) throw new Error('no AppID stored');
  return { accountId, clientId, clientSecret, appId: stored.appId };
}

/** No secret in the logs, in any message posted or updated in a channel, or in the store's files. */
export function expectNoLeaks(h: Harness, secrets: string[]): void {
  const values = secrets.filter((s) => s.length >= 8);
  expect(values.length).toBeGreaterThan(0);
  const logs = h.logs.join('\n');
  const channelMessages = h.slack.calls
    .filter((c) => c.method === 'chat.postMessage' || c.method === 'chat.update')
    .map((c) => JSON.stringify(c.args))
    .join('\n');
  // The app keeps writing (its poll runs): a journal listed may be gone by the time it is read, and
  // then held nothing that lasts. The database file itself is always there.
  const files = readdirSync(h.dataDir)
    .filter((f) => f.startsWith('pix-ops.sqlite'))
    .flatMap((f) => {
      try {
        return [readFileSync(path.join(h.dataDir, f))];
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT' && f !== 'pix-ops.sqlite') return [];
        throw err;
      }
    });
  expect(files.length).toBeGreaterThan(0);
  for (const secret of values) {
    expect(logs.includes(secret)).toBe(false);
    expect(channelMessages.includes(secret)).toBe(false);
    for (const bytes of files) expect(bytes.includes(Buffer.from(secret, 'utf8'))).toBe(false);
  }
}

/**
 * A call straight to the sandbox (its API or its control routes), as the service's back office. Its
 * answer is taken to be of the shape `T` the caller names.
 */
export async function sandboxApi<T = unknown>(h: Harness, method: string, apiPath: string, appId?: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (appId !== undefined) headers.authorization = appId;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${h.sandbox.url}${apiPath}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  const json: unknown = text ? JSON.parse(text) : undefined;
  if (res.status >= 300) throw new Error(`${method} ${apiPath}: ${res.status} ${text}`);
  return json as T;
}

/** An account with an application, made straight on the sandbox (as if created outside Pix Ops). */
export async function accountMadeElsewhere(
  h: Harness,
  name = 'made elsewhere',
): Promise<{ accountId: string; appId: string; clientId: string }> {
  const master = h.sandbox.companies.main.masterAppId;
  const { account } = await sandboxApi<AccountAnswer>(h, 'POST', '/api/v1/account', master);
  const { application } = await sandboxApi<ApplicationAnswer>(h, 'POST', '/api/v1/application', master, {
    accountId: account.accountId,
    application: { name, type: 'API' },
  });
  return { accountId: account.accountId, appId: application.appID, clientId: application.clientId };
}

let clicks = 0;

/**
 * Clicks a button of a message as Slack sends it: with the message (its ts), the channel and a
 * response_url. `ephemeral`: the message is one only the clicker sees.
 */
export async function clickButton(
  h: Harness,
  input: { userId: string; actionId: string; value: string; channelId: string; messageTs?: string; ephemeral?: boolean },
): Promise<{ status: number; responseId: string }> {
  const responseId = `click-${++clicks}`;
  const ts = input.messageTs ?? `1700000001.${String(clicks).padStart(6, '0')}`;
  const payload = {
    type: 'block_actions',
    user: { id: input.userId, username: input.userId.toLowerCase(), name: input.userId.toLowerCase(), team_id: 'T0FAKE' },
    api_app_id: 'A0PIXOPS',
    token: 'legacy-verification-token',
    container: { type: 'message', message_ts: ts, channel_id: input.channelId, is_ephemeral: input.ephemeral ?? true },
    trigger_id: `trigger-click-${clicks}`,
    team: { id: 'T0FAKE', domain: 'fake' },
    channel: { id: input.channelId, name: 'finance' },
    message: { type: 'message', ts, text: 'a message', user: 'U0BOT' },
    state: { values: {} },
    response_url: h.slack.responseUrl(responseId),
    actions: [
      {
        action_id: input.actionId,
        block_id: 'block',
        type: 'button',
        value: input.value,
        text: { type: 'plain_text', text: 'button' },
        action_ts: `${Date.now() / 1000}`,
      },
    ],
  };
  const res = await sendInteraction(h, payload);
  return { status: res.status, responseId };
}

type Button = { action_id: string; value?: string; text?: { text: string } };

/** The buttons of a message (or view), flattened. */
export function buttonsOf(message: unknown): Button[] {
  const blocks = (message as { blocks?: Array<{ type: string; elements: Button[]; accessory?: Button & { type: string } }> }).blocks ?? [];
  return blocks.flatMap((b) => [...(b.type === 'actions' ? b.elements : []), ...(b.accessory?.type === 'button' ? [b.accessory] : [])]);
}
