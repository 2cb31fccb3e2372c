import { z } from 'zod';
import { type Locale, messages } from '../i18n';
import { formatCents, parseReais } from './money';
import { MAX_FILES } from './proof-files';

/** What the modal carries between opening and submission (`private_metadata`, at most 3,000 chars). */
export const FormMetaSchema = z.object({
  /** Where the command ran (or the shortcut's message is): the thread root goes there. */
  channelId: z.string(),
  accountId: z.string().optional(),
  /** Current value of each requestable limit of that account, in cents, when the form was built. */
  current: z.record(z.string(), z.number().int()),
  /** Files of the message a shortcut was used on: proofs already, no re-upload by the user. */
  attached: z.array(z.object({ id: z.string(), name: z.string().max(100) })).max(20),
});
export type FormMeta = z.infer<typeof FormMetaSchema>;

/** Slack's limit of a view's `private_metadata` (https://docs.slack.dev/reference/views/modal-views). */
const PRIVATE_METADATA_MAX = 3000;

/**
 * The metadata as the modal carries it, within Slack's 3,000 characters: the attached files' names
 * (only ever shown) are shortened as much as that takes; their ids, and everything else, stay whole.
 */
export function formMetaText(meta: FormMeta): string {
  let text = '';
  for (const max of [100, 60, 30, 10, 0]) {
    text = JSON.stringify({ ...meta, attached: meta.attached.map((a) => ({ id: a.id, name: a.name.slice(0, max) })) });
    if (text.length <= PRIVATE_METADATA_MAX) break;
  }
  return text;
}

export const BLOCK = {
  account: 'companyBankAccountId',
  documents: 'documents',
  description: 'description',
  reason: 'limitRequestReason',
} as const;

/** The required limits; the ownership fields are sent only when changed. */
const REQUIRED_FIELDS = ['pixDayLimit', 'pixNightLimit'];

export interface LimitForm {
  accountId: string;
  /** Requested limits in integer cents, by API field name. */
  limits: Record<string, number>;
  /** Files of the file input (objects as Slack sent them) and of the message, in that order. */
  files: Array<{ id: string } & Record<string, unknown>>;
  description?: string;
  limitRequestReason?: string;
}

export type LimitFormResult = { ok: true; form: LimitForm } | { ok: false; errors: Record<string, string> };

type StateValues = Record<string, Record<string, unknown>>;

const StateElementSchema = z.looseObject({
  value: z.string().nullish(),
  selected_option: z.looseObject({ value: z.string() }).nullish(),
  files: z.array(z.looseObject({ id: z.string() })).nullish(),
});

/** The first element of a block: action ids may carry a suffix, block ids are the contract. */
function element(values: StateValues, blockId: string) {
  const block = values[blockId];
  const first = block ? Object.values(block)[0] : undefined;
  const parsed = StateElementSchema.safeParse(first ?? {});
  return parsed.success ? parsed.data : {};
}

/**
 * Reads and checks a submitted limit-request form: everything that can be judged without the files'
 * bytes. Problems come back by block id, in the reader's language, to be shown inline on their input.
 */
export function readLimitForm(locale: Locale, values: StateValues, meta: FormMeta): LimitFormResult {
  const m = messages(locale);
  const errors: Record<string, string> = {};
  const accountId = element(values, BLOCK.account).selected_option?.value ?? meta.accountId;
  if (!accountId) errors[BLOCK.account] = m.limitForm.chooseAccount;

  const limits: Record<string, number> = {};
  let anyAbove = false;
  for (const [field, current] of Object.entries(meta.current)) {
    const text = (element(values, field).value ?? '').trim();
    const required = REQUIRED_FIELDS.includes(field);
    if (text === '') {
      if (required) errors[field] = m.money.empty;
      continue;
    }
    const parsed = parseReais(text, locale);
    if (!parsed.ok) {
      errors[field] = m.money[parsed.reason];
      continue;
    }
    if (parsed.cents < current) {
      errors[field] = m.limitForm.belowCurrent(formatCents(current, locale));
      continue;
    }
    if (parsed.cents > current) anyAbove = true;
    if (required || parsed.cents !== current) limits[field] = parsed.cents;
  }
  if (!anyAbove && Object.keys(errors).length === 0) {
    errors.pixDayLimit = m.limitForm.noneAbove;
  }

  const uploaded = element(values, BLOCK.documents).files ?? [];
  const files = [...uploaded, ...meta.attached.map((f) => ({ id: f.id }))];
  if (files.length === 0) errors[BLOCK.documents] = m.limitForm.attachProof;
  else if (files.length > MAX_FILES) errors[BLOCK.documents] = m.limitForm.tooManyFiles({ max: MAX_FILES, count: files.length });

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const description = element(values, BLOCK.description).value?.trim() || undefined;
  const limitRequestReason = element(values, BLOCK.reason).value?.trim() || undefined;
  return { ok: true, form: { accountId: accountId!, limits, files, description, limitRequestReason } };
}
