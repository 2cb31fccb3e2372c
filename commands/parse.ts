import { UsageError } from '../src/entry/table';
import { type Locale, messages } from '../src/i18n';
import { PixIdSchema } from '../src/pix/schemas';

export { PixIdSchema };

/** An account id given as an argument; wrong: a UsageError in the caller's language. */
export function accountIdArg(locale: Locale, given: string | undefined): string {
  if (given === undefined || !PixIdSchema.safeParse(given).success) throw new UsageError(messages(locale).usage.notAccountId);
  return given;
}

/** An optional account id argument (absent: the default account, decided by the caller). */
export const optionalAccountIdArg = (locale: Locale, given: string | undefined): string | undefined =>
  given === undefined ? undefined : accountIdArg(locale, given);
