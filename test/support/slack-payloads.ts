import type { Harness } from './harness';
import { SIGNING_SECRET } from './harness';
import { slackSignatureHeaders } from '../../src/slack-standin/signing';

let n = 0;

/** Sends an interactivity payload (buttons, modal submissions, shortcuts) signed as Slack signs it. */
export async function sendInteraction(h: Harness, payload: Record<string, unknown>) {
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const res = await h.post(body, { 'content-type': 'application/x-www-form-urlencoded', ...slackSignatureHeaders(body, SIGNING_SECRET) });
  return { status: res.status, body: res.text ? (JSON.parse(res.text) as Record<string, unknown>) : undefined };
}

const common = (userId: string) => ({
  team: { id: 'T0FAKE', domain: 'fake' },
  user: { id: userId, username: userId.toLowerCase(), name: userId.toLowerCase(), team_id: 'T0FAKE' },
  api_app_id: 'A0PIXOPS',
  token: 'legacy-verification-token',
  trigger_id: `trigger-i-${++n}`,
});

/** A modal as Slack sends it back: the view the app last set, with the user's input as state. */
export function submittedView(view: Record<string, unknown>, viewId: string, values: Record<string, Record<string, unknown>>) {
  return { id: viewId, team_id: 'T0FAKE', type: 'modal', hash: `hash-${n}`, root_view_id: viewId, app_id: 'A0PIXOPS', bot_id: 'B0BOT', ...view, state: { values } };
}

export function viewSubmission(userId: string, view: Record<string, unknown>) {
  return { type: 'view_submission', ...common(userId), view, response_urls: [] };
}

export function viewBlockAction(userId: string, view: Record<string, unknown>, action: Record<string, unknown>) {
  return {
    type: 'block_actions',
    ...common(userId),
    container: { type: 'view', view_id: view.id },
    view,
    actions: [{ action_ts: String(Date.now() / 1000), ...action }],
  };
}

/** What Slack sends an external select's options load URL as the user types (`value`) in a modal. */
export function blockSuggestion(userId: string, input: { actionId: string; blockId?: string; value: string; view?: Record<string, unknown> }) {
  // Unlike other interactions, a block_suggestion carries no trigger_id.
  const { team, user, api_app_id, token } = common(userId);
  return {
    type: 'block_suggestion',
    team,
    user,
    api_app_id,
    token,
    action_id: input.actionId,
    block_id: input.blockId ?? 'block',
    value: input.value,
    container: { type: 'view', view_id: input.view?.id ?? 'V0SUGGEST' },
    ...(input.view ? { view: input.view } : {}),
  };
}

export function messageShortcut(h: Harness, userId: string, input: { callbackId: string; channelId: string; files?: unknown[]; responseId: string }) {
  return {
    type: 'message_action',
    ...common(userId),
    callback_id: input.callbackId,
    action_ts: String(Date.now() / 1000),
    message_ts: '1700000000.000001',
    response_url: h.slack.responseUrl(input.responseId),
    channel: { id: input.channelId, name: 'finance' },
    message: { type: 'message', ts: '1700000000.000001', user: 'U0SOMEONE', text: 'the proofs', ...(input.files ? { files: input.files } : {}) },
  };
}
