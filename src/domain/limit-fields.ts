import { type Locale, messages } from '../i18n';
import type { Limits } from '../pix/schemas';

/**
 * Which fields of a limits object are requestable limits (in cents): the day and night limits and
 * every integer ownership field (`pixOut*`, `pixIn*`), whatever their names. The rest (window start
 * times, boleto counts and values) is information, never money to show or send.
 */
export function isRequestableLimitField(name: string, value: unknown): value is number {
  if (!Number.isSafeInteger(value)) return false;
  return name === 'pixDayLimit' || name === 'pixNightLimit' || /^pix(Out|In)[A-Z]/.test(name);
}

export interface SplitLimits {
  /** In the API's order, day and night first. */
  requestable: Array<{ field: string; cents: number }>;
  other: Array<{ field: string; value: unknown }>;
}

export function splitLimits(limits: Limits): SplitLimits {
  const requestable: SplitLimits['requestable'] = [];
  const other: SplitLimits['other'] = [];
  for (const [field, value] of Object.entries(limits)) {
    if (isRequestableLimitField(field, value)) requestable.push({ field, cents: value });
    else other.push({ field, value });
  }
  const rank = (f: string) => (f === 'pixDayLimit' ? 0 : f === 'pixNightLimit' ? 1 : 2);
  requestable.sort((a, b) => rank(a.field) - rank(b.field));
  return { requestable, other };
}

/**
 * A limit field's name for people, in their language, built from the words of the name (the ownership
 * fields are not known in advance): `pixOutSameHolderDayLimit` → `Pix out · same holder · day`
 * (en), `Pix saída · mesmo titular · diurno` (pt-BR). Unknown words are kept as they are.
 */
export function limitFieldLabel(field: string, locale: Locale): string {
  const word = messages(locale).limits.fieldWord;
  const raw = field.replace(/Limit$/, '').split(/(?=[A-Z])/);
  const words = raw.map((w) => word(w.toLowerCase()));
  const capital = (text: string) => text.replace(/^./, (c) => c.toUpperCase());
  if (raw.length > 2 && raw[0]!.toLowerCase() === 'pix' && /^(Out|In)$/.test(raw[1]!)) {
    // Direction, then holder, then period: `Pix out · same holder · day`.
    const groups: string[][] = [[]];
    for (let i = 2; i < raw.length; i++) {
      groups[groups.length - 1]!.push(words[i]!);
      if (raw[i] === 'Holder' && i < raw.length - 1) groups.push([]);
    }
    return [`${capital(words[0]!)} ${words[1]}`, ...groups.map((g) => g.join(' '))].join(' · ');
  }
  return capital(words.join(' '));
}
