import type { KnownBlock } from '@slack/types';
import { type ActionKey, type Locale, messages } from '../src/i18n';
import type { PixApiError } from '../src/pix/errors';
import { pixErrorText } from './errors';
import { context } from './message';

/**
 * A part of a surface (a section of the Home tab, of the digest): what was read, or what could not be
 * (`action`) and the Pix API's error when it was one; the view puts it in words, in the reader's language.
 */
export type Part<T> = { ok: true; value: T } | { ok: false; action: ActionKey; error?: PixApiError };

/** Why a part of a surface is missing, in the reader's language. */
export function failedPart(locale: Locale, part: Exclude<Part<unknown>, { ok: true }>): KnownBlock {
  const m = messages(locale);
  const text = part.error ? pixErrorText(locale, part.error, part.action) : m.common.wentWrong(m.actions[part.action]);
  return context(`:warning: ${text}`);
}
