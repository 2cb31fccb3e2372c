import { z } from 'zod';
import { UsageError } from '../src/entry/table';
import { messages, type Locale } from '../src/i18n';

/** Identifiers of the Pix API (accounts, requests): object ids in practice; never path syntax. */
export const PixIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** An account id given as an argument; wrong: a UsageError in the caller's language. */
export function accountIdArg(locale: Locale, given: string | undefined): string {
  if (given === undefined || !PixIdSchema.safeParse(given).success) throw new UsageError(messages(locale).usage.notAccountId);
  return given;
}

/** An optional account id argument (absent: the default account, decided by the caller). */
export const optionalAccountIdArg = (locale: Locale, given: string | undefined): string | undefined =>
  given === undefined ? undefined : accountIdArg(locale, given);
