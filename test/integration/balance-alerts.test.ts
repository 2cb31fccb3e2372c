import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningApp } from '../../src/app';
import { sweepBalanceAlerts } from '../../src/digest/balance-alerts';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { BalanceMarks } from '../../src/store/balance-marks';
import { alertsIn, postsTo, setBalance, setWithdrawBlocked } from '../support/digest';
import { type Harness, harnessEnv, messageText, startHarness, startLoggedApp } from '../support/harness';
import { clearFaults, failPixApi } from '../support/interactions';
import { newAccount } from '../support/limit-requests';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';

const ALERTS = 'C0ALERTS1';
const EVENTS = 'C0EVENTS1';
/** R$ 10.000,00. */
const THRESHOLD = '10000';

describe('balance alerts, one instance (sqlite), driven by poll ticks', () => {
  let h: Harness;
  let account: string;
  const tick = () => h.app.poller.tick();
  const alerts = () => alertsIn(h.slack.messages, ALERTS);

  beforeAll(async () => {
    h = await startHarness({ DIGEST_CHANNEL: ALERTS, BALANCE_ALERT_BELOW: THRESHOLD });
    account = h.sandbox.companies.main.defaultAccountId;
  });
  afterAll(() => h.close());
  afterEach(() => clearFaults(h));

  test('lowered, raised and lowered again: one alert each time it goes below, none while it stays there or above', async () => {
    await setBalance(h.sandbox, account, 1_500_000);
    await tick(); // first sight: at or above, recorded
    expect(alerts()).toHaveLength(0);

    await setBalance(h.sandbox, account, 900_000);
    await tick();
    expect(alerts()).toHaveLength(1);
    const text = messageText(alerts()[0]);
    expect(text).toContain(
      `A conta \`${account}\` está com saldo baixo: o saldo disponível é *R$ 9.000,00*, abaixo do limite de alerta de R$ 10.000,00.`,
    );
    await tick();
    await setBalance(h.sandbox, account, 800_000);
    await tick();
    expect(alerts()).toHaveLength(1);

    await setBalance(h.sandbox, account, 1_000_000); // exactly the threshold: at or above
    await tick();
    await tick();
    expect(alerts()).toHaveLength(1);

    await setBalance(h.sandbox, account, 999_999);
    await tick();
    expect(alerts()).toHaveLength(2);
    expect(messageText(alerts()[1])).toContain('*R$ 9.999,99*');
    await setBalance(h.sandbox, account, 1_500_000);
    await tick();
    expect(alerts()).toHaveLength(2);
  });

  test('withdrawals blocked: one alert when it becomes blocked, again only after it was unblocked', async () => {
    const before = alerts().length;
    await setWithdrawBlocked(h.sandbox, account, true);
    await tick();
    await tick();
    expect(alerts()).toHaveLength(before + 1);
    expect(messageText(alerts().at(-1))).toContain(`Os saques da conta \`${account}\` agora estão *bloqueados*`);
    await setWithdrawBlocked(h.sandbox, account, false);
    await tick();
    await setWithdrawBlocked(h.sandbox, account, true);
    await tick();
    expect(alerts()).toHaveLength(before + 2);
    await setWithdrawBlocked(h.sandbox, account, false);
    await tick();
  });

  test('an account first seen already below (a new one, at R$ 0,00) is not alerted: no crossing was seen; once funded and drained, it is', async () => {
    const before = alerts().length;
    const fresh = await newAccount(h.sandbox);
    await tick();
    expect(alerts()).toHaveLength(before);
    await setBalance(h.sandbox, fresh, 2_000_000);
    await tick();
    await setBalance(h.sandbox, fresh, 10_000);
    await tick();
    expect(alerts()).toHaveLength(before + 1);
    expect(messageText(alerts().at(-1))).toContain(fresh);
  });

  test('150 accounts swept with one Pix call a tick', async () => {
    for (let n = (await h.app.deps.pix.listAccounts(h.sandbox.companies.main.mainAppId)).length; n < 150; n++) await newAccount(h.sandbox);
    await tick();
    const before = h.sandbox.calls.length;
    await tick();
    const calls = h.sandbox.calls.slice(before);
    expect(calls.filter((c) => c.path === '/api/v1/account')).toHaveLength(1);
    expect(calls.length).toBeLessThanOrEqual(2);
    expect((await h.app.deps.pix.listAccounts(h.sandbox.companies.main.mainAppId)).length).toBeGreaterThanOrEqual(150);
  });

  test('the Pix API failing: no alert and nothing recorded; the crossing is alerted once it answers again', async () => {
    const before = alerts().length;
    await setBalance(h.sandbox, account, 1_500_000);
    await tick();
    await setBalance(h.sandbox, account, 100);
    await failPixApi(h, 503, 100);
    await tick();
    expect(alerts()).toHaveLength(before);
    await clearFaults(h);
    await tick();
    expect(alerts()).toHaveLength(before + 1);
  });

  test('a post Slack fails without a refusal stays decided: the next tick looks for it, then posts it, once', async () => {
    const before = alerts().length;
    await setBalance(h.sandbox, account, 1_500_000);
    await tick();
    await setBalance(h.sandbox, account, 200);
    h.slack.on('chat.postMessage', () => ({ ok: false, error: 'internal_error' }));
    await tick();
    h.slack.off('chat.postMessage');
    expect(alerts()).toHaveLength(before);
    await tick();
    expect(alerts()).toHaveLength(before + 1);
    await tick();
    expect(alerts()).toHaveLength(before + 1);
    // Its answer lost after it was posted: found by its metadata, not posted twice.
    await setBalance(h.sandbox, account, 1_500_000);
    await tick();
    await setBalance(h.sandbox, account, 300);
    h.slack.loseAnswers('chat.postMessage', 1);
    await tick();
    await tick();
    expect(alerts()).toHaveLength(before + 2);
  });

  test('a run cut short after posting, before clearing its alert: the next tick finds the alert by its metadata and posts nothing more', async () => {
    await setBalance(h.sandbox, account, 700);
    await tick();
    const before = alerts().length;
    // As a crash leaves it: the crossing decided (the mark moved, its alert pending) and the alert posted.
    const marks = new BalanceMarks(h.app.deps.store.records);
    const seen = (await marks.get(account))!;
    const alert = { id: 'alert-cut-short', kind: 'below' as const, available: 700, threshold: 1_000_000, at: new Date().toISOString() };
    expect(await marks.move(account, seen, { ...seen, below: true, pending: [alert] })).toBe(true);
    h.slack.addMessage({
      channel: ALERTS,
      text: 'the alert posted before the crash',
      bot_id: 'B0BOT',
      user: 'U0BOT',
      metadata: { event_type: 'pix_balance_alert', event_payload: { alert_id: alert.id } },
    });
    const posts = postsTo(h.slack.calls, ALERTS).length;
    await tick();
    expect(postsTo(h.slack.calls, ALERTS).length).toBe(posts);
    expect(alerts()).toHaveLength(before + 1);
    expect((await marks.get(account))!.pending).toEqual([]);
    await setBalance(h.sandbox, account, 1_500_000);
    await tick();
  });

  test('a channel the bot is not in: said in the log once for the crossing, not tried again on every tick', async () => {
    await setBalance(h.sandbox, account, 1_500_000);
    await tick();
    h.slack.closedChannels.add(ALERTS);
    const posts = postsTo(h.slack.calls, ALERTS).length;
    await setBalance(h.sandbox, account, 400);
    for (let i = 0; i < 3; i++) await tick();
    expect(postsTo(h.slack.calls, ALERTS).length - posts).toBe(1);
    expect(h.logs.filter((l) => l.includes('a balance alert could not be posted'))).toHaveLength(1);
    h.slack.closedChannels.delete(ALERTS);
  });
});

describe('balance alerts go to PIX_EVENTS_CHANNEL when no DIGEST_CHANNEL is set; none without BALANCE_ALERT_BELOW', () => {
  let h: Harness | undefined;
  afterEach(() => h?.close());

  test('the events channel', async () => {
    h = await startHarness({ PIX_EVENTS_CHANNEL: EVENTS, BALANCE_ALERT_BELOW: THRESHOLD });
    const account = h.sandbox.companies.main.defaultAccountId;
    await h.app.poller.tick();
    await setBalance(h.sandbox, account, 5);
    await h.app.poller.tick();
    expect(alertsIn(h.slack.messages, EVENTS)).toHaveLength(1);
  });

  test('a threshold with neither channel: said at start, no sweep', async () => {
    h = await startHarness({ BALANCE_ALERT_BELOW: THRESHOLD });
    expect(h.logs.some((l) => l.includes('BALANCE_ALERT_BELOW is set but neither DIGEST_CHANNEL nor PIX_EVENTS_CHANNEL is'))).toBe(true);
    const before = h.sandbox.calls.length;
    await h.app.poller.tick();
    expect(h.sandbox.calls.slice(before).filter((c) => c.path === '/api/v1/account')).toEqual([]);
  });

  test('no threshold: no sweep, no alert', async () => {
    h = await startHarness({ DIGEST_CHANNEL: ALERTS });
    const account = h.sandbox.companies.main.defaultAccountId;
    await h.app.poller.tick();
    await setBalance(h.sandbox, account, 5);
    const before = h.sandbox.calls.length;
    await h.app.poller.tick();
    expect(h.sandbox.calls.slice(before).filter((c) => c.path === '/api/v1/account')).toEqual([]);
    expect(alertsIn(h.slack.messages, ALERTS)).toEqual([]);
  });
});

describe('balance alerts, two instances on one Redis (127.0.0.1:6379) sweeping at the same moment', () => {
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  let dataDir: string;
  const namespace = testNamespace('alerts');
  const apps: RunningApp[] = [];

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    sandbox = await startSandbox({ port: 0 });
    dataDir = mkdtempSync(path.join(tmpdir(), 'pix-ops-alerts-'));
    const env = harnessEnv(
      { slack, sandbox, dataDir },
      {
        STORE_URL: SHARED_REDIS_URL,
        STORE_SECRET: 'a'.repeat(40),
        STORE_NAMESPACE: namespace,
        DIGEST_CHANNEL: ALERTS,
        BALANCE_ALERT_BELOW: THRESHOLD,
        // The race is under test, not the budget: a hundred sweeps' listings at the default 5 calls a second took half a minute.
        PIX_RATE_LIMIT: '100',
      },
    );
    for (let i = 0; i < 2; i++) apps.push((await startLoggedApp(env)).app);
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.stop()));
    await deleteKeys(SHARED_REDIS_URL, namespace);
    await sandbox.close();
    await slack.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('lowered, raised, lowered again, blocked: each crossing alerted once, however many sweeps race', async () => {
    const account = sandbox.companies.main.defaultAccountId;
    // Each instance's tick, and three more sweeps of each at the same moment: eight sweeps racing for each crossing.
    const both = () =>
      Promise.all(
        apps.flatMap((a) => [
          a.poller.tick(),
          ...[1, 2, 3].map(() => sweepBalanceAlerts(a.deps, { belowCents: 1_000_000, channel: ALERTS })),
        ]),
      );
    const alerts = () => alertsIn(slack.messages, ALERTS);
    await both();
    for (let round = 1; round <= 3; round++) {
      await setBalance(sandbox, account, 50_000 * round);
      await both();
      await both();
      expect(alerts()).toHaveLength(round);
      await setBalance(sandbox, account, 2_000_000);
      await both();
    }
    await setWithdrawBlocked(sandbox, account, true);
    await both();
    await both();
    expect(alerts()).toHaveLength(4);
    expect(postsTo(slack.calls, ALERTS)).toHaveLength(4);
  }, 30_000);
});
