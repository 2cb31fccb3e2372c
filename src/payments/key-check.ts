import type { Receiver } from '../domain/money-out';
import type { PixClient } from '../pix/client';
import { PixApiError } from '../pix/errors';
import type { LookupTokens } from '../pix/schemas';

// The key check of a payment (pix-money-out.md §4): who holds the key, looked up once so that the
// checker sees who receives the money. Each look-up draws from the company's look-up tokens, shared by
// all its systems: a key not found costs 20 of them, and under 20 every payment of the company stops.
// So a key checked in the last five minutes is not looked up again, the tokens are read at most once
// a minute, no look-up is made under 40 (one more miss would stop the payments), and a check is
// never sent again on its own (the client sends it once: a retry could be one more miss).
//
// The cache and the token reading are this instance's: the contract allows it, and the service's own
// cache of the same keys makes a second instance's look-up of a found key cost nothing.

/** The same key within this long is answered from the last check. */
export const KEY_CHECK_CACHE_MS = 5 * 60_000;
/** The company's tokens are read at most this often. */
export const TOKENS_READ_EVERY_MS = 60_000;
/** Under this many tokens no look-up is made: one more key not found (20) would leave fewer than 20. */
export const MIN_TOKENS_TO_LOOK_UP = 40;
/** What the service charges a look-up (pix-money-out.md §4), counted here until the next read. */
const FOUND_COST = 1;
const MISS_COST = 20;
/** The tokens are refilled every minute (`refreshRate` a minute). */
const REFILL_EVERY_MS = 60_000;

/** Field lengths the pay payload keeps (src/domain/money-out.ts). */
const NAME_MAX = 200;
const TAX_ID_MAX = 40;
const END_TO_END_MAX = 100;

export type KeyCheckOutcome =
  /** Found: the holder as the service gave them, and the check's id that spares the payment its own look-up. */
  | { kind: 'found'; receiver: Extract<Receiver, { verified: true }>; pixKeyEndToEndId?: string }
  /** 403: the company does not have the key check; the payment goes on with the receiver not verified. */
  | { kind: 'unverified' }
  /** 404: the key is registered at no bank. */
  | { kind: 'notFound' }
  /** Too few tokens (or the service's 429): no look-up made; `refillAt`, when known, is when there will be enough. */
  | { kind: 'tokensLow'; refillAt?: Date }
  /** The Pix API failed (no answer, a 5xx, anything else): nothing is known of the holder. */
  | { kind: 'failed'; err: unknown };

interface TokenSnapshot {
  readAt: number;
  tokens: number;
  refillAt?: Date;
}

/**
 * `nextRefresh` as the service may send it (its form is not shown): an ISO 8601 time, or epoch
 * milliseconds as a number or digits.
 */
export function readNextRefresh(value: LookupTokens['nextRefresh']): Date | undefined {
  if (value === null || value === undefined) return undefined;
  const ms = typeof value === 'number' ? value : /^\d{10,}$/.test(value.trim()) ? Number(value.trim()) : Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}

/** When the tokens will be at MIN_TOKENS_TO_LOOK_UP again: the next refill, and as many more as it takes. */
function refillAtOf(t: LookupTokens): Date | undefined {
  const next = readNextRefresh(t.nextRefresh);
  if (!next) return undefined;
  const after = t.tokensAfterRefresh;
  const rate = t.refreshRate;
  if (after === undefined || after >= MIN_TOKENS_TO_LOOK_UP || !rate || rate <= 0) return next;
  return new Date(next.getTime() + Math.ceil((MIN_TOKENS_TO_LOOK_UP - after) / rate) * REFILL_EVERY_MS);
}

const statusOf = (err: unknown) => (err instanceof PixApiError && err.kind === 'http' ? err.status : undefined);

/**
 * This instance's memory of key checks and of the company's tokens. One per app (src/app.ts); each
 * check is made through the caller's Pix client (its delivery's, so that the call is in its audit).
 */
export class KeyChecks {
  private readonly checks = new Map<string, { at: number; outcome: Promise<KeyCheckOutcome> }>();
  private tokens: { snapshot?: TokenSnapshot; reading?: Promise<TokenSnapshot> } = {};

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The key's holder, from a check made in the last five minutes (one under way included) or from a
   * new one, made only when the company has tokens enough. `fresh` says whether this call looked it up.
   * Never rejects: a failure of the Pix API is the `failed` outcome.
   */
  async check(pix: PixClient, appId: string, pixKey: string): Promise<KeyCheckOutcome & { fresh: boolean }> {
    const now = this.now();
    this.forgetOlderThan(now - KEY_CHECK_CACHE_MS);
    const known = this.checks.get(pixKey);
    if (known) return { ...(await known.outcome), fresh: false };
    const outcome = this.lookUp(pix, appId, pixKey);
    this.checks.set(pixKey, { at: now, outcome });
    const result = await outcome;
    // Only what the key is stays known: a refusal for want of tokens, or a failure, says nothing of it.
    if (result.kind === 'tokensLow' || result.kind === 'failed') this.checks.delete(pixKey);
    return { ...result, fresh: true };
  }

  private forgetOlderThan(limit: number): void {
    // In insertion order, so oldest first.
    for (const [key, entry] of this.checks) {
      if (entry.at > limit) break;
      this.checks.delete(key);
    }
  }

  private async lookUp(pix: PixClient, appId: string, pixKey: string): Promise<KeyCheckOutcome> {
    let tokens: TokenSnapshot;
    try {
      tokens = await this.tokensNow(pix, appId);
    } catch (err) {
      return { kind: 'failed', err };
    }
    if (tokens.tokens < MIN_TOKENS_TO_LOOK_UP) return { kind: 'tokensLow', ...(tokens.refillAt ? { refillAt: tokens.refillAt } : {}) };
    try {
      const found = await pix.checkPixKey(appId, pixKey);
      this.spend(FOUND_COST);
      const owner = found.owner ?? {};
      const endToEnd = found.pixKeyEndToEndId;
      return {
        kind: 'found',
        receiver: {
          verified: true,
          ...(owner.name ? { name: owner.name.slice(0, NAME_MAX) } : {}),
          ...(owner.taxID ? { taxId: owner.taxID.slice(0, TAX_ID_MAX) } : {}),
          ...(owner.psp ? { bank: owner.psp.slice(0, NAME_MAX) } : {}),
        },
        ...(endToEnd && endToEnd.length <= END_TO_END_MAX ? { pixKeyEndToEndId: endToEnd } : {}),
      };
    } catch (err) {
      switch (statusOf(err)) {
        case 403:
          return { kind: 'unverified' };
        case 404:
          this.spend(MISS_COST);
          return { kind: 'notFound' };
        case 429:
          // The service refuses look-ups: none more until the tokens are read again.
          this.spend(Number.POSITIVE_INFINITY);
          return { kind: 'tokensLow', ...(tokens.refillAt ? { refillAt: tokens.refillAt } : {}) };
        default:
          return { kind: 'failed', err };
      }
    }
  }

  /** The tokens as last read within the minute (less what this instance spent since), else read now (one read at a time). */
  private async tokensNow(pix: PixClient, appId: string): Promise<TokenSnapshot> {
    const { snapshot } = this.tokens;
    if (snapshot && this.now() - snapshot.readAt < TOKENS_READ_EVERY_MS) return snapshot;
    if (!this.tokens.reading) {
      const reading = pix.getLookupTokens(appId).then((t): TokenSnapshot => {
        const refillAt = refillAtOf(t);
        return { readAt: this.now(), tokens: t.tokens, ...(refillAt ? { refillAt } : {}) };
      });
      this.tokens.reading = reading;
      reading.then(
        (read) => {
          this.tokens = { snapshot: read };
        },
        () => {
          this.tokens = { ...(this.tokens.snapshot ? { snapshot: this.tokens.snapshot } : {}) };
        },
      );
    }
    return this.tokens.reading;
  }

  private spend(cost: number): void {
    const s = this.tokens.snapshot;
    if (s) s.tokens = Math.max(0, s.tokens - cost);
  }
}
