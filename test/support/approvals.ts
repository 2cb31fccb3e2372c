import type { ApprovalAction } from '../../src/domain/approvals';
import type { SlackApiCall } from '../../src/slack-standin/web-api';
import { clickButton, type ModalView, openedModal, submitModal } from './accounts-harness';
import type { Harness } from './harness';
import { waitFor } from './wait';

/** The Pix writes each action's approval makes, in order, as `METHOD path` (a key's path cut at the key, an account's id as `:accountId`); one table for every approvals suite. */
export const APPROVAL_WRITES: Record<ApprovalAction, string[]> = {
  'limit-request': ['POST /api/v1/files', 'POST /api/v1/limits/request'],
  'key-add': ['POST /api/v1/pix-keys'],
  'key-delete': ['DELETE /api/v1/pix-keys/'],
  'withdraw-key': ['POST /api/v1/pix-keys/withdraw'],
  'account-create': ['POST /api/v1/account', 'POST /api/v1/application'],
  'rotate-secret': ['POST /api/v1/application/rotate-secret'],
  pay: ['POST /api/v1/payment', 'POST /api/v1/payment/approve'],
  withdraw: ['POST /api/v1/account/:accountId/withdraw'],
};

/** A pending approval's root as the app posted it: where it is, and the approval id its metadata names. */
export interface PendingRoot {
  id: string;
  channel: string;
  ts: string;
  call: SlackApiCall;
}

/** A root Slack took (a post refused in the channel, before its fallback to the maker's DM, is none). */
const isRoot = (c: SlackApiCall) =>
  c.method === 'chat.postMessage' &&
  (c.args.metadata as { event_type?: string } | undefined)?.event_type === 'pix_approval' &&
  (c.response as { ok?: boolean } | undefined)?.ok === true;

/** The approval root posted after `from`. */
export async function pendingRoot(h: Pick<Harness, 'slack'>, from: number): Promise<PendingRoot> {
  const call = await waitFor('the pending approval root', () => h.slack.calls.slice(from).find(isRoot));
  const response = call.response as { channel: string; ts: string };
  const id = (call.args.metadata as { event_payload: { approval_id: string } }).event_payload.approval_id;
  return { id, channel: response.channel, ts: response.ts, call };
}

/** Every approval root posted after `from`. */
export const approvalRoots = (h: Pick<Harness, 'slack'>, from = 0) => h.slack.calls.slice(from).filter(isRoot);

/** Clicks one of the root's buttons, as Slack sends it (a message in the channel, not ephemeral). */
export function clickRoot(
  h: Harness,
  userId: string,
  root: PendingRoot,
  actionId: 'approval_approve' | 'approval_reject' | 'approval_cancel',
) {
  return clickButton(h, { userId, actionId, value: root.id, channelId: root.channel, messageTs: root.ts, ephemeral: false });
}

/** The root's updates (chat.update of its ts) after `from`. */
export const rootUpdates = (h: Pick<Harness, 'slack'>, root: PendingRoot, from = 0) =>
  h.slack.calls.slice(from).filter((c) => c.method === 'chat.update' && c.args.channel === root.channel && c.args.ts === root.ts);

/** The messages posted in the root's thread after `from`. */
export const threadPosts = (h: Pick<Harness, 'slack'>, root: PendingRoot, from = 0) =>
  h.slack.calls
    .slice(from)
    .filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === root.ts && c.args.channel === root.channel);

/** Reject: the button, then the form with a reason. Resolves with the form's acknowledgement. */
export async function rejectWithReason(h: Harness, userId: string, root: PendingRoot, reason: string) {
  const from = h.slack.calls.length;
  await clickRoot(h, userId, root, 'approval_reject');
  const modal = await openedModal(h, from, 'approval_reject_reason');
  return submitModal(h, userId, modal as { view: ModalView; viewId: string }, {
    reason: { reason: { type: 'plain_text_input', value: reason } },
  });
}

/** The first answer on a response_url (the machine is shared: allow for a slow moment). */
export async function answerOn(h: Pick<Harness, 'slack'>, responseId: string): Promise<Record<string, unknown>> {
  return (await waitFor(`an answer on ${responseId}`, () => h.slack.responsesTo(responseId)[0], 10_000)).body;
}
