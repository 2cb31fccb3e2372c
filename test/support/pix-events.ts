import { createSign, generateKeyPairSync } from 'node:crypto';
import type { StoredMessage } from '../../src/slack-standin/web-api';
import type { Harness } from './harness';

/** A key the service never listed: what a forger signs with. */
export const FOREIGN_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/** base64(RSA-SHA256(body)), as the service signs a webhook. */
export function signWith(privatePem: string, body: string | Buffer): string {
  return createSign('RSA-SHA256').update(body).sign(privatePem, 'base64');
}

export function receiverUrl(h: Harness, path = '/pix/webhooks'): string {
  return `http://127.0.0.1:${h.app.pixEvents?.port ?? h.app.port}${path}`;
}

/** POSTs these bytes to the bot's receiver with this signature header (none when undefined). */
export async function sendWebhook(
  url: string,
  body: string | Buffer,
  signature: string | undefined,
): Promise<{ status: number; text: string; ms: number }> {
  const started = Date.now();
  const res = await fetch(url, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...(signature !== undefined ? { 'x-webhook-signature': signature } : {}) },
  });
  return { status: res.status, text: await res.text(), ms: Date.now() - started };
}

/** Signs with the sandbox's current key (the service's) and sends. */
export async function sendSigned(h: Harness, body: string): Promise<{ status: number; text: string }> {
  return sendWebhook(receiverUrl(h), body, signWith(await h.sandbox.webhooks.currentPrivateKey(), body));
}

let n = 0;
/** A fresh end-to-end id. */
export const e2e = () => `E54811417202611251200${String(++n).padStart(4, '0')}${Math.random().toString(36).slice(2, 9)}`;

export function disputeBody(kind: string, endToEndId: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    event: `OPENPIX:${kind}`,
    dispute: {
      status: kind === 'DISPUTE_CREATED' ? 'OPENED' : kind.replace('DISPUTE_', ''),
      endToEndId,
      name: 'Seu Jorge',
      email: 'seu.jorge@example.com.br',
      phoneNumber: '+5519989673846',
      taxID: '39053344705',
      value: 123456,
      disputeReason: 'Golpe',
      ...extra,
    },
  });
}

/** The bot's top-level messages in the channel with `pix_dispute` metadata for this dispute. */
export function rootsOf(h: Harness, channel: string, endToEndId: string): StoredMessage[] {
  return h.slack.messages.filter(
    (m) =>
      m.channel === channel &&
      m.thread_ts === undefined &&
      m.metadata?.event_type === 'pix_dispute' &&
      m.metadata.event_payload.end_to_end_id === endToEndId,
  );
}

/** Replies in a root's thread (the root excluded). */
export function repliesOf(h: Harness, root: StoredMessage): StoredMessage[] {
  return h.slack.messages.filter((m) => m.channel === root.channel && m.thread_ts === root.ts && m.ts !== root.ts);
}
