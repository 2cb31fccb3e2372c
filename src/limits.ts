import type { Limits } from './pix/schemas';

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

/** `pixOutSameHolderDayLimit` → `Pix out · same holder · day`. */
export function limitFieldLabel(field: string): string {
  const words = field.replace(/Limit$/, '').split(/(?=[A-Z])/).map((w) => w.toLowerCase());
  const text = words.join(' ').replace(/^./, (c) => c.toUpperCase());
  return text.replace(/^Pix (out|in) /, 'Pix $1 · ').replace(/ holder /, ' holder · ');
}
