import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { BLOCK, type FormMeta } from '../src/limit-form';
import { limitFieldLabel, splitLimits } from '../src/limits';
import { centsToInput, formatCents } from '../src/money';
import type { Account, Limits } from '../src/pix/schemas';
import { MAX_FILES } from '../src/proof-files';
import { context, escapeMrkdwn, section } from './message';
import { modalTitle } from './modal';

export const LIMIT_REQUEST_CALLBACK = 'limit_request';
export const ACCOUNT_ACTION = 'limit_request_account';
const TITLE = 'Limit increase';

/** Opened at once (before any Pix API call), while the accounts and limits are read. */
export function loadingModal(meta: FormMeta): ModalView {
  return {
    type: 'modal',
    callback_id: LIMIT_REQUEST_CALLBACK,
    title: modalTitle(TITLE),
    close: { type: 'plain_text', text: 'Cancel' },
    private_metadata: JSON.stringify(meta),
    blocks: [section(':hourglass_flowing_sand: Reading the account’s current limits…')],
  };
}

export interface FormInput {
  meta: FormMeta;
  accounts: Account[];
  accountId: string;
  limits: Limits;
  description?: string;
  reason?: string;
  sandbox: boolean;
}

function accountOption(a: Account): PlainTextOption {
  const parts = [a.accountId];
  if (a.isDefault) parts.push('(default)');
  if (a.balance) parts.push(`· ${formatCents(a.balance.available)}`);
  return { text: { type: 'plain_text', text: parts.join(' ').slice(0, 75) }, value: a.accountId };
}

/** The form: one amount input per requestable limit the API returned, named after its field. */
export function formModal(input: FormInput): ModalView {
  const { requestable, other } = splitLimits(input.limits);
  const options = input.accounts.slice(0, 100).map(accountOption);
  const selected = options.find((o) => o.value === input.accountId) ?? { text: { type: 'plain_text' as const, text: input.accountId }, value: input.accountId };
  if (!options.some((o) => o.value === selected.value)) options.unshift(selected);

  const blocks: KnownBlock[] = [
    {
      type: 'input',
      block_id: BLOCK.account,
      dispatch_action: true,
      label: { type: 'plain_text', text: 'Account' },
      element: { type: 'static_select', action_id: ACCOUNT_ACTION, options, initial_option: selected },
    },
    context('Amounts in reais, like 1.234,56. Each starts at the current limit; raise the ones you need.'),
  ];
  for (const { field, cents } of requestable) {
    const required = field === 'pixDayLimit' || field === 'pixNightLimit';
    blocks.push({
      type: 'input',
      block_id: field,
      optional: !required,
      label: { type: 'plain_text', text: limitFieldLabel(field) },
      hint: { type: 'plain_text', text: `Current: ${formatCents(cents)}` },
      // The account in the action id makes Slack drop typed values when the account changes.
      element: { type: 'plain_text_input', action_id: `amount_${input.accountId}`, initial_value: centsToInput(cents) },
    });
  }
  if (other.length > 0) {
    blocks.push(context(`Also on this account: ${other.map((o) => `${escapeMrkdwn(o.field)} ${escapeMrkdwn(String(o.value))}`).join(' · ')}`));
  }
  if (input.meta.attached.length > 0) {
    blocks.push(section(`*Proofs from the message:* ${input.meta.attached.map((f) => escapeMrkdwn(f.name)).join(', ')}`));
  }
  blocks.push(
    {
      type: 'input',
      block_id: BLOCK.documents,
      optional: input.meta.attached.length > 0,
      label: { type: 'plain_text', text: input.meta.attached.length > 0 ? 'More proof files' : 'Proof files' },
      hint: { type: 'plain_text', text: `PDF, PNG, JPEG or WebP, at most 10 MiB each, ${MAX_FILES} files in all.` },
      element: { type: 'file_input', action_id: 'files', filetypes: ['pdf', 'png', 'jpg', 'jpeg', 'webp'], max_files: MAX_FILES },
    },
    {
      type: 'input',
      block_id: BLOCK.description,
      optional: true,
      label: { type: 'plain_text', text: 'Description for the analyst' },
      element: { type: 'plain_text_input', action_id: 'text', multiline: true, max_length: 2000, ...(input.description ? { initial_value: input.description } : {}) },
    },
    {
      type: 'input',
      block_id: BLOCK.reason,
      optional: true,
      label: { type: 'plain_text', text: 'Reason' },
      element: { type: 'plain_text_input', action_id: 'text', max_length: 500, ...(input.reason ? { initial_value: input.reason } : {}) },
    },
  );
  if (input.sandbox) blocks.push(context(':test_tube: *SANDBOX*: a local test Pix API, no real accounts or money.'));

  return {
    type: 'modal',
    callback_id: LIMIT_REQUEST_CALLBACK,
    title: modalTitle(TITLE),
    submit: { type: 'plain_text', text: 'File request' },
    close: { type: 'plain_text', text: 'Cancel' },
    private_metadata: JSON.stringify(input.meta),
    blocks,
  };
}

/** Shown while the proofs go up and the request is filed: the modal stays open, with progress. */
export function progressModal(step: string, done: number, total: number): ModalView {
  const bar = total > 0 ? `${'▓'.repeat(done)}${'░'.repeat(total - done)}  ` : '';
  return {
    type: 'modal',
    callback_id: `${LIMIT_REQUEST_CALLBACK}_progress`,
    title: modalTitle(TITLE),
    close: { type: 'plain_text', text: 'Close' },
    blocks: [section(`:hourglass_flowing_sand: ${step}`), context(`${bar}You can close this window: the request goes on, and its message will be posted when it is filed.`)],
  };
}
