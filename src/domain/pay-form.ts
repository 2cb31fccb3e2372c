import { z } from 'zod';
import { type Locale, messages } from '../i18n';
import { parseReais } from './money';
import { PaymentKeyTypeSchema, PayPayloadSchema } from './money-out';
import { readPaymentKey } from './payment-key';

/** The payment form's inputs: each block is named after the field of `POST /api/v1/payment` it fills. */
export const PAY_BLOCK = {
  account: 'sourceAccountId',
  key: 'destinationAlias',
  type: 'destinationAliasType',
  value: 'value',
  comment: 'comment',
} as const;

/** What the service takes as a payment's comment, and the form allows. */
export const PAY_COMMENT_MAX = 140;

/** What the payment form carries between opening and submission (`private_metadata`). */
export const PayFormMetaSchema = z.object({
  /** Where the command ran: the approval's root goes there. */
  channelId: z.string().min(1).max(30),
  /** The account the command named, preselected. */
  accountId: z.string().min(1).max(64).optional(),
});
export type PayFormMeta = z.infer<typeof PayFormMetaSchema>;

/** A submitted payment form, checked: integer cents, the key in its canonical form with its type. */
export interface PayForm {
  sourceAccountId: string;
  destinationAlias: string;
  destinationAliasType: z.infer<typeof PaymentKeyTypeSchema>;
  value: number;
  comment?: string;
}

/** What was typed, as typed: put back into the form when it is shown again with a problem. */
export interface PayFormTyped {
  accountId?: string;
  key?: string;
  type?: string;
  value?: string;
  comment?: string;
}

export type PayFormResult =
  | { ok: true; form: PayForm; typed: PayFormTyped }
  | { ok: false; errors: Record<string, string>; typed: PayFormTyped };

type StateValues = Record<string, Record<string, unknown>>;

const StateElementSchema = z.looseObject({
  value: z.string().nullish(),
  selected_option: z.looseObject({ value: z.string() }).nullish(),
});

/** The first element of a block: action ids are the views' own, block ids are the contract. */
function element(values: StateValues, blockId: string) {
  const block = values[blockId];
  const first = block ? Object.values(block)[0] : undefined;
  const parsed = StateElementSchema.safeParse(first ?? {});
  return parsed.success ? parsed.data : {};
}

/** What the form's state holds, as typed. */
export function typedPayForm(values: StateValues, meta: PayFormMeta): PayFormTyped {
  const text = (block: string) => element(values, block).value ?? undefined;
  return {
    accountId: element(values, PAY_BLOCK.account).selected_option?.value ?? meta.accountId,
    key: text(PAY_BLOCK.key),
    type: element(values, PAY_BLOCK.type).selected_option?.value,
    value: text(PAY_BLOCK.value),
    comment: text(PAY_BLOCK.comment),
  };
}

/**
 * Reads and checks a submitted payment form: everything that can be judged without the Pix API (the
 * key for its type, the amount, the comment). Problems come back by block id, in the reader's
 * language, to be shown inline on their input.
 */
export function readPayForm(locale: Locale, values: StateValues, meta: PayFormMeta): PayFormResult {
  const m = messages(locale);
  const typed = typedPayForm(values, meta);
  const errors: Record<string, string> = {};

  const accountId = typed.accountId;
  if (!accountId || !PayPayloadSchema.shape.sourceAccountId.safeParse(accountId).success) errors[PAY_BLOCK.account] = m.pay.chooseAccount;

  const chosen = typed.type === undefined ? undefined : PaymentKeyTypeSchema.safeParse(typed.type);
  if (chosen && !chosen.success) errors[PAY_BLOCK.type] = m.pay.chooseType;
  const key = readPaymentKey(locale, typed.key ?? '', chosen?.success ? chosen.data : undefined);
  if (!key.ok) errors[key.needsType ? PAY_BLOCK.type : PAY_BLOCK.key] = key.problem;

  let cents = 0;
  const parsed = parseReais(typed.value ?? '', locale);
  if (!parsed.ok) errors[PAY_BLOCK.value] = m.money[parsed.reason];
  else if (parsed.cents === 0) errors[PAY_BLOCK.value] = m.pay.amountZero;
  else cents = parsed.cents;

  const comment = typed.comment?.trim() || undefined;
  if (comment && comment.length > PAY_COMMENT_MAX) errors[PAY_BLOCK.comment] = m.pay.commentTooLong(PAY_COMMENT_MAX);

  if (Object.keys(errors).length > 0 || !key.ok || !accountId) return { ok: false, errors, typed };
  return {
    ok: true,
    typed,
    form: {
      sourceAccountId: accountId,
      destinationAlias: key.pixKey,
      destinationAliasType: key.type,
      value: cents,
      ...(comment ? { comment } : {}),
    },
  };
}
