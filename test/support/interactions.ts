import { interactionBody, messageBlockActionPayload } from '../../src/slack-standin/deliveries';
import { slackSignatureHeaders } from '../../src/slack-standin/signing';
import { SAMPLES } from '../sandbox/helpers';
import { type Harness, SIGNING_SECRET } from './harness';

let counter = 0;

export interface BlockActionInput {
  userId: string;
  actionId: string;
  value: string;
  channelId: string;
  /** The id of the response_url the click carries (read it back with `h.slack.responsesTo`). */
  responseId: string;
  blockId?: string;
  /** Whether the button sits on an ephemeral message (the default, as `/pix` answers are). */
  ephemeral?: boolean;
}

/** Clicks a button: a `block_actions` payload posted to the app, signed exactly as Slack signs it. */
export async function blockAction(h: Harness, input: BlockActionInput): Promise<{ status: number; text: string }> {
  const n = ++counter;
  const payload = messageBlockActionPayload({
    userId: input.userId,
    channelId: input.channelId,
    messageTs: `1700000000.${String(n).padStart(6, '0')}`,
    isEphemeral: input.ephemeral ?? true,
    responseUrl: h.slack.responseUrl(input.responseId),
    triggerId: `trigger-action-${n}`,
    action: {
      action_id: input.actionId,
      block_id: input.blockId ?? 'block',
      text: { type: 'plain_text', text: 'button', emoji: true },
      value: input.value,
      type: 'button',
    },
  });
  const body = interactionBody(payload);
  return h.post(body, { 'content-type': 'application/x-www-form-urlencoded', ...slackSignatureHeaders(body, SIGNING_SECRET) });
}

// Limit requests straight through the sandbox API, as if filed elsewhere (the Pix dashboard).

/** A call to the sandbox; its JSON answer, taken to be of the shape `T` the caller names. */
async function sandboxJson<T = unknown>(h: Harness, method: string, path: string, appId: string | undefined, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (appId !== undefined) headers.authorization = appId;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${h.sandbox.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const json: unknown = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json as T;
}

type OpenedRequest = { id: string; createdAt: string; [k: string]: unknown };

/** Uploads a PDF proof (purpose ACCOUNT_LIMIT_REQUEST) and opens a limit request with these limits (cents). */
export async function openLimitRequest(
  h: Harness,
  input: { appId: string; accountId: string; limits: Record<string, number>; fileName?: string; description?: string },
): Promise<OpenedRequest> {
  const form = new FormData();
  form.append('purpose', 'ACCOUNT_LIMIT_REQUEST');
  form.append('file', new Blob([SAMPLES.pdf], { type: 'application/pdf' }), input.fileName ?? 'proof.pdf');
  const up = await fetch(`${h.sandbox.url}/api/v1/files`, { method: 'POST', headers: { authorization: input.appId }, body: form });
  const uploaded = (await up.json()) as { file: { id: string } };
  if (up.status !== 201) throw new Error(`upload failed: ${up.status} ${JSON.stringify(uploaded)}`);
  const { limitRequest } = await sandboxJson<{ limitRequest: OpenedRequest }>(h, 'POST', '/api/v1/limits/request', input.appId, {
    companyBankAccountId: input.accountId,
    ...input.limits,
    documents: [{ fileId: uploaded.file.id }],
    ...(input.description !== undefined ? { description: input.description } : {}),
  });
  return limitRequest;
}

/** A new account of the company of this MASTER AppID (one request in review per account). */
export async function createAccount(h: Harness, masterAppId: string): Promise<string> {
  const { account } = await sandboxJson<{ account: { accountId: string } }>(h, 'POST', '/api/v1/account', masterAppId);
  return account.accountId;
}

/** The service's analysis: approve (with chosen limits, or what was asked) or reject. */
export async function decideLimitRequest(
  h: Harness,
  id: string,
  decision: 'approve' | 'reject',
  limits?: Record<string, number>,
): Promise<void> {
  await sandboxJson(
    h,
    'POST',
    `/sandbox/limit-requests/${id}/${decision}`,
    undefined,
    decision === 'approve' && limits ? { limits } : undefined,
  );
}

/** Fails the next `count` Pix API calls with HTTP `status` until `clearFaults`. */
export async function failPixApi(h: Harness, status = 503, count = 10): Promise<void> {
  await sandboxJson(h, 'POST', '/sandbox/faults', undefined, { fail: { status, count } });
}

export async function clearFaults(h: Harness): Promise<void> {
  await sandboxJson(h, 'DELETE', '/sandbox/faults', undefined);
}

let events = 0;

/** Slack's `app_home_opened` event, signed as Slack signs it. */
export async function openHome(h: Harness, userId: string, tab: 'home' | 'messages' = 'home') {
  const n = ++events;
  const body = JSON.stringify({
    token: 'legacy-verification-token',
    team_id: 'T0FAKE',
    api_app_id: 'A0PIXOPS',
    type: 'event_callback',
    event_id: `Ev0HOME${n}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: 'T0FAKE', user_id: 'U0BOT', is_bot: true }],
    event: {
      type: 'app_home_opened',
      user: userId,
      channel: `D0${userId.slice(2)}`,
      tab,
      event_ts: `${Math.floor(Date.now() / 1000)}.${n}`,
    },
  });
  const res = await h.post(body, { 'content-type': 'application/json', ...slackSignatureHeaders(body, SIGNING_SECRET) });
  expect(res.status).toBe(200);
}
