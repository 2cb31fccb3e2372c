import { createPublicKey, createVerify, type KeyObject } from 'node:crypto';
import { z } from 'zod';
import { errorText, PixOpsError } from '../errors';
import type { Logger } from '../runtime/logger';

/** `GET {PIX_API_URL}/api/v1/webhook/public-keys` (the contract): every listed key is valid. */
const PublicKeysSchema = z.object({
  public_keys: z.array(z.object({ key_identifier: z.string(), is_current: z.boolean().optional(), key: z.string().min(1) })),
});

/** Keys are kept this long (the contract). */
export const KEYS_TTL_MS = 60 * 60 * 1000;
/** At most one refresh for an unknown signature this often (the contract). */
export const REFRESH_FLOOR_MS = 60 * 1000;
const FETCH_TIMEOUT_MS = 5_000;
/**
 * The longest a webhook waits for a refresh of the keys (its place in the Pix budget, then the fetch)
 * before it is checked against the keys already cached; and the longest the refresh waits for its
 * place. Under a 429 the budget holds every call for up to a minute: a refresh must not hold every
 * webhook's answer that long (the service gives up at 100 s, and retries what got no 2xx).
 */
export const REFRESH_WAIT_MS = 2_000;

export interface PublicKeysOptions {
  /** The Pix API's base URL, before `/api/v1`. */
  baseUrl: string;
  logger: Logger;
  /**
   * Takes this fetch's place in the Pix budget (PIX_RATE_LIMIT counts every call to the service);
   * rejects when `signal` aborts first.
   */
  acquire?: (signal: AbortSignal) => Promise<void>;
  now?: () => number;
}

/** The service's list of webhook signing keys could not be had (an HTTP error, or no key in it that can be read). */
export class PublicKeysUnavailableError extends PixOpsError {
  readonly code = 'pixops_webhook_keys_unavailable';
}

/**
 * The service's webhook signing keys: fetched when first needed, kept an hour, fetched again (at most
 * once a minute) when a signature matches none of them, as after a rotation. A failed fetch keeps the
 * keys already known. The route needs no AppID, so this is a small fetch of its own, not the Pix
 * client's (which sends one on every call).
 */
export class PublicKeys {
  private keys: KeyObject[] = [];
  private fetchedAt = -Infinity;
  private lastAttempt = -Infinity;
  /** The last refresh made because a signature matched no cached key. */
  private lastMissRefresh = -Infinity;
  private inFlight: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: PublicKeysOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * True when `signature` (base64 RSA-SHA256 of `body`) is made by a listed key. Checked against the
   * cached keys first; on no match (or with none cached, or stale ones), one refresh, then again. A
   * refresh is waited for at most REFRESH_WAIT_MS; then the cached keys decide (it goes on, for the
   * next webhook).
   */
  async verify(body: Buffer, signature: string): Promise<boolean> {
    const sig = Buffer.from(signature, 'base64');
    if (sig.length === 0) return false;
    const stale = this.now() - this.fetchedAt >= KEYS_TTL_MS;
    if (stale) await this.refreshWithin(REFRESH_WAIT_MS);
    if (this.matches(body, sig)) return true;
    if (stale || this.now() - this.lastMissRefresh < REFRESH_FLOOR_MS) return false;
    this.lastMissRefresh = this.now();
    await this.refreshWithin(REFRESH_WAIT_MS);
    return this.matches(body, sig);
  }

  private async refreshWithin(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    try {
      await Promise.race([this.refresh(), bound]);
    } finally {
      clearTimeout(timer);
    }
  }

  private matches(body: Buffer, sig: Buffer): boolean {
    return this.keys.some((key) => {
      try {
        return createVerify('RSA-SHA256').update(body).verify(key, sig);
      } catch {
        return false;
      }
    });
  }

  /** One fetch at a time, and at most one a minute (a service that is down is not asked on every event). */
  private refresh(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.now() - this.lastAttempt < REFRESH_FLOOR_MS && this.lastAttempt > this.fetchedAt) return Promise.resolve();
    this.inFlight ??= this.fetchKeys().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async fetchKeys(): Promise<void> {
    this.lastAttempt = this.now();
    try {
      await this.options.acquire?.(AbortSignal.timeout(REFRESH_WAIT_MS));
      const res = await fetch(`${this.options.baseUrl}/api/v1/webhook/public-keys`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!res.ok) throw new PublicKeysUnavailableError(`HTTP ${res.status}`);
      const parsed = PublicKeysSchema.parse(await res.json());
      const keys = parsed.public_keys.flatMap((k) => {
        try {
          return [createPublicKey(k.key)];
        } catch {
          this.options.logger.warn({ keyIdentifier: k.key_identifier }, 'a webhook public key could not be read; it is ignored');
          return [];
        }
      });
      if (keys.length === 0) throw new PublicKeysUnavailableError('no usable key listed');
      this.keys = keys;
      this.fetchedAt = this.now();
      this.options.logger.info({ keys: keys.length }, 'webhook public keys fetched');
    } catch (err) {
      this.options.logger.warn(
        { err: errorText(err), cached: this.keys.length },
        'could not fetch the webhook public keys; the cached ones are kept',
      );
    }
  }
}
