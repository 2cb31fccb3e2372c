/** Check digits of Brazilian tax ids (modulo 11), for the ids the sandbox makes and the keys it validates. */

/** CPF: weights run 2, 3, … from the rightmost digit; a remainder under 2 gives 0. */
export function cpfCheckDigit(digits: number[]): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += (digits[digits.length - 1 - i] ?? 0) * (i + 2);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** CNPJ: weights run 2..9 cyclically from the rightmost digit. */
export function cnpjCheckDigit(digits: number[]): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += (digits[digits.length - 1 - i] ?? 0) * ((i % 8) + 2);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** Whether the last two digits of `id` are the check digits of the rest. */
export function hasValidCheckDigits(id: string, checkDigit: (digits: number[]) => number): boolean {
  const digits = [...id].map(Number);
  // A repeated digit passes the arithmetic but is no one's number.
  if (digits.every((d) => d === digits[0])) return false;
  const base = digits.slice(0, -2);
  base.push(checkDigit(base));
  base.push(checkDigit(base));
  return base.join('') === id;
}
