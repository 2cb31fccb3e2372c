import type { SandboxHandle } from '../../src/sandbox';
import type { SlackApiCall, SlackStandIn } from '../../src/slack-standin/web-api';
import { api } from '../sandbox/helpers';
import { messageText, signedForm, slashBody } from './harness';
import { submittedView, viewSubmission } from './slack-payloads';
import { waitFor } from './wait';

/**
 * The limit-request modal driven as Slack drives it (the slash command, the form Slack was asked to
 * show, its submission), against an app in this process (the harness) or in a child process: all it
 * needs is the fake Slack and a way to post signed requests to the app.
 */
export interface AppUnderTest {
  slack: SlackStandIn;
  post(body: string, headers: Record<string, string>): Promise<{ status: number; text: string }>;
}

export type FormView = {
  blocks: Array<{ type: string; block_id?: string; element?: Record<string, unknown> }>;
  private_metadata: string;
  callback_id: string;
};

export const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

let counter = 0;

/** A PDF proof in the fake Slack, as the file input hands it over. */
export function addProof(slack: SlackStandIn, name = 'proof.pdf'): Record<string, unknown> {
  return slack.fileObject(slack.addFile({ id: `F${++counter}FOLLOW`, name, mimetype: 'application/pdf', bytes: PDF }).id);
}

const inputBlocks = (view: FormView) => view.blocks.filter((b) => b.type === 'input');

/** `/pix limit request <accountId>` in `channelId`; the form once it is filled in. */
export async function openLimitForm(app: AppUnderTest, input: { userId: string; accountId: string; channelId: string }) {
  const before = app.slack.calls.length;
  const { body } = slashBody(
    app.slack,
    input.userId,
    `limit request ${input.accountId}`,
    { channelId: input.channelId },
    `form-${++counter}`,
  );
  const res = await app.post(body, signedForm(body));
  if (res.status !== 200) throw new Error(`the command answered ${res.status}`);
  const update = await waitFor('the form', () =>
    app.slack.calls.slice(before).find((c) => c.method === 'views.update' && inputBlocks(c.args.view as FormView).length > 0),
  );
  return { view: update.args.view as FormView, viewId: String(update.args.view_id) };
}

/** Submits the form with the day limit raised to `dayLimit` (text as typed) and these proofs. */
export async function submitLimitForm(
  app: AppUnderTest,
  form: { view: FormView; viewId: string },
  input: { userId: string; dayLimit: string; files: unknown[] },
) {
  const values: Record<string, Record<string, unknown>> = {};
  for (const b of inputBlocks(form.view)) {
    const el = b.element!;
    const actionId = String(el.action_id);
    if (el.type === 'static_select') values[b.block_id!] = { [actionId]: { type: 'static_select', selected_option: el.initial_option } };
    else if (el.type === 'file_input') values[b.block_id!] = { [actionId]: { type: 'file_input', files: input.files } };
    else {
      const value = b.block_id === 'pixDayLimit' ? input.dayLimit : ((el.initial_value as string | undefined) ?? null);
      values[b.block_id!] = { [actionId]: { type: 'plain_text_input', value } };
    }
  }
  const payload = viewSubmission(input.userId, submittedView(form.view as never, form.viewId, values));
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const res = await app.post(body, signedForm(body));
  return { status: res.status, body: res.text ? (JSON.parse(res.text) as Record<string, unknown>) : undefined };
}

/** The texts the modal `viewId` was updated to, since call `from`. */
export function modalTexts(slack: SlackStandIn, viewId: string, from = 0): string[] {
  return slack.calls
    .slice(from)
    .filter((c: SlackApiCall) => c.method === 'views.update' && c.args.view_id === viewId)
    .map((c) => messageText(c.args.view));
}

/** Thread roots of limit requests the bot posted in a channel (as the fake Slack keeps them). */
export function rootsIn(slack: SlackStandIn, channel: string) {
  return slack.messages.filter((m) => m.channel === channel && m.thread_ts === undefined && m.metadata?.event_type === 'pix_limit_request');
}

/** The account's limit requests, newest first, as the company's list gives them. */
export async function requestsOf(sandbox: SandboxHandle, accountId: string): Promise<Array<{ id: string; status: string }>> {
  const res = await api<{ limitRequests: Array<{ id: string; status: string; companyBankAccountId: string }> }>(
    sandbox,
    'GET',
    '/api/v1/limits/request?limit=100&skip=0',
    { appId: sandbox.companies.main.mainAppId },
  );
  return res.json.limitRequests.filter((r) => r.companyBankAccountId === accountId);
}
