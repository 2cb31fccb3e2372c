// Reais text ⇄ integer cents: the only place that parses or formats money. Inside the app money is
// always an integer number of cents.

import type { Locale } from '../i18n';

export type MoneyParse =
  | { ok: true; cents: number }
  | { ok: false; reason: 'empty' | 'not_a_number' | 'negative' | 'too_many_decimals' | 'ambiguous' | 'too_large' };

/** Each language's decimal mark (the other one groups thousands). */
const DECIMAL_MARK: Record<Locale, ',' | '.'> = { 'pt-BR': ',', en: '.' };

/** Thousands grouped with `mark`: `1.234`, `12.345.678` (no leading zero, groups of three). */
const grouped = (text: string, mark: ',' | '.') => new RegExp(`^[1-9]\\d{0,2}(\\${mark}\\d{3})+$`).test(text);

/**
 * Parses an amount in reais as people type it, read the way the user's language writes numbers:
 * `1.234,56` in pt-BR and `1,234.56` in English are both 123456 cents, and so are `1234,56`,
 * `1234.56`, `R$ 1.234,56`. Where the language decides the reading, it is the user's: `1.234` is
 * a thousand and more in pt-BR, `1,234` in English. Refused: what could be misread even so (`1.234`
 * from an English user: a thousand, or one and a bit?), more than two decimals, exponents, signs and
 * anything beyond what integer cents can hold exactly.
 */
export function parseReais(input: string, locale: Locale): MoneyParse {
  const text = input.trim().replace(/^R\$\s*/i, '');
  if (text === '') return { ok: false, reason: 'empty' };
  if (text.startsWith('-')) return { ok: false, reason: 'negative' };
  if (!/^[\d.,]+$/.test(text)) return { ok: false, reason: 'not_a_number' };

  let integer: string;
  let fraction = '';
  const lastComma = text.lastIndexOf(',');
  const lastDot = text.lastIndexOf('.');
  if (lastComma >= 0 && lastDot >= 0) {
    // Both marks: only one reading, the last one is the decimal mark and the other groups thousands.
    const decimalAt = Math.max(lastComma, lastDot);
    const groupMark = decimalAt === lastComma ? '.' : ',';
    integer = text.slice(0, decimalAt);
    fraction = text.slice(decimalAt + 1);
    if (!/^\d+$/.test(fraction) || !grouped(integer, groupMark)) return { ok: false, reason: 'not_a_number' };
    integer = integer.split(groupMark).join('');
  } else if (lastComma >= 0 || lastDot >= 0) {
    const mark = lastComma >= 0 ? ',' : '.';
    const parts = text.split(mark);
    if (grouped(text, mark)) {
      // `1.234`, `1,234`, `1.234.567`: thousands, if that is what this mark does in the user's language
      // or it appears more than once (no decimal mark does); else a decimal with three places or
      // thousands: ambiguous.
      if (mark === DECIMAL_MARK[locale] && parts.length === 2) return { ok: false, reason: 'ambiguous' };
      integer = parts.join('');
    } else if (parts.length === 2) {
      // `1234,56`, `10.5`: a decimal mark, whichever it is (it cannot be grouping thousands).
      [integer, fraction] = parts as [string, string];
    } else {
      return { ok: false, reason: 'not_a_number' };
    }
  } else {
    integer = text;
  }

  if (!/^\d+$/.test(integer) || (fraction !== '' && !/^\d+$/.test(fraction))) {
    return { ok: false, reason: 'not_a_number' };
  }
  if (fraction.length > 2) return { ok: false, reason: 'too_many_decimals' };

  const cents = BigInt(integer) * 100n + BigInt(fraction.padEnd(2, '0'));
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, reason: 'too_large' };
  return { ok: true, cents: Number(cents) };
}

// Made at first use, not at start (ICU set-up).
const currencies: Partial<Record<Locale, Intl.NumberFormat>> = {};
const currency = (locale: Locale) =>
  (currencies[locale] ??= new Intl.NumberFormat(locale === 'en' ? 'en' : 'pt-BR', { style: 'currency', currency: 'BRL' }));

/**
 * Cents as people read money: `R$ 1.234,56` in pt-BR, `R$1,234.56` in English (reais with English
 * separators). The amount goes to Intl as a decimal string, so no value is rounded through a float;
 * pt-BR's no-break space becomes a plain one, so the text reads and searches the same everywhere.
 */
export function formatCents(cents: number, locale: Locale = 'pt-BR'): string {
  const abs = BigInt(Math.abs(Math.trunc(cents)));
  const decimal = `${cents < 0 ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
  return currency(locale)
    .format(decimal as Intl.StringNumericLiteral)
    .replace(/\u00a0/g, ' ');
}

/**
 * An amount as the Pix API sends it, in cents (balances, statement and transaction values: the
 * service's field conventions), as R$ in the reader's language. A value that is not a whole number of
 * cents (the service's own example shows a balance of `1500.5`), or too large to be exact, is shown as
 * the API sent it rather than rounded into something it did not say.
 */
export function formatApiCents(value: number, locale: Locale = 'pt-BR'): string {
  return Number.isSafeInteger(value) ? formatCents(value, locale) : String(value);
}

/**
 * Cents as the reais text a form field starts with (`1234,56` in pt-BR, `1234.56` in English): what
 * `parseReais` reads back.
 */
export function centsToInput(cents: number, locale: Locale = 'pt-BR'): string {
  const abs = Math.abs(Math.trunc(cents));
  return `${cents < 0 ? '-' : ''}${Math.floor(abs / 100)}${locale === 'en' ? '.' : ','}${String(abs % 100).padStart(2, '0')}`;
}

/** Why an amount was refused, in the reader's language (the words are in the catalogues, `money`). */
export type MoneyProblem = Exclude<MoneyParse, { ok: true }>['reason'];
