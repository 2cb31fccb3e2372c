import { type Catalogue, en } from './en';
import { ptBR } from './pt-BR';

export type { Catalogue } from './en';

/** The languages Pix Ops speaks. Brazilian Portuguese is the default: the Pix service's users are in Brazil. */
export type Locale = 'pt-BR' | 'en';
export const DEFAULT_LOCALE: Locale = 'pt-BR';

/** An infinitive phrase of `actions` ("read the limits"): what commands, buttons and failures name. */
export type ActionKey = keyof Catalogue['actions'];
/** A command's line in `/pix help`. */
export type SummaryKey = keyof Catalogue['summaries'];

const CATALOGUES: Record<Locale, Catalogue> = { 'pt-BR': ptBR, en };

/**
 * Every text of one language, typed: `messages(locale).limits.title({ account, isDefault })`.
 * Anything that is not a known locale (a missing one included) gets the default, pt-BR.
 */
export function messages(locale: Locale | undefined): Catalogue {
  return (locale && CATALOGUES[locale]) || CATALOGUES[DEFAULT_LOCALE];
}

/**
 * A Slack locale (`users.info` → `user.locale`: `en-US`, `pt-BR`, `es-ES`, …) as one of ours:
 * Portuguese of any region is pt-BR, English of any region is en, anything else (or none) pt-BR.
 */
export function localeFromSlack(tag: unknown): Locale {
  if (typeof tag !== 'string') return DEFAULT_LOCALE;
  const language = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (language === 'en') return 'en';
  return DEFAULT_LOCALE;
}
