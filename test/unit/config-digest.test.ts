import { loadConfig } from '../../src/runtime/config';

const base = { SLACK_BOT_TOKEN: 'xoxb-1-abc', SLACK_SIGNING_SECRET: 'sig-secret-value' };

describe('the digest and balance alert variables', () => {
  test('defaults: no digest channel, weekdays at 09:00 São Paulo time, no alerts', () => {
    const r = loadConfig(base);
    expect(r.ok && r.config.digest).toEqual({ channel: undefined, schedule: '0 9 * * 1-5', timezone: 'America/Sao_Paulo' });
    expect(r.ok && r.config.balanceAlerts).toEqual({});
  });

  test('a channel ID (C… or G…), any schedule node-cron reads (six fields too), an amount in reais as APPROVAL_LIMIT_ABOVE takes it', () => {
    for (const [channel, schedule, below, cents] of [
      ['C0DIGEST', '30 8 * * *', '10000', 1_000_000],
      [' G0PRIVATE ', '*/3 * * * * *', '10.000,00', 1_000_000],
      ['C0123456789', '0 9 * * 1-5', 'R$ 1.234,5', 123_450],
    ] as const) {
      const r = loadConfig({ ...base, DIGEST_CHANNEL: channel, DIGEST_SCHEDULE: schedule, BALANCE_ALERT_BELOW: below });
      expect(r.ok && r.config.digest).toEqual({ channel: channel.trim(), schedule, timezone: 'America/Sao_Paulo' });
      expect(r.ok && r.config.balanceAlerts).toEqual({ belowCents: cents });
    }
  });

  test('bad values are refused at start, each naming its variable, the value never repeated', () => {
    const r = loadConfig({
      ...base,
      DIGEST_CHANNEL: '#finance-SECRET',
      DIGEST_SCHEDULE: 'every morning SECRET',
      BALANCE_ALERT_BELOW: 'low-SECRET',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      expect.stringMatching(/^DIGEST_CHANNEL: expected a Slack channel ID \(C… or G…/),
      expect.stringMatching(/^DIGEST_SCHEDULE: not a valid node-cron expression/),
      'BALANCE_ALERT_BELOW: expected an amount in reais such as 10000 or 10.000,00',
    ]);
    expect(r.problems.join('\n')).not.toMatch(/SECRET/);
    for (const value of ['U0USER', 'D0DM', 'finance', 'c0lower']) expect(loadConfig({ ...base, DIGEST_CHANNEL: value }).ok).toBe(false);
    for (const value of ['61 9 * * *', '0 9 * *', '0 25 * * 1-5', '* * * * * * *'])
      expect(loadConfig({ ...base, DIGEST_SCHEDULE: value }).ok).toBe(false);
    for (const value of ['-5', '1,234', '10.00.0', 'ten']) expect(loadConfig({ ...base, BALANCE_ALERT_BELOW: value }).ok).toBe(false);
  });
});
