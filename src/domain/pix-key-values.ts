// Pix key values as people type them ⇄ the canonical form the Pix API and the DICT use. Checked here,
// before anything is sent: a malformed key costs a DICT lookup of a key that does not exist, which the
// central bank limits and penalizes. Problems are told in the reader's language.

import { type Locale, messages } from '../i18n';

/** The key types of the Pix key endpoints (a random key is `EVP` there). */
export const PIX_KEY_TYPES = ['EMAIL', 'PHONE', 'CPF', 'CNPJ', 'EVP'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

export function isPixKeyType(value: string): value is PixKeyType {
  return (PIX_KEY_TYPES as readonly string[]).includes(value);
}

/** `pixKey` is canonical; for `EVP` it may be empty: the service then creates the random key. */
export type PixKeyCheck = { ok: true; type: PixKeyType; pixKey: string } | { ok: false; problem: string };

/** The DICT's limit for e-mail keys. */
const EMAIL_MAX = 77;
const EMAIL = /^[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** +55, a two-digit area code (no zeros), then a nine-digit mobile number starting with 9. */
const BR_MOBILE = /^\+55[1-9]{2}9\d{8}$/;

/** Slack may turn what people type into links (`<mailto:a@b.com|a@b.com>`): keep the visible text. */
export function unwrapSlackLink(text: string): string {
  const m = /^<(?:mailto:|tel:)?([^|>]*)(?:\|([^>]*))?>$/.exec(text.trim());
  if (!m) return text.trim();
  return (m[2] ?? m[1] ?? '').trim();
}

function allSame(text: string): boolean {
  return /^(.)\1*$/.test(text);
}

/** A CPF: 11 digits whose last two are its check digits (a run of one digit is never valid). */
export function isValidCpf(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || allSame(digits)) return false;
  const d = [...digits].map(Number);
  const check = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += d[i]! * (length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === d[9] && check(10) === d[10];
}

/**
 * A CNPJ: 14 characters whose last two are check digits. Since July 2026 the first twelve may be
 * letters (the alphanumeric CNPJ); each character counts as its ASCII code minus 48, so digits keep
 * their value and the rule is the same for the numeric form.
 */
export function isValidCnpj(value: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(value) || allSame(value)) return false;
  const v = [...value].map((c) => c.charCodeAt(0) - 48);
  const check = (length: number) => {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += v[i]! * (((length - 1 - i) % 8) + 2);
    const rest = sum % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  return check(12) === v[12] && check(13) === v[13];
}

const stripPunctuation = (text: string) => text.replace(/[\s.\-/]/g, '');

/** Checks a value typed for a key of the given type, and puts it in the canonical form. */
export function checkPixKey(locale: Locale, type: PixKeyType, typed: string): PixKeyCheck {
  const m = messages(locale).pixKeyValues;
  const raw = unwrapSlackLink(typed);
  switch (type) {
    case 'EMAIL': {
      if (raw === '') return { ok: false, problem: m.emailEmpty };
      const email = raw.toLowerCase();
      if (email.length > EMAIL_MAX) return { ok: false, problem: m.emailTooLong(EMAIL_MAX) };
      if (!EMAIL.test(email)) return { ok: false, problem: m.emailInvalid };
      return { ok: true, type, pixKey: email };
    }
    case 'PHONE': {
      if (raw === '') return { ok: false, problem: m.phoneEmpty };
      const phone = raw.replace(/[\s().-]/g, '');
      if (!phone.startsWith('+55')) return { ok: false, problem: m.phoneNoCountry };
      if (!BR_MOBILE.test(phone)) {
        return { ok: false, problem: m.phoneInvalid };
      }
      return { ok: true, type, pixKey: phone };
    }
    case 'CPF': {
      const digits = stripPunctuation(raw);
      if (digits === '') return { ok: false, problem: m.cpfEmpty };
      if (!/^\d{11}$/.test(digits)) return { ok: false, problem: m.cpfLength };
      if (!isValidCpf(digits)) return { ok: false, problem: m.cpfInvalid };
      return { ok: true, type, pixKey: digits };
    }
    case 'CNPJ': {
      const cnpj = stripPunctuation(raw).toUpperCase();
      if (cnpj === '') return { ok: false, problem: m.cnpjEmpty };
      if (!/^[0-9A-Z]{12}\d{2}$/.test(cnpj)) return { ok: false, problem: m.cnpjLength };
      if (!isValidCnpj(cnpj)) return { ok: false, problem: m.cnpjInvalid };
      return { ok: true, type, pixKey: cnpj };
    }
    case 'EVP': {
      if (raw === '') return { ok: true, type, pixKey: '' };
      const uuid = raw.toLowerCase();
      if (!UUID.test(uuid)) {
        return { ok: false, problem: m.evpInvalid };
      }
      return { ok: true, type, pixKey: uuid };
    }
  }
}

/**
 * A key given without its type (the withdraw key, a key to delete): recognized by its form, then
 * checked as that type. Phones must carry +55, so eleven digits are a CPF.
 */
export function detectPixKey(locale: Locale, typed: string): PixKeyCheck {
  const raw = unwrapSlackLink(typed);
  if (raw === '') return { ok: false, problem: messages(locale).pixKeyValues.noKey };
  if (raw.includes('@')) return checkPixKey(locale, 'EMAIL', raw);
  if (raw.startsWith('+')) return checkPixKey(locale, 'PHONE', raw);
  if (UUID.test(raw.toLowerCase())) return checkPixKey(locale, 'EVP', raw);
  const compact = stripPunctuation(raw).toUpperCase();
  if (/^\d{11}$/.test(compact)) return checkPixKey(locale, 'CPF', compact);
  if (/^[0-9A-Z]{12}\d{2}$/.test(compact)) return checkPixKey(locale, 'CNPJ', compact);
  return { ok: false, problem: messages(locale).pixKeyValues.unrecognized };
}
