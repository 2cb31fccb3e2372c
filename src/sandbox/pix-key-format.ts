import { type PixKeyType, WITHDRAW_KEY_TYPES, type WithdrawKeyType } from './state';
import { cnpjCheckDigit, cpfCheckDigit, hasValidCheckDigits } from './tax-id';

/** The forms of Pix keys, as the central bank's directory (DICT) accepts them. */

export const KEY_FORMATS: Record<PixKeyType, RegExp> = {
  EMAIL: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  PHONE: /^\+[1-9]\d{10,13}$/,
  CPF: /^\d{11}$/,
  CNPJ: /^\d{14}$/,
  EVP: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

/** The Pix-key endpoints call a random key EVP; the DICT entries, withdraw keys and payments RANDOM. */
export function pixKeyType(type: WithdrawKeyType): PixKeyType {
  return type === 'RANDOM' ? 'EVP' : type;
}

export function dictKeyType(type: PixKeyType): WithdrawKeyType {
  return type === 'EVP' ? 'RANDOM' : type;
}

/** Whether `key` is a well-formed key of `type`: its form, and for a CPF or CNPJ its check digits. */
export function isWellFormed(key: string, type: WithdrawKeyType): boolean {
  if (!KEY_FORMATS[pixKeyType(type)].test(key)) return false;
  if (type === 'CPF') return hasValidCheckDigits(key, cpfCheckDigit);
  if (type === 'CNPJ') return hasValidCheckDigits(key, cnpjCheckDigit);
  return true;
}

/** The one type whose form `key` has, or undefined (a key of no form is refused as invalid). */
export function keyTypeOf(key: string): WithdrawKeyType | undefined {
  return WITHDRAW_KEY_TYPES.find((type) => isWellFormed(key, type));
}
