// The Pix key a payment goes to, as people type it in the payment form: checked for its type (CPF and
// CNPJ check digits, e-mail, phone +55 with area code, random key as a UUID) before anything is sent,
// since each look-up of a key that does not exist costs the company 20 of its look-up tokens. Without a
// type, the type is read from the key's form; a key whose form fits none, or more than one, is asked
// about instead of guessed.

import { type Locale, messages } from '../i18n';
import type { PaymentKeyType } from './money-out';
import { checkPixKey, type PixKeyType, unwrapSlackLink } from './pix-key-values';

export type PaymentKeyRead =
  | { ok: true; type: PaymentKeyType; pixKey: string }
  /** `needsType`: the type could not be read from the key; the problem belongs on the type's input. */
  | { ok: false; problem: string; needsType: boolean };

/** A payment's key type as the Pix-key endpoints name it (`RANDOM` is `EVP` there). */
const asPixKeyType = (type: PaymentKeyType): PixKeyType => (type === 'RANDOM' ? 'EVP' : type);

const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const compact = (text: string) => text.replace(/[\s.\-/()]/g, '');
/** A CPF as it is written: `529.982.247-25`. */
const PUNCTUATED_CPF = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;
/**
 * Brazil's 67 area codes (DDD) of ANATEL's numbering plan
 * (https://pt.wikipedia.org/wiki/N%C3%BAmeros_de_telefone_no_Brasil, "Códigos de Área").
 */
const AREA_CODES = new Set(
  '11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 41 42 43 44 45 46 47 48 49 51 53 54 55 61 62 63 64 65 66 67 68 69 71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99'.split(
    ' ',
  ),
);
/** Eleven digits that read as a Brazilian mobile (an area code, then 9): a phone typed without +55. */
const isMobileWithoutCountry = (digits: string) => /^\d{2}9\d{8}$/.test(digits) && AREA_CODES.has(digits.slice(0, 2));

/**
 * The types whose form the key has: an `@` is an e-mail; a leading `+` or an area code in parentheses a
 * phone; a UUID a random key; a CPF's punctuation a CPF; eleven digits a CPF, and also a phone when they
 * read as a mobile number (its +55 left out); fourteen characters ending in two digits a CNPJ.
 */
export function keyTypesByForm(typed: string): PaymentKeyType[] {
  const raw = unwrapSlackLink(typed);
  if (raw === '') return [];
  if (raw.includes('@')) return ['EMAIL'];
  if (raw.startsWith('+') || /[()]/.test(raw)) return ['PHONE'];
  if (UUID_SHAPE.test(raw)) return ['RANDOM'];
  if (PUNCTUATED_CPF.test(raw)) return ['CPF'];
  const c = compact(raw).toUpperCase();
  if (/^\d{11}$/.test(c)) return isMobileWithoutCountry(c) ? ['CPF', 'PHONE'] : ['CPF'];
  if (/^[0-9A-Z]{12}\d{2}$/.test(c)) return ['CNPJ'];
  return [];
}

/**
 * Reads the key of the payment form. With `chosen`, the key is checked as that type. Without it, the
 * type is the one the key's form fits, and the key is checked as that type. Eleven digits that read as
 * a mobile number fit two forms: a valid CPF is then asked about (it may be a phone whose +55 was left
 * out), anything else is told it is neither a valid CPF nor a phone written with +55.
 */
export function readPaymentKey(locale: Locale, typed: string, chosen?: PaymentKeyType): PaymentKeyRead {
  const m = messages(locale);
  const raw = unwrapSlackLink(typed);
  if (raw === '') return { ok: false, problem: m.pixKeyValues.noKey, needsType: false };
  if (chosen) {
    const checked = checkPixKey(locale, asPixKeyType(chosen), raw);
    return checked.ok ? { ok: true, type: chosen, pixKey: checked.pixKey } : { ok: false, problem: checked.problem, needsType: false };
  }
  const forms = keyTypesByForm(raw);
  if (forms.length === 0) return { ok: false, problem: m.pay.typeUnknown, needsType: true };
  if (forms.length > 1) {
    // Only eleven digits fit two forms: a CPF, and a mobile number typed without its +55.
    const cpf = checkPixKey(locale, 'CPF', raw);
    return cpf.ok
      ? { ok: false, problem: m.pay.typeAmbiguous, needsType: true }
      : { ok: false, problem: m.pay.cpfOrPhoneInvalid, needsType: false };
  }
  return readPaymentKey(locale, raw, forms[0]);
}
