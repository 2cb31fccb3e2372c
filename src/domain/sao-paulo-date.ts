/** The calendar in Brasília time (America/Sao_Paulo), where the Pix service and its users live. */

import { PixOpsError } from '../errors';
import { type Locale, messages } from '../i18n';

export const SAO_PAULO = 'America/Sao_Paulo';

/** Injected where "today" matters, so tests can stand at any instant. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export interface CalendarDate {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
}

// The formats are made at their first use, not at start: each Intl.DateTimeFormat with a time zone
// costs milliseconds of ICU set-up that a start need not wait for.
let parts: Intl.DateTimeFormat | undefined;
const dateParts = () =>
  (parts ??= new Intl.DateTimeFormat('en-US', { timeZone: SAO_PAULO, year: 'numeric', month: 'numeric', day: 'numeric' }));

/** The date it is in São Paulo at `now` (which may be another day than in UTC around midnight). */
export function saoPauloToday(now: Date): CalendarDate {
  const found = Object.fromEntries(
    dateParts()
      .formatToParts(now)
      .map((p) => [p.type, p.value]),
  );
  return { year: Number(found.year), month: Number(found.month), day: Number(found.day) };
}

const dateTimes: Partial<Record<Locale, Intl.DateTimeFormat>> = {};
const dateTime = (locale: Locale) =>
  (dateTimes[locale] ??=
    locale === 'en'
      ? new Intl.DateTimeFormat('en-US', { timeZone: SAO_PAULO, dateStyle: 'medium', timeStyle: 'short' })
      : new Intl.DateTimeFormat('pt-BR', { timeZone: SAO_PAULO, dateStyle: 'short', timeStyle: 'short' }));
/** A calendar day as written (no time zone: it is not an instant). */
const datesOnly: Partial<Record<Locale, Intl.DateTimeFormat>> = {};
const dateOnly = (locale: Locale) =>
  (datesOnly[locale] ??=
    locale === 'en'
      ? new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', dateStyle: 'medium' })
      : new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', dateStyle: 'short' }));

/** ICU puts narrow or non-breaking spaces in some formats: plain spaces read and search the same everywhere. */
const plainSpaces = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

/**
 * An instant in Brasília time, as the reader's language writes it: `05/03/2026, 14:30` (pt-BR),
 * `Mar 5, 2026, 2:30 PM` (en).
 */
export function formatSaoPauloInstant(at: Date, locale: Locale): string {
  return plainSpaces(dateTime(locale).format(at));
}

/**
 * A date-time in Brasília time, in the reader's language (see `formatSaoPauloInstant`), when `value`
 * is an ISO 8601 timestamp (or epoch milliseconds); undefined for anything else.
 */
export function formatSaoPauloDateTime(value: unknown, locale: Locale): string | undefined {
  let at: Date | undefined;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim())) {
    at = new Date(value.trim());
  } else if (typeof value === 'number' && Number.isSafeInteger(value) && value > 946_684_800_000 && value < 4_102_444_800_000) {
    // Epoch milliseconds between 2000 and 2100.
    at = new Date(value);
  }
  if (!at || Number.isNaN(at.getTime())) return undefined;
  // A bare date (no time) is a calendar day, not an instant: show it as written (`05/03/2026`, `Mar 5, 2026`).
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim())) {
    return plainSpaces(dateOnly(locale).format(new Date(`${value.trim()}T00:00:00Z`)));
  }
  return formatSaoPauloInstant(at, locale);
}

/** How long ago `iso` was, in the largest whole unit (`5 min ago`, `há 3 h`, …). */
export function ageText(iso: string | undefined, now: Date, locale: Locale): string {
  const words = messages(locale).dates;
  const at = iso ? new Date(iso).getTime() : NaN;
  if (Number.isNaN(at)) return '—';
  const minutes = Math.max(0, Math.floor((now.getTime() - at) / 60_000));
  if (minutes < 1) return words.justNow;
  if (minutes < 60) return words.minutesAgo(minutes);
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return words.hoursAgo(hours);
  return words.daysAgo(Math.floor(hours / 24));
}

/** `2026-03-05` as a calendar date; undefined for anything else, a day that does not exist included. */
export function parseIsoDate(text: string): CalendarDate | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day ? { year, month, day } : undefined;
}

/** `2026-03-05`. */
export function isoDateOf(date: CalendarDate): string {
  return `${String(date.year).padStart(4, '0')}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

/** The calendar date `days` after (or before) `date`. */
export function addDays(date: CalendarDate, days: number): CalendarDate {
  const at = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() };
}

/** No hour of the first twelve of a day falls on that day in São Paulo: the time-zone data is not what it has always been. */
export class NoStartOfDayError extends PixOpsError {
  readonly code = 'pixops_no_start_of_day';
}

/**
 * The instant a day begins in São Paulo: the first whole UTC hour that is already that day there
 * (its offsets, daylight saving time in past years included, have always been whole hours; a day
 * whose midnight was skipped by daylight saving began at 01:00).
 */
export function saoPauloStartOfDay(date: CalendarDate): Date {
  for (let hour = 0; hour < 12; hour++) {
    const at = new Date(Date.UTC(date.year, date.month - 1, date.day, hour));
    const there = saoPauloToday(at);
    if (there.year === date.year && there.month === date.month && there.day === date.day) return at;
  }
  throw new NoStartOfDayError(`No start of ${isoDateOf(date)} in São Paulo`);
}
