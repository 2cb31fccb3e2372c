import {
  blockSuggestionPayload,
  interactionBody,
  messageShortcutPayload,
  submittedView,
  viewBlockActionPayload,
  viewSubmissionPayload,
} from '../../src/slack-standin/deliveries';
import { slackSignatureHeaders } from '../../src/slack-standin/signing';
import type { Harness } from './harness';
import { SIGNING_SECRET } from './harness';

// The payloads are the Slack stand-in's own (src/slack-standin/deliveries.ts); these names stay for the tests.
export { submittedView };
export const viewSubmission = (userId: string, view: Record<string, unknown>) => viewSubmissionPayload(userId, view);
export const viewBlockAction = (userId: string, view: Record<string, unknown>, action: Record<string, unknown>) =>
  viewBlockActionPayload(userId, view, action);
export const blockSuggestion = blockSuggestionPayload;

/** Sends an interactivity payload (buttons, modal submissions, shortcuts) signed as Slack signs it. */
export async function sendInteraction(h: Harness, payload: Record<string, unknown>) {
  const body = interactionBody(payload);
  const res = await h.post(body, { 'content-type': 'application/x-www-form-urlencoded', ...slackSignatureHeaders(body, SIGNING_SECRET) });
  return { status: res.status, body: res.text ? (JSON.parse(res.text) as Record<string, unknown>) : undefined };
}

export function messageShortcut(
  h: Harness,
  userId: string,
  input: { callbackId: string; channelId: string; files?: unknown[]; responseId: string },
) {
  const message = {
    type: 'message',
    ts: '1700000000.000001',
    user: 'U0SOMEONE',
    text: 'the proofs',
    ...(input.files ? { files: input.files } : {}),
  };
  return messageShortcutPayload(userId, {
    callbackId: input.callbackId,
    channelId: input.channelId,
    responseUrl: h.slack.responseUrl(input.responseId),
    message,
  });
}
