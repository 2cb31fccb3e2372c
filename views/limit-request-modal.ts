import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { messages, type Locale } from '../src/i18n';
import { BLOCK, type FormMeta } from '../src/domain/limit-form';
import { limitFieldLabel, splitLimits } from '../src/domain/limit-fields';
import { centsToInput, formatCents } from '../src/domain/money';
import type { Account, Limits } from '../src/pix/schemas';
import { MAX_FILES } from '../src/domain/proof-files';
import { context, escapeMrkdwn, sandboxNoteBlocks, section } from './message';
import { modalTitle } from './modal';

export const LIMIT_REQUEST_CALLBACK = 'limit_request';
export const ACCOUNT_ACTION = 'limit_request_account';
/** Opened at once (before any Pix API call), while the accounts and limits are read. */
export function loadingModal(locale: Locale, meta: FormMeta): ModalView {
  const m = messages(locale);
  return {
    type: 'modal',
    callback_id: LIMIT_REQUEST_CALLBACK,
    title: modalTitle(m.limitForm.title),
    close: { type: 'plain_text', text: m.common.cancel },
    private_metadata: JSON.stringify(meta),
    blocks: [section(`:hourglass_flowing_sand: ${m.limitForm.loading}`)],
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

function accountOption(locale: Locale, a: Account): PlainTextOption {
  const parts = [a.accountId];
  if (a.isDefault) parts.push(messages(locale).limitForm.defaultAccount);
  // The API's number: the unit of balances is not stated.
  if (a.balance) parts.push(`· available ${a.balance.available}`);
  return { text: { type: 'plain_text', text: parts.join(' ').slice(0, 75) }, value: a.accountId };
}

/** The form: one amount input per requestable limit the API returned, named after its field. */
export function formModal(locale: Locale, input: FormInput): ModalView {
  const m = messages(locale);
  const f = m.limitForm;
  const { requestable, other } = splitLimits(input.limits);
  const options = input.accounts.slice(0, 100).map((a) => accountOption(locale, a));
  const selected = options.find((o) => o.value === input.accountId) ?? { text: { type: 'plain_text' as const, text: input.accountId }, value: input.accountId };
  if (!options.some((o) => o.value === selected.value)) options.unshift(selected);

  const blocks: KnownBlock[] = [
    {
      type: 'input',
      block_id: BLOCK.account,
      dispatch_action: true,
      label: { type: 'plain_text', text: f.account },
      element: { type: 'static_select', action_id: ACCOUNT_ACTION, options, initial_option: selected },
    },
    context(f.amountsHint),
  ];
  for (const { field, cents } of requestable) {
    const required = field === 'pixDayLimit' || field === 'pixNightLimit';
    blocks.push({
      type: 'input',
      block_id: field,
      optional: !required,
      label: { type: 'plain_text', text: limitFieldLabel(field, locale) },
      hint: { type: 'plain_text', text: f.current(formatCents(cents, locale)) },
      // The account in the action id makes Slack drop typed values when the account changes.
      element: { type: 'plain_text_input', action_id: `amount_${input.accountId}`, initial_value: centsToInput(cents, locale) },
    });
  }
  if (other.length > 0) {
    blocks.push(context(f.alsoOnAccount(other.map((o) => `${escapeMrkdwn(o.field)} ${escapeMrkdwn(String(o.value))}`).join(' · '))));
  }
  if (input.meta.attached.length > 0) {
    blocks.push(section(f.proofsFromMessage(input.meta.attached.map((a) => escapeMrkdwn(a.name)).join(', '))));
  }
  blocks.push(
    {
      type: 'input',
      block_id: BLOCK.documents,
      optional: input.meta.attached.length > 0,
      label: { type: 'plain_text', text: input.meta.attached.length > 0 ? f.moreProofFiles : f.proofFiles },
      hint: { type: 'plain_text', text: f.filesHint(MAX_FILES) },
      element: { type: 'file_input', action_id: 'files', filetypes: ['pdf', 'png', 'jpg', 'jpeg', 'webp'], max_files: MAX_FILES },
    },
    {
      type: 'input',
      block_id: BLOCK.description,
      optional: true,
      label: { type: 'plain_text', text: f.description },
      element: { type: 'plain_text_input', action_id: 'text', multiline: true, max_length: 2000, ...(input.description ? { initial_value: input.description } : {}) },
    },
    {
      type: 'input',
      block_id: BLOCK.reason,
      optional: true,
      label: { type: 'plain_text', text: f.reason },
      element: { type: 'plain_text_input', action_id: 'text', max_length: 500, ...(input.reason ? { initial_value: input.reason } : {}) },
    },
  );
  blocks.push(...sandboxNoteBlocks(locale, input.sandbox));

  return {
    type: 'modal',
    callback_id: LIMIT_REQUEST_CALLBACK,
    title: modalTitle(f.title),
    submit: { type: 'plain_text', text: f.submit },
    close: { type: 'plain_text', text: m.common.cancel },
    private_metadata: JSON.stringify(input.meta),
    blocks,
  };
}

/** Shown while the proofs go up and the request is filed: the modal stays open, with progress. */
export function progressModal(locale: Locale, step: string, done: number, total: number): ModalView {
  const m = messages(locale);
  const bar = total > 0 ? `${'▓'.repeat(done)}${'░'.repeat(total - done)}  ` : '';
  return {
    type: 'modal',
    callback_id: `${LIMIT_REQUEST_CALLBACK}_progress`,
    title: modalTitle(m.limitForm.title),
    close: { type: 'plain_text', text: m.common.close },
    blocks: [section(`:hourglass_flowing_sand: ${step}`), context(`${bar}${m.limitForm.progressNote}`)],
  };
}
