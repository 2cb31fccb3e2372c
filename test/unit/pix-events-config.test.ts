import { loadConfig } from '../../src/runtime/config';

const base = { SLACK_BOT_TOKEN: 'xoxb-1-abc', SLACK_SIGNING_SECRET: 'sig-secret-value' };

describe('the Pix events variables', () => {
  test('defaults: no receiver, /pix/webhooks, DISPUTE_*', () => {
    const r = loadConfig(base);
    expect(r.ok && r.config.pixEvents).toEqual({ channel: undefined, webhookPath: '/pix/webhooks', kinds: ['DISPUTE_*'] });
  });

  test('a channel turns it on; kinds are split, trimmed and upper-cased', () => {
    const r = loadConfig({
      ...base,
      PIX_EVENTS_CHANNEL: 'C0EVENTS',
      PIX_WEBHOOK_PATH: '/hooks/pix',
      PIX_EVENTS: ' dispute_* , CHARGE_COMPLETED',
    });
    expect(r.ok && r.config.pixEvents).toEqual({
      channel: 'C0EVENTS',
      webhookPath: '/hooks/pix',
      kinds: ['DISPUTE_*', 'CHARGE_COMPLETED'],
    });
  });

  test('every problem named by its variable, the value never repeated', () => {
    const r = loadConfig({
      ...base,
      PIX_EVENTS_CHANNEL: 'finance-secret',
      PIX_WEBHOOK_PATH: '/slack/events',
      PIX_EVENTS: 'DISPUTE_*,CH*ARGE',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      'PIX_EVENTS_CHANNEL: expected a Slack channel ID (C…, G…)',
      'PIX_WEBHOOK_PATH: must not be /slack/events or /healthz',
      'PIX_EVENTS: entry 2 expected event kinds such as DISPUTE_* or CHARGE_COMPLETED (* only at the end)',
    ]);
    expect(r.problems.join('\n')).not.toContain('finance-secret');
    const bad = loadConfig({ ...base, PIX_WEBHOOK_PATH: 'no-slash' });
    expect(!bad.ok && bad.problems).toEqual(['PIX_WEBHOOK_PATH: expected a path starting with / (letters, digits, . _ ~ - /)']);
  });
});
