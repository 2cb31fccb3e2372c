import { createSign, generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

/**
 * The service's webhooks, as the sandbox plays them: events signed with a key pair of its own
 * (`x-webhook-signature: base64(RSA-SHA256(raw body))`), its public keys served at
 * `GET /api/v1/webhook/public-keys`, and deliveries retried as the service retries them (8 times,
 * 10·2ⁿ seconds apart), with the unit shortened by an option (a test or a demo does not wait minutes).
 */

const generate = promisify(generateKeyPair);

interface SigningKey {
  id: string;
  privatePem: string;
  publicPem: string;
}

/** One delivery attempt, as `GET /sandbox/webhooks/deliveries` lists it (no body: only what it was). */
export interface DeliveryAttempt {
  event: string;
  /** The attempt (0: the first sending). */
  attempt: number;
  /** The receiver's answer, or 0 when there was none. */
  status: number;
  at: number;
}

export const RETRIES = 8;
/** The service's unit: 10 s (10·2ⁿ seconds apart). */
export const SERVICE_RETRY_UNIT_MS = 10_000;
/** The service gives up on a receiver that has not answered after 100 s. */
const SERVICE_ANSWER_TIMEOUT_MS = 100_000;
const MAX_LOGGED = 1_000;

/** RSA key sizes the sandbox signs with: the service's published key is 1024-bit; new keys are 2048. */
export const KEY_BITS = [1024, 2048] as const;
export type KeyBits = (typeof KEY_BITS)[number];

/** The body of the service's test delivery (a webhook registered or tested from its dashboard). */
export const TEST_DELIVERY = { evento: 'teste_webhook' } as const;

export interface WebhookOptions {
  /** The n-th retry comes `retryUnitMs`·2ⁿ after the previous attempt (the service's: 10,000). */
  retryUnitMs?: number;
  /** The size of the first signing key (default 2048). */
  keyBits?: KeyBits;
}

export class SandboxWebhooks {
  private keys: Promise<SigningKey[]>;
  private target: string | undefined;
  readonly deliveries: DeliveryAttempt[] = [];
  private readonly retryUnitMs: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(options: WebhookOptions = {}) {
    this.retryUnitMs = options.retryUnitMs ?? SERVICE_RETRY_UNIT_MS;
    // Generated off the main thread, so the sandbox's start does not wait for it.
    this.keys = newKey(options.keyBits).then((k) => [k]);
    this.keys.catch(() => undefined);
  }

  /** Where deliveries go (in sandbox mode, the bot's own receiver). */
  setTarget(url: string | undefined): void {
    this.target = url;
  }

  get targetUrl(): string | undefined {
    return this.target;
  }

  /** A new current key; the previous ones stay listed (and valid), as during the service's rotation. */
  async rotate(bits: KeyBits = 2048): Promise<void> {
    const key = await newKey(bits);
    const keys = await this.keys;
    this.keys = Promise.resolve([...keys, key]);
  }

  /** The body of `GET /api/v1/webhook/public-keys` (the contract's shape). */
  async publicKeys(): Promise<{ public_keys: Array<{ key_identifier: string; is_current: boolean; key: string }> }> {
    const keys = await this.keys;
    return { public_keys: keys.map((k, i) => ({ key_identifier: k.id, is_current: i === keys.length - 1, key: k.publicPem })) };
  }

  /** The signature header's value for these bytes, made with the current key. */
  async sign(body: Buffer | string): Promise<string> {
    const keys = await this.keys;
    return createSign('RSA-SHA256')
      .update(body)
      .sign(keys[keys.length - 1]!.privatePem, 'base64');
  }

  /** The current private key (PEM), for tests that sign events of their own as the service would. */
  async currentPrivateKey(): Promise<string> {
    const keys = await this.keys;
    return keys[keys.length - 1]!.privatePem;
  }

  /**
   * Sends an event to the target, signed, in the background; without a 2xx answer it is sent again,
   * up to 8 times. Nothing happens when no target is set. Resolves when it has been delivered or given
   * up (callers need not wait).
   */
  async deliver(event: Record<string, unknown>): Promise<void> {
    const url = this.target;
    if (!url) return;
    const body = Buffer.from(JSON.stringify(event));
    const signature = await this.sign(body);
    const name = String(event.event ?? '');
    for (let attempt = 0; attempt <= RETRIES && !this.closed; attempt++) {
      if (attempt > 0) await this.wait(this.retryUnitMs * 2 ** (attempt - 1));
      if (this.closed) return;
      const status = await post(url, body, signature, Math.min(SERVICE_ANSWER_TIMEOUT_MS, Math.max(1_000, this.retryUnitMs * 10)));
      this.deliveries.push({ event: name, attempt, status, at: Date.now() });
      if (this.deliveries.length > MAX_LOGGED) this.deliveries.splice(0, this.deliveries.length - MAX_LOGGED);
      if (status >= 200 && status < 300) return;
    }
  }

  /**
   * The service's test delivery, once and signed (no retry: the dashboard shows the answer): the
   * receiver's status, or 0 when there is no target or no answer.
   */
  async testDelivery(): Promise<number> {
    const url = this.target;
    if (!url) return 0;
    const body = Buffer.from(JSON.stringify(TEST_DELIVERY));
    const status = await post(url, body, await this.sign(body), Math.max(1_000, this.retryUnitMs * 10));
    this.deliveries.push({ event: TEST_DELIVERY.evento, attempt: 0, status, at: Date.now() });
    if (this.deliveries.length > MAX_LOGGED) this.deliveries.splice(0, this.deliveries.length - MAX_LOGGED);
    return status;
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      timer.unref();
      this.timers.add(timer);
    });
  }
}

async function newKey(bits: KeyBits = 2048): Promise<SigningKey> {
  const { privateKey, publicKey } = await generate('rsa', {
    modulusLength: bits,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { id: randomBytes(12).toString('hex'), privatePem: privateKey, publicPem: publicKey };
}

async function post(url: string, body: Buffer, signature: string, timeoutMs: number): Promise<number> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signature },
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  } catch {
    return 0;
  }
}

/** An end-to-end id as the central bank shapes them: `E`, the ISPB, the minute (UTC), 11 characters. */
export function endToEndId(now = new Date()): string {
  const minute = now.toISOString().slice(0, 16).replace(/\D/g, '');
  return `E54811417${minute}${randomBytes(8).toString('base64url').replace(/[-_]/g, 'x').slice(0, 11)}`;
}
