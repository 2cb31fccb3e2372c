import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { loadConfig } from '../../src/runtime/config';

const base = { SLACK_BOT_TOKEN: 'xoxb-1-abc', SLACK_SIGNING_SECRET: 'sig-secret-value' };

describe('loadConfig', () => {
  test('defaults for everything optional', () => {
    const r = loadConfig(base);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config.slack.port).toBe(3000);
    expect(r.config.store.url).toBe('sqlite://data/pix-ops.sqlite');
    expect(r.config.poll).toEqual({ schedule: '* * * * *', concurrency: 8 });
    expect(r.config.access).toEqual({ viewer: [], operator: [], admin: [] });
    expect(r.config.sandboxMode).toBe(true);
    expect(r.config.slack.appToken).toBeUndefined();
  });

  test('access lists are split and trimmed; a six-field cron expression is allowed', () => {
    const r = loadConfig({ ...base, ACCESS_ADMINS: ' U123ABC , S0GROUP1,W999', POLL_SCHEDULE: '*/5 * * * * *' });
    expect(r.ok && r.config.access.admin).toEqual(['U123ABC', 'S0GROUP1', 'W999']);
    expect(r.ok && r.config.poll.schedule).toBe('*/5 * * * * *');
  });

  test('Socket Mode needs no signing secret; a Pix URL turns sandbox mode off', () => {
    const r = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_APP_TOKEN: 'xapp-1',
      PIX_API_URL: 'https://pix.acme.test/',
      PIX_APP_ID: 'app',
    });
    expect(r.ok).toBe(true);
    expect(r.ok && r.config.sandboxMode).toBe(false);
    expect(r.ok && r.config.pix.apiUrl).toBe('https://pix.acme.test');
  });

  test('every problem is listed at once, each naming its variable, and no value is echoed', () => {
    const secretish = 'not-a-token-SUPERSECRET';
    const r = loadConfig({
      SLACK_BOT_TOKEN: secretish,
      SLACK_APP_TOKEN: 'also-SUPERSECRET',
      PORT: 'eighty',
      SLACK_API_URL: 'https://slack.example/v2',
      PIX_API_URL: 'ftp://SUPERSECRET',
      STORE_URL: 'mongodb://SUPERSECRET',
      STORE_SECRET: 'short-SUPERSECRET',
      POLL_SCHEDULE: 'every SUPERSECRET minute',
      ACCESS_ADMINS: 'U123,bob-SUPERSECRET',
      LOG_LEVEL: 'loud',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const named = r.problems.map((p) => p.split(':')[0]);
    expect(named).toEqual(
      expect.arrayContaining([
        'SLACK_BOT_TOKEN',
        'SLACK_APP_TOKEN',
        'PORT',
        'SLACK_API_URL',
        'PIX_API_URL',
        'STORE_URL',
        'STORE_SECRET',
        'POLL_SCHEDULE',
        'ACCESS_ADMINS',
        'LOG_LEVEL',
      ]),
    );
    expect(r.problems.join('\n')).not.toMatch(/SUPERSECRET/);
  });

  test('HTTP mode without a signing secret, a Pix URL without an AppID, Redis without a store secret', () => {
    const r = loadConfig({ SLACK_BOT_TOKEN: 'xoxb-1', PIX_API_URL: 'http://127.0.0.1:9', STORE_URL: 'redis://127.0.0.1:6379' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => p.split(':')[0]).sort()).toEqual(['PIX_APP_ID', 'SLACK_SIGNING_SECRET', 'STORE_SECRET']);
  });

  test('a plain-http PIX_API_URL is refused unless it is loopback (AppIDs travel in every request)', () => {
    const env = { ...base, PIX_APP_ID: 'app' };
    for (const url of ['http://pix.acme.test', 'http://10.0.0.5:8080', 'http://[fd00::2]:4010', 'http://127.0.0.1.acme.test']) {
      const r = loadConfig({ ...env, PIX_API_URL: url });
      expect(r.ok).toBe(false);
      expect(!r.ok && r.problems).toEqual([expect.stringMatching(/^PIX_API_URL: expected an https URL/)]);
    }
    for (const url of [
      'https://pix.acme.test',
      'http://127.0.0.1:4010',
      'http://127.1.2.3',
      'http://localhost:4010',
      'http://[::1]:4010',
    ]) {
      const r = loadConfig({ ...env, PIX_API_URL: url });
      expect(r.ok && r.config.pix.apiUrl).toBe(url);
    }
  });

  test('the health port listens on 127.0.0.1 unless HEALTH_HOST says otherwise', () => {
    const r = loadConfig({ ...base, HEALTH_PORT: '8081' });
    expect(r.ok && r.config.health).toEqual({ port: 8081, host: '127.0.0.1' });
    const wide = loadConfig({ ...base, HEALTH_PORT: '8081', HEALTH_HOST: '0.0.0.0' });
    expect(wide.ok && wide.config.health).toEqual({ port: 8081, host: '0.0.0.0' });
    const bad = loadConfig({ ...base, HEALTH_HOST: 'not a host' });
    expect(!bad.ok && bad.problems).toEqual([expect.stringMatching(/^HEALTH_HOST: /)]);
  });

  test('a missing bot token is flagged so start-up can explain the set-up', () => {
    const r = loadConfig({});
    expect(r).toMatchObject({ ok: false, missingBotToken: true });
  });
});

describe('approval reminders and the limit requests’ threshold in the configuration', () => {
  test('APPROVAL_REMIND_AFTER: 4h by default, a duration, 0 for none', () => {
    for (const [value, ms] of [
      ['1h', 3_600_000],
      ['0', 0],
      ['30m', 1_800_000],
    ] as const) {
      const r = loadConfig({ ...base, APPROVAL_REMIND_AFTER: value });
      expect(r.ok && r.config.approvals.remindAfterMs).toBe(ms);
    }
  });

  test('APPROVAL_LIMIT_ABOVE: reais read by the money parser, `100000` and `100.000,00` alike; unset by default', () => {
    for (const value of ['100000', '100.000,00', '100.000', 'R$ 100.000,00', '100000,00']) {
      const r = loadConfig({ ...base, APPROVAL_LIMIT_ABOVE: value });
      expect(r.ok && r.config.approvals.limitAboveCents).toBe(10_000_000);
    }
    const r = loadConfig({ ...base, APPROVAL_LIMIT_ABOVE: '1.234,5' });
    expect(r.ok && r.config.approvals.limitAboveCents).toBe(123_450);
    const none = loadConfig(base);
    expect(none.ok && 'limitAboveCents' in none.config.approvals).toBe(false);
  });

  test('bad values are refused at start, naming the variable, without echoing the value', () => {
    const r = loadConfig({ ...base, APPROVAL_REMIND_AFTER: 'soon-SUPERSECRET', APPROVAL_LIMIT_ABOVE: 'lots-SUPERSECRET' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      'APPROVAL_REMIND_AFTER: expected a duration such as 30m, 4h or 1d, or 0 for no reminders',
      'APPROVAL_LIMIT_ABOVE: expected an amount in reais such as 100000 or 100.000,00',
    ]);
    expect(r.problems.join('\n')).not.toMatch(/SUPERSECRET/);
    for (const value of ['-5', '1,234', '100.00.0', '12,345']) expect(loadConfig({ ...base, APPROVAL_LIMIT_ABOVE: value }).ok).toBe(false);
  });
});

describe('four-eyes approvals in the configuration', () => {
  test('off by default: no action waits, anyone with the role approves, a pending action waits 24h', () => {
    const r = loadConfig(base);
    expect(r.ok && r.config.approvals).toEqual({
      actions: [],
      approvers: [],
      ttlMs: 24 * 3_600_000,
      remindAfterMs: 4 * 3_600_000,
      quorumActions: [],
      escalation: [],
    });
  });

  test('APPROVALS names actions (trimmed, once each); ACCESS_APPROVERS takes users and groups; APPROVAL_TTL a duration', () => {
    const r = loadConfig({
      ...base,
      APPROVALS: ' key-add, limit-request,key-add ',
      ACCESS_APPROVERS: 'U0CHECK1, S0CHECKERS',
      APPROVAL_TTL: '30m',
    });
    expect(r.ok && r.config.approvals).toEqual({
      actions: ['key-add', 'limit-request'],
      approvers: ['U0CHECK1', 'S0CHECKERS'],
      ttlMs: 30 * 60_000,
      remindAfterMs: 4 * 3_600_000,
      quorumActions: [],
      escalation: [],
    });
    for (const [ttl, ms] of [
      ['2d', 2 * 86_400_000],
      ['24h', 86_400_000],
      ['45s', 45_000],
    ] as const) {
      const t = loadConfig({ ...base, APPROVAL_TTL: ttl });
      expect(t.ok && t.config.approvals.ttlMs).toBe(ms);
    }
  });

  test('an unknown action, a bad approver id or a bad duration is refused at start, naming the variable, without echoing the value', () => {
    const r = loadConfig({
      ...base,
      APPROVALS: 'key-add,pay-SUPERSECRET',
      ACCESS_APPROVERS: 'bob-SUPERSECRET',
      APPROVAL_TTL: 'SUPERSECRET',
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      expect.stringMatching(
        /^APPROVALS: entry 2 expected one of limit-request, key-add, key-delete, withdraw-key, account-create, rotate-secret, pay, withdraw$/,
      ),
      expect.stringMatching(/^ACCESS_APPROVERS: entry 1 /),
      'APPROVAL_TTL: expected a duration such as 30m, 24h or 2d',
    ]);
    expect(r.problems.join('\n')).not.toMatch(/SUPERSECRET/);
    for (const ttl of ['0h', '1w', '-1h', '91d']) expect(loadConfig({ ...base, APPROVAL_TTL: ttl }).ok).toBe(false);
  });
});

describe('first run: what a new user leaves or copies by mistake is refused with a hint', () => {
  const envExample = readFileSync(path.resolve(__dirname, '../../.env.example'), 'utf8');

  test('.env.example copied as it is: its token placeholders are refused, each saying where the real one is', () => {
    const r = loadConfig(parseDotenv(envExample));
    expect(r).toMatchObject({ ok: false, missingBotToken: false }); // a placeholder is a token: no playground
    if (r.ok) return;
    expect(r.problems).toEqual([
      expect.stringMatching(/^SLACK_BOT_TOKEN: still a placeholder .*OAuth & Permissions/),
      expect.stringMatching(/^SLACK_APP_TOKEN: still a placeholder .*App-Level Tokens.*connections:write/),
    ]);
  });

  test('its commented example lines, uncommented unchanged, are refused too (the example Pix address)', () => {
    const uncommented = envExample.replace(/^# ?([A-Z_]+=)/gm, '$1');
    const r = loadConfig({
      ...parseDotenv(uncommented),
      SLACK_BOT_TOKEN: 'xoxb-1-abc',
      SLACK_APP_TOKEN: 'xapp-1-abc',
      PIX_APP_ID: 'app-id-1',
    });
    expect(!r.ok && r.problems).toEqual([
      expect.stringMatching(/^PIX_API_URL: still an example address .*leave it unset for the built-in sandbox/),
    ]);
  });

  test.each([
    ['SLACK_BOT_TOKEN', 'xoxb-…'],
    ['SLACK_BOT_TOKEN', 'xoxb-xxxx-xxxx'],
    ['SLACK_BOT_TOKEN', 'xoxb-<your-bot-token>'],
    ['SLACK_APP_TOKEN', 'xapp-...'],
    ['SLACK_SIGNING_SECRET', '…'],
    ['SLACK_SIGNING_SECRET', '<signing secret>'],
    ['PIX_APP_ID', 'your-app-id'],
    ['PIX_MASTER_APP_ID', 'CHANGEME'],
    ['STORE_SECRET', 'replace-me-with-32-characters-or-more'],
    ['PIX_API_URL', 'https://api.pix.example.com'],
  ])('%s=%s is a placeholder', (variable, value) => {
    const r = loadConfig({ ...base, PIX_APP_ID: 'app-id-1', PIX_API_URL: 'https://pix.acme.test', [variable]: value });
    expect(!r.ok && r.problems).toEqual([expect.stringMatching(new RegExp(`^${variable}: still (a placeholder|an example address)`))]);
  });

  test('real-looking values are not mistaken for placeholders', () => {
    const r = loadConfig({
      SLACK_BOT_TOKEN: 'xoxb-start-test-token',
      SLACK_APP_TOKEN: 'xapp-1-A0B1C2-0123456789',
      PIX_API_URL: 'https://api.pix-service.com.br',
      PIX_APP_ID: 'Q2xpZW50X0lkXzEyMzQ=',
      STORE_SECRET: 'x'.repeat(40),
    });
    expect(r.ok).toBe(true);
  });

  test("the set-up help's ACCESS_ADMINS=U… is told where a member ID is found", () => {
    const r = loadConfig({ ...base, ACCESS_ADMINS: 'U…' });
    expect(!r.ok && r.problems).toEqual([
      expect.stringMatching(/^ACCESS_ADMINS: entry 1 expected Slack user IDs .*Copy member ID; \/pix help shows yours\)$/),
    ]);
  });

  test('a bad POLL_SCHEDULE is told what a good one looks like', () => {
    const r = loadConfig({ ...base, POLL_SCHEDULE: 'every minute' });
    expect(!r.ok && r.problems).toEqual([expect.stringMatching(/^POLL_SCHEDULE: .*e\.g\. \*\/5 \* \* \* \* .*six with seconds first/)]);
    for (const example of ['*/5 * * * *', '*/30 * * * * *']) expect(loadConfig({ ...base, POLL_SCHEDULE: example }).ok).toBe(true);
  });

  test('rediss:// (Redis over TLS) is accepted like redis://, and the STORE_URL hint names both; an unparsable Redis URL is refused at start', () => {
    const url = 'rediss://:pass-SUPERSECRET@redis.acme.test:6380';
    const r = loadConfig({ ...base, STORE_URL: url, STORE_SECRET: 's'.repeat(32) });
    expect(r.ok && r.config.store.url).toBe(url);
    expect(loadConfig({ ...base, STORE_URL: url }).ok).toBe(false); // a store secret is required, as for redis://
    const bad = loadConfig({ ...base, STORE_URL: 'mongodb://db', STORE_SECRET: 's'.repeat(32) });
    expect(!bad.ok && bad.problems).toEqual([
      expect.stringMatching(/^STORE_URL: expected sqlite:\/\/PATH, postgres:\/\/USER.*, redis:\/\/HOST:PORT or rediss:\/\/HOST:PORT/),
    ]);
    const unparsable = loadConfig({ ...base, STORE_URL: 'redis://:::SUPERSECRET', STORE_SECRET: 's'.repeat(32) });
    expect(!unparsable.ok && unparsable.problems).toEqual([expect.stringMatching(/^STORE_URL: expected redis:\/\/HOST:PORT/)]);
    expect(!unparsable.ok && unparsable.problems.join('\n')).not.toContain('SUPERSECRET');
  });

  test('postgres:// and postgresql:// (password optional, sslmode kept) with STORE_SECRET; the pool and the time limit have defaults', () => {
    for (const url of [
      'postgres://pixops@db.acme.test/pixops',
      'postgresql://pixops:pw-SUPERSECRET@db.acme.test:5433/pixops?sslmode=require',
    ]) {
      const r = loadConfig({ ...base, STORE_URL: url, STORE_SECRET: 's'.repeat(32) });
      expect(r.ok && r.config.store).toEqual({ url, secret: 's'.repeat(32), namespace: 'pix-ops', poolMax: 10, timeoutMs: 2000 });
      const secretless = loadConfig({ ...base, STORE_URL: url });
      expect(!secretless.ok && secretless.problems).toEqual(['STORE_SECRET: required when STORE_URL is postgres:// or postgresql://']);
    }
    const tuned = loadConfig({
      ...base,
      STORE_URL: 'postgres://db/x',
      STORE_SECRET: 's'.repeat(32),
      STORE_POOL_MAX: '3',
      STORE_TIMEOUT_MS: '500',
    });
    expect(tuned.ok && [tuned.config.store.poolMax, tuned.config.store.timeoutMs]).toEqual([3, 500]);
    const bad = loadConfig({
      ...base,
      STORE_URL: 'postgres://db.acme.test',
      STORE_SECRET: 's'.repeat(32),
      STORE_NAMESPACE: 'n'.repeat(64),
      STORE_POOL_MAX: '0',
      STORE_TIMEOUT_MS: 'soon',
    });
    expect(!bad.ok && bad.problems.map((p) => p.split(':')[0])).toEqual([
      'STORE_URL',
      'STORE_NAMESPACE',
      'STORE_POOL_MAX',
      'STORE_TIMEOUT_MS',
    ]);
  });

  test('STORE_NAMESPACE names one store on every backend: at most 63 bytes (a longer one would share a Postgres schema), never ending in -intents', () => {
    for (const url of [undefined, 'redis://127.0.0.1:6379', 'postgres://db/x']) {
      const store = { ...(url ? { STORE_URL: url } : {}), STORE_SECRET: 's'.repeat(32) };
      const long = loadConfig({ ...base, ...store, STORE_NAMESPACE: 'n'.repeat(64) });
      expect(!long.ok && long.problems).toEqual(['STORE_NAMESPACE: at most 63 characters (the longest name Postgres keeps whole)']);
      const intents = loadConfig({ ...base, ...store, STORE_NAMESPACE: 'pix_ops-intents' });
      expect(!intents.ok && intents.problems).toEqual([
        'STORE_NAMESPACE: must not end in -intents (the namespace without it keeps its filing intents there)',
      ]);
      const fine = loadConfig({ ...base, ...store, STORE_NAMESPACE: 'n'.repeat(63) });
      expect(fine.ok && fine.config.store.namespace).toBe('n'.repeat(63));
    }
  });
});

describe('two checkers and escalation in the configuration', () => {
  const on = { ...base, APPROVALS: 'limit-request,key-delete' };

  test('each off until set; APPROVAL_QUORUM_ABOVE in reais as APPROVAL_LIMIT_ABOVE takes them, actions once each, escalation a duration with its list', () => {
    const off = loadConfig(on);
    expect(off.ok && off.config.approvals).toMatchObject({ quorumActions: [], escalation: [] });
    expect(off.ok && off.config.approvals.quorumAboveCents).toBeUndefined();
    expect(off.ok && off.config.approvals.escalateAfterMs).toBeUndefined();
    for (const amount of ['50000', '50.000,00', '50.000']) {
      const r = loadConfig({ ...on, APPROVAL_QUORUM_ABOVE: amount });
      expect(r.ok && r.config.approvals.quorumAboveCents).toBe(5_000_000);
    }
    const r = loadConfig({
      ...on,
      APPROVAL_QUORUM_ACTIONS: ' key-delete ,key-delete',
      APPROVAL_ESCALATE_AFTER: '2h',
      ACCESS_ESCALATION: 'U0MANAGER, S0HEADS',
    });
    expect(r.ok && r.config.approvals).toMatchObject({
      quorumActions: ['key-delete'],
      escalateAfterMs: 2 * 3_600_000,
      escalation: ['U0MANAGER', 'S0HEADS'],
    });
  });

  test('money out: APPROVAL_QUORUM_ACTIONS may name pay and withdraw without APPROVALS (they always wait); PAY_DAY_LIMIT in reais, unset by default', () => {
    const r = loadConfig({ ...base, APPROVAL_QUORUM_ACTIONS: 'pay,withdraw', PAY_DAY_LIMIT: '50.000,00' });
    expect(r.ok && r.config.approvals).toMatchObject({ actions: [], quorumActions: ['pay', 'withdraw'], payDayLimitCents: 5_000_000 });
    const off = loadConfig(base);
    expect(off.ok && off.config.approvals.payDayLimitCents).toBeUndefined();
    const bad = loadConfig({ ...base, PAY_DAY_LIMIT: 'much-SUPERSECRET' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problems).toEqual([expect.stringMatching(/^PAY_DAY_LIMIT: expected an amount in reais/)]);
    expect(!bad.ok && bad.problems.join('\n')).not.toMatch(/SUPERSECRET/);
  });

  test.each([
    [{ APPROVAL_QUORUM_ACTIONS: 'limit-request,key-add' }, ['APPROVAL_QUORUM_ACTIONS: entry 2 is not in APPROVALS']],
    [{ APPROVAL_QUORUM_ACTIONS: 'pay-SUPERSECRET' }, ['APPROVAL_QUORUM_ACTIONS: entry 1 expected one of']],
    [{ APPROVAL_QUORUM_ABOVE: 'lots-SUPERSECRET' }, ['APPROVAL_QUORUM_ABOVE: expected an amount in reais']],
    [{ APPROVAL_QUORUM_ABOVE: '-5' }, ['APPROVAL_QUORUM_ABOVE: expected an amount in reais']],
    [{ APPROVAL_ESCALATE_AFTER: '24h', ACCESS_ESCALATION: 'U0MANAGER' }, ['APPROVAL_ESCALATE_AFTER: must be shorter than APPROVAL_TTL']],
    [
      { APPROVAL_ESCALATE_AFTER: '3h', APPROVAL_TTL: '2h', ACCESS_ESCALATION: 'U0MANAGER' },
      ['APPROVAL_ESCALATE_AFTER: must be shorter than APPROVAL_TTL'],
    ],
    [{ APPROVAL_ESCALATE_AFTER: 'soon-SUPERSECRET', ACCESS_ESCALATION: 'U0MANAGER' }, ['APPROVAL_ESCALATE_AFTER: expected a duration']],
    [{ APPROVAL_ESCALATE_AFTER: '2h' }, ['ACCESS_ESCALATION: required when APPROVAL_ESCALATE_AFTER is set']],
    [{ ACCESS_ESCALATION: 'U0MANAGER' }, ['APPROVAL_ESCALATE_AFTER: required when ACCESS_ESCALATION is set']],
    [
      { APPROVAL_ESCALATE_AFTER: '2h', ACCESS_ESCALATION: 'U0MANAGER,boss-SUPERSECRET' },
      ['ACCESS_ESCALATION: entry 2 expected Slack user IDs'],
    ],
  ])('refused at start, naming the variable, without echoing the value: %j', (env, expected) => {
    const r = loadConfig({ ...on, ...env });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toHaveLength(expected.length);
    expect(r.problems.map((problem, i) => problem.slice(0, expected[i]?.length))).toEqual(expected);
    expect(r.problems.join('\n')).not.toMatch(/SUPERSECRET/);
  });
});
