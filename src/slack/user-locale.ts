import type { WebClient } from '@slack/web-api';
import { DEFAULT_LOCALE, type Locale, localeFromSlack } from '../i18n/index';

export interface LocaleResolverOptions {
  /** The user's Slack locale tag (`en-US`, `pt-BR`, …), or undefined when Slack gives none. */
  lookup: (userId: string) => Promise<string | undefined>;
  /** How long a user's locale is kept (default one hour). */
  ttlMs?: number;
  /** How long a failed lookup answers pt-BR before Slack is asked again (default one minute). */
  failureTtlMs?: number;
  /** Users kept at most; the least recently used go first (default 2,000). */
  maxEntries?: number;
  /**
   * How long a caller waits for Slack before going on in pt-BR (default 1.5 s): slash commands and
   * modal submissions must be answered within three seconds. The lookup still completes and fills
   * the cache for the next message.
   */
  timeoutMs?: number;
  now?: () => number;
  onError?: (userId: string, err: unknown) => void;
}

interface Entry {
  locale: Promise<Locale>;
  /** The locale once the look-up has answered (or failed): given at once, without racing a timer. */
  known?: Locale;
  expiresAt: number;
}

/**
 * Each user's language, from their Slack locale (`users.info` with `include_locale`, which needs the
 * `users:read` scope), cached per user. Never rejects: a failure, a slow Slack or a locale we do not
 * speak all give pt-BR.
 */
export class LocaleResolver {
  private readonly cache = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly failureTtlMs: number;
  private readonly maxEntries: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly options: LocaleResolverOptions) {
    this.ttlMs = options.ttlMs ?? 60 * 60_000;
    this.failureTtlMs = options.failureTtlMs ?? 60_000;
    this.maxEntries = options.maxEntries ?? 2_000;
    this.timeoutMs = options.timeoutMs ?? 1_500;
    this.now = options.now ?? Date.now;
  }

  async localeOf(userId: string | undefined): Promise<Locale> {
    if (!userId) return DEFAULT_LOCALE;
    let entry = this.cache.get(userId);
    if (entry && entry.expiresAt > this.now()) {
      // Re-inserted last: the map stays in order of use, so eviction drops the least recently used.
      this.cache.delete(userId);
      this.cache.set(userId, entry);
      if (entry.known !== undefined) return entry.known;
    } else {
      entry = this.load(userId);
    }
    return this.withTimeout(entry.locale);
  }

  /** How many users are cached (for tests). */
  get size(): number {
    return this.cache.size;
  }

  private load(userId: string): Entry {
    const entry: Entry = { locale: Promise.resolve(DEFAULT_LOCALE), expiresAt: this.now() + this.ttlMs };
    entry.locale = this.options
      .lookup(userId)
      .then(localeFromSlack, (err: unknown) => {
        entry.expiresAt = this.now() + this.failureTtlMs;
        this.options.onError?.(userId, err);
        return DEFAULT_LOCALE;
      })
      .then((locale) => {
        entry.known = locale;
        return locale;
      });
    this.cache.delete(userId);
    this.cache.set(userId, entry);
    while (this.cache.size > this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    return entry;
  }

  private withTimeout(locale: Promise<Locale>): Promise<Locale> {
    if (!(this.timeoutMs > 0)) return locale;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<Locale>((resolve) => {
      timer = setTimeout(resolve, this.timeoutMs, DEFAULT_LOCALE);
      timer.unref?.();
    });
    return Promise.race([locale, late]).finally(() => clearTimeout(timer));
  }
}

/** A user's Slack locale tag, from `users.info` with `include_locale` (through the quick client: clients.ts). */
export function slackLocaleLookup(client: WebClient): (userId: string) => Promise<string | undefined> {
  return async (user) => {
    const res = await client.users.info({ user, include_locale: true });
    return res.user?.locale;
  };
}
