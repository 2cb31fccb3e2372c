import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { PAYMENT_KEY_TYPES, type PaymentKeyType } from '../src/domain/money-out';
import { PAY_BLOCK, PAY_COMMENT_MAX, type PayFormMeta, type PayFormTyped } from '../src/domain/pay-form';
import { type Locale, messages } from '../src/i18n';
import type { Account } from '../src/pix/schemas';
import { keyTypeLabel } from './accounts';
import { accountOption, MAX_ACCOUNT_OPTIONS } from './limit-request-modal';
import { clip, context, sandboxNoteBlocks, section } from './message';
import { modalTitle } from './modal';

export const PAY_CALLBACK = 'pix_pay';
/** The account select's action id; with more accounts than a static select holds, its options load URL answers it too. */
export const PAY_ACCOUNT_ACTION = 'pay_source_account';
/** An option's text is at most 75 characters (https://docs.slack.dev/reference/block-kit/composition-objects/option-object). */
const OPTION_TEXT_MAX = 75;
/** The longest Pix key there is (an e-mail: 77 characters), with room for how people type the others. */
const KEY_INPUT_MAX = 100;
/** Room for `R$ 999.999.999,99` and the like; parseReais judges the rest. */
const VALUE_INPUT_MAX = 30;

const plainText = (text: string) => ({ type: 'plain_text' as const, text });

/** Opened at once (before any Pix API call), while the accounts are read. */
export function payLoadingModal(locale: Locale, meta: PayFormMeta): ModalView {
  const m = messages(locale);
  return {
    type: 'modal',
    callback_id: PAY_CALLBACK,
    title: modalTitle(m.pay.title),
    close: plainText(m.common.cancel),
    private_metadata: JSON.stringify(meta),
    blocks: [section(`:hourglass_flowing_sand: ${m.pay.loading}`)],
  };
}

export interface PayFormInput {
  meta: PayFormMeta;
  accounts: Account[];
  /** The account preselected: the command's, else the default one. */
  accountId: string;
  /** What was typed, when the form is shown again (with `problem`). */
  typed?: PayFormTyped;
  problem?: string;
  sandbox: boolean;
}

/** The source account: every account when they fit a static select (at most 100 options), else a search. */
function accountSelect(locale: Locale, input: PayFormInput): KnownBlock {
  const f = messages(locale).pay;
  const all = input.accounts.map((a) => accountOption(locale, a));
  const wanted = input.typed?.accountId ?? input.accountId;
  const selected = all.find((o) => o.value === wanted) ?? { text: plainText(clip(wanted, OPTION_TEXT_MAX)), value: wanted };
  const options = all.some((o) => o.value === selected.value) ? all : [selected, ...all];
  const element =
    options.length <= MAX_ACCOUNT_OPTIONS
      ? { type: 'static_select' as const, action_id: PAY_ACCOUNT_ACTION, options, initial_option: selected }
      : {
          type: 'external_select' as const,
          action_id: PAY_ACCOUNT_ACTION,
          initial_option: selected,
          min_query_length: 0,
          placeholder: plainText(f.accountSearch),
        };
  return { type: 'input', block_id: PAY_BLOCK.account, label: plainText(f.account), element };
}

function typeOption(locale: Locale, type: PaymentKeyType): PlainTextOption {
  return { text: plainText(keyTypeLabel(locale, type)), value: type };
}

const isKeyType = (value: string | undefined): value is PaymentKeyType => (PAYMENT_KEY_TYPES as readonly string[]).includes(value ?? '');

/** A text input, given back what was typed when the form is shown again. */
function textInput(input: { blockId: string; label: string; hint: string; optional?: boolean; max: number; value?: string }): KnownBlock {
  return {
    type: 'input',
    block_id: input.blockId,
    ...(input.optional ? { optional: true } : {}),
    label: plainText(input.label),
    hint: plainText(input.hint),
    element: {
      type: 'plain_text_input',
      action_id: input.blockId,
      max_length: input.max,
      ...(input.value ? { initial_value: input.value.slice(0, input.max) } : {}),
    },
  };
}

/** The payment form: each input's block id is the name of the field of `POST /api/v1/payment` it fills. */
export function payFormModal(locale: Locale, input: PayFormInput): ModalView {
  const m = messages(locale);
  const f = m.pay;
  const typed = input.typed ?? {};
  const blocks: KnownBlock[] = [];
  if (input.problem) blocks.push(section(`:x: ${input.problem}`));
  blocks.push(
    context(f.intro),
    accountSelect(locale, input),
    textInput({ blockId: PAY_BLOCK.key, label: f.key, hint: f.keyHint, max: KEY_INPUT_MAX, value: typed.key }),
    {
      type: 'input',
      block_id: PAY_BLOCK.type,
      optional: true,
      label: plainText(f.type),
      hint: plainText(f.typeHint),
      element: {
        type: 'static_select',
        action_id: PAY_BLOCK.type,
        options: PAYMENT_KEY_TYPES.map((t) => typeOption(locale, t)),
        ...(isKeyType(typed.type) ? { initial_option: typeOption(locale, typed.type) } : {}),
      },
    },
    textInput({ blockId: PAY_BLOCK.value, label: f.value, hint: f.valueHint, max: VALUE_INPUT_MAX, value: typed.value }),
    textInput({
      blockId: PAY_BLOCK.comment,
      label: f.comment,
      hint: f.commentHint(PAY_COMMENT_MAX),
      optional: true,
      max: PAY_COMMENT_MAX,
      value: typed.comment,
    }),
    ...sandboxNoteBlocks(locale, input.sandbox),
  );
  return {
    type: 'modal',
    callback_id: PAY_CALLBACK,
    title: modalTitle(f.title),
    submit: plainText(f.submit),
    close: plainText(m.common.cancel),
    private_metadata: JSON.stringify(input.meta),
    blocks,
  };
}
