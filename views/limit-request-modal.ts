import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { limitFieldLabel, splitLimits } from '../src/domain/limit-fields';
import { BLOCK, type FormMeta, formMetaText } from '../src/domain/limit-form';
import { centsToInput, formatApiCents, formatCents } from '../src/domain/money';
import { MAX_FILES } from '../src/domain/proof-files';
import { type Locale, messages } from '../src/i18n';
import type { Account, Limits } from '../src/pix/schemas';
import { clip, context, escapeClipped, escapeMrkdwn, sandboxNoteBlocks, section } from './message';
import { modalTitle } from './modal';

export const LIMIT_REQUEST_CALLBACK = 'limit_request';
export const ACCOUNT_ACTION = 'limit_request_account';
/**
 * A static select holds at most 100 options; with more accounts the select searches them through the
 * options load URL (https://docs.slack.dev/reference/block-kit/block-elements/select-menu-element).
 */
export const MAX_ACCOUNT_OPTIONS = 100;
/** An option's text is at most 75 characters (https://docs.slack.dev/reference/block-kit/composition-objects/option-object). */
const OPTION_TEXT_MAX = 75;
/** An attached file's name in the form, whole up to this many characters. */
const FILE_NAME_MAX = 100;
/** Opened at once (before any Pix API call), while the accounts and limits are read. */
export function loadingModal(locale: Locale, meta: FormMeta): ModalView {
  const m = messages(locale);
  return {
    type: 'modal',
    callback_id: LIMIT_REQUEST_CALLBACK,
    title: modalTitle(m.limitForm.title),
    close: { type: 'plain_text', text: m.common.cancel },
    private_metadata: formMetaText(meta),
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

/** An account as a select's option: its id, whether it is the default, its available balance in R$. */
export function accountOption(locale: Locale, a: Account): PlainTextOption {
  const parts = [a.accountId];
  if (a.isDefault) parts.push(messages(locale).limitForm.defaultAccount);
  if (a.balance) parts.push(`· ${messages(locale).limitForm.available(formatApiCents(a.balance.available, locale))}`);
  return { text: { type: 'plain_text', text: clip(parts.join(' '), OPTION_TEXT_MAX) }, value: a.accountId };
}

/** The accounts an external account select offers for what was typed (part of the id, or of the label). */
export function accountOptions(locale: Locale, accounts: Account[], query: string): PlainTextOption[] {
  const q = query.trim().toLowerCase();
  return accounts
    .map((a) => accountOption(locale, a))
    .filter((o) => q === '' || o.text.text.toLowerCase().includes(q))
    .slice(0, MAX_ACCOUNT_OPTIONS);
}

/** The account select: every account when they fit a static select, else a search over them. */
function accountSelect(locale: Locale, input: FormInput): KnownBlock {
  const all = input.accounts.map((a) => accountOption(locale, a));
  const selected = all.find((o) => o.value === input.accountId) ?? {
    text: { type: 'plain_text' as const, text: clip(input.accountId, OPTION_TEXT_MAX) },
    value: input.accountId,
  };
  const options = all.some((o) => o.value === selected.value) ? all : [selected, ...all];
  const element =
    options.length <= MAX_ACCOUNT_OPTIONS
      ? { type: 'static_select' as const, action_id: ACCOUNT_ACTION, options, initial_option: selected }
      : {
          type: 'external_select' as const,
          action_id: ACCOUNT_ACTION,
          initial_option: selected,
          min_query_length: 0,
          placeholder: { type: 'plain_text' as const, text: messages(locale).limitForm.accountSearch },
        };
  return {
    type: 'input',
    block_id: BLOCK.account,
    dispatch_action: true,
    label: { type: 'plain_text', text: messages(locale).limitForm.account },
    element,
  };
}

/** The form: one amount input per requestable limit the API returned, named after its field. */
export function formModal(locale: Locale, input: FormInput): ModalView {
  const m = messages(locale);
  const f = m.limitForm;
  const { requestable, other } = splitLimits(input.limits);
  const blocks: KnownBlock[] = [accountSelect(locale, input), context(f.amountsHint)];
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
    blocks.push(section(f.proofsFromMessage(input.meta.attached.map((a) => escapeClipped(a.name, FILE_NAME_MAX)).join(', '))));
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
      element: {
        type: 'plain_text_input',
        action_id: 'text',
        multiline: true,
        max_length: 2000,
        ...(input.description ? { initial_value: input.description } : {}),
      },
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
    private_metadata: formMetaText(input.meta),
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
