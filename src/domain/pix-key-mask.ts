// Personal data in Pix keys, masked wherever a key leaves the eyes of the person who typed it: the
// channel's announcements and the audit trail. One function, so the rule is the same everywhere.
//
// - CPF, a person's tax id: `***.982.247-**`, the form the central bank's Pix rules prescribe for
//   showing a payee's CPF (first three and last two digits hidden).
// - Phone: country and area code and the last four digits, `+5511*****4321`, however it is written
//   (`+55…`, `55…`, `11…`, `(11) 98765-4321`): a number without its country is taken as Brazil's, so
//   no form of it shows more digits than another.
// - E-mail: the mailbox's first character and the domain: `f***@example.com`.
// - CNPJ: `**.222.333/****-**`, the company's root kept in the middle. Most CNPJs are companies'
//   public registrations, but the contract counts a person's CNPJ (a sole trader's, MEI) as personal
//   data, and nothing in the digits tells one apart: so every CNPJ is masked as a person's would be.
// - EVP (random key, `RANDOM` as a withdraw key): shown whole; a random UUID says nothing of anyone.
// - A key whose type is not known and whose form tells none, or more than one (eleven digits may be a
//   CPF or a phone): hidden but for its last two characters, as strict as any type it could be (the
//   contract allows at most the last four).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CNPJ = /^[0-9A-Z]{12}\d{2}$/i;
/** A CPF as it is written: `529.982.247-25`. Its eleven digits alone may as well be a phone (`11987654321`). */
const PUNCTUATED_CPF = /^\d{3}\.\d{3}\.\d{3}-\d{2}$/;

type Form = 'CPF' | 'CNPJ' | 'PHONE' | 'EMAIL' | 'EVP' | 'UNKNOWN';

const stripPunctuation = (text: string) => text.replace(/[\s.\-/()]/g, '');

/** The key's form: its type when the API gave one, else what it looks like. */
function formOf(key: string, type: string | undefined): Form {
  const given = type?.toUpperCase();
  if (given === 'RANDOM') return 'EVP';
  if (given === 'CPF' || given === 'CNPJ' || given === 'PHONE' || given === 'EMAIL' || given === 'EVP') return given;
  if (key.includes('@')) return 'EMAIL';
  // A CPF is never written with parentheses; a phone's area code often is.
  if (key.startsWith('+') || /[()]/.test(key)) return 'PHONE';
  if (UUID.test(key)) return 'EVP';
  if (PUNCTUATED_CPF.test(key)) return 'CPF';
  if (CNPJ.test(stripPunctuation(key))) return 'CNPJ';
  return 'UNKNOWN';
}

/** A phone's digits, its country code first: Brazil's (55) when it is written without one. */
function phoneDigits(key: string): string {
  const digits = key.replace(/\D/g, '');
  if (key.startsWith('+')) return digits;
  // A trunk prefix (0) or an international one (00) says nothing of the number.
  const rest = digits.replace(/^0+/, '');
  // An area code and 8 or 9 digits: a Brazilian number written without its country.
  return rest.length === 10 || rest.length === 11 ? `55${rest}` : rest;
}

const stars = (n: number) => '*'.repeat(Math.max(0, n));
const hideAllButLastTwo = (text: string) => (text.length <= 2 ? stars(3) : `${stars(3)}${text.slice(-2)}`);

/** A tax id (a customer's `taxID`): a CPF or a CNPJ, told apart by its length, and masked as that one. */
export function maskTaxId(taxId: string): string {
  const compact = stripPunctuation(taxId.trim());
  return maskPixKey(taxId, /^\d{11}$/.test(compact) ? 'CPF' : CNPJ.test(compact) ? 'CNPJ' : undefined);
}

/**
 * A Pix key as anyone but the person who typed it may see it (see the rules above). `type`: the key's
 * type when it is known (the API's, the one chosen in a form); without it, the key's form alone decides.
 */
export function maskPixKey(key: string, type?: string): string {
  const trimmed = key.trim();
  if (trimmed === '') return trimmed;
  switch (formOf(trimmed, type)) {
    case 'CPF': {
      const digits = stripPunctuation(trimmed);
      return /^\d{11}$/.test(digits) ? `***.${digits.slice(3, 6)}.${digits.slice(6, 9)}-**` : hideAllButLastTwo(digits);
    }
    case 'PHONE': {
      const digits = phoneDigits(trimmed);
      // Country and area code (four digits) at the front; the last four at the end.
      return digits.length >= 10 ? `+${digits.slice(0, 4)}${stars(digits.length - 8)}${digits.slice(-4)}` : hideAllButLastTwo(digits);
    }
    case 'EMAIL': {
      const at = trimmed.lastIndexOf('@');
      return at > 0 ? `${trimmed[0]}***${trimmed.slice(at)}` : hideAllButLastTwo(trimmed);
    }
    case 'CNPJ': {
      const compact = stripPunctuation(trimmed);
      return CNPJ.test(compact) ? `**.${compact.slice(2, 5)}.${compact.slice(5, 8)}/****-**` : hideAllButLastTwo(compact);
    }
    case 'EVP':
      return trimmed;
    case 'UNKNOWN':
      return hideAllButLastTwo(trimmed);
  }
}
