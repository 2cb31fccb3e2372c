import { createHmac } from 'node:crypto';

/** Headers exactly as Slack signs a request: v0=HMAC-SHA256(secret, `v0:${timestamp}:${body}`). */
export function slackSignatureHeaders(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)) {
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': signature };
}
