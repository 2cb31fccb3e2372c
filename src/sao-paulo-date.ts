/** The calendar in Brasília time (America/Sao_Paulo), where the Pix service and its users live. */

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

const PARTS = new Intl.DateTimeFormat('en-US', { timeZone: SAO_PAULO, year: 'numeric', month: 'numeric', day: 'numeric' });

/** The date it is in São Paulo at `now` (which may be another day than in UTC around midnight). */
export function saoPauloToday(now: Date): CalendarDate {
  const parts = Object.fromEntries(PARTS.formatToParts(now).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
}

const DATE_TIME = new Intl.DateTimeFormat('pt-BR', { timeZone: SAO_PAULO, dateStyle: 'short', timeStyle: 'short' });

/**
 * A date-time as people in Brazil read it (`05/03/2026, 14:30`, Brasília time), when `value` is an
 * ISO 8601 timestamp (or epoch milliseconds); undefined for anything else.
 */
export function formatSaoPauloDateTime(value: unknown): string | undefined {
  let at: Date | undefined;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value.trim())) {
    at = new Date(value.trim());
  } else if (typeof value === 'number' && Number.isSafeInteger(value) && value > 946_684_800_000 && value < 4_102_444_800_000) {
    // Epoch milliseconds between 2000 and 2100.
    at = new Date(value);
  }
  if (!at || Number.isNaN(at.getTime())) return undefined;
  // A bare date (no time) is a calendar day, not an instant: show it as written.
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value.trim())) {
    const [y, m, d] = value.trim().split('-');
    return `${d}/${m}/${y}`;
  }
  return DATE_TIME.format(at);
}

/** How long ago `iso` was, in the largest whole unit (`5 min`, `3 h`, `2 d`). */
export function ageText(iso: string | undefined, now: Date): string {
  const at = iso ? new Date(iso).getTime() : NaN;
  if (Number.isNaN(at)) return '—';
  const minutes = Math.max(0, Math.floor((now.getTime() - at) / 60_000));
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}
