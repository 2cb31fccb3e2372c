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
/** Eleven digits that read as a Brazilian mobile (area code without zeros, then 9): a phone typed without +55. */
const MOBILE_WITHOUT_COUNTRY = /^[1-9]{2}9\d{8}$/;

/**
 * The types whose form the key has: an `@` is an e-mail; a leading `+` a phone; a UUID a random key;
 * eleven digits a CPF, and also a phone when they read as a mobile number (its +55 left out); fourteen
 * characters ending in two digits a CNPJ.
 */
export function keyTypesByForm(typed: string): PaymentKeyType[] {
  const raw = unwrapSlackLink(typed);
  if (raw === '') return [];
  if (raw.includes('@')) return ['EMAIL'];
  if (raw.startsWith('+')) return ['PHONE'];
  if (UUID_SHAPE.test(raw)) return ['RANDOM'];
  const c = compact(raw).toUpperCase();
  if (/^\d{11}$/.test(c)) return MOBILE_WITHOUT_COUNTRY.test(c) ? ['CPF', 'PHONE'] : ['CPF'];
  if (/^[0-9A-Z]{12}\d{2}$/.test(c)) return ['CNPJ'];
  return [];
}

/**
 * Reads the key of the payment form. With `chosen`, the key is checked as that type. Without it, the
 * type is the one the key's form fits; eleven digits that are both a valid CPF and a mobile number
 * (without +55) fit two, and are asked about; eleven digits that are neither (a CPF's check digits wrong,
 * or a phone without its +55) are told both.
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
  const valid = forms.filter((type) => checkPixKey(locale, asPixKeyType(type), raw).ok);
  if (valid.length > 1) return { ok: false, problem: m.pay.typeAmbiguous(valid.join(', ')), needsType: true };
  if (valid.length === 0 && forms.length > 1) return { ok: false, problem: m.pay.cpfOrPhoneInvalid, needsType: false };
  // The one form that passes its checks, else the one form's own problem.
  return readPaymentKey(locale, raw, valid[0] ?? forms[0]);
}
