import { sweepBalanceAlerts } from '../src/digest/balance-alerts';
import { readDigestData } from '../src/digest/data';
import { SlackStandIn } from '../src/slack-standin/web-api';
import type { Store } from '../src/store';
import { digestMessage } from '../views/digest';
import { absoluteFigure, countFigure, infoFigure } from './judge';
import {
  benchmark,
  exposedGc,
  type Figure,
  inBatches,
  MiB,
  PIX_CALL_MS,
  RIG_START_MS,
  sandboxControl,
  startBotInProcess,
  startSandboxProcess,
  WAIT_MARGIN,
} from './lib';

const APPROVALS = 500;
const IN_REVIEW = 2_000;
const DISPUTES = 200;
const ACCOUNTS = 150;
const BUILDS = 10;
const BUILD_BOUND_MS = 200;
const RSS_BOUND_MIB = 16;
/** A sweep's Pix calls: one listing of the accounts (GET /api/v1/account, not paged), their balances in it. */
const SWEEP_CALLS = 1;
/** R$ 10.000,00: every new account (at R$ 0,00) is below it. */
const BELOW_CENTS = 1_000_000;

const hex = (kind: string, n: number) => `${kind}${n.toString(16).padStart(23, '0')}`;
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** What waits, written as the app's flows leave it: 500 approvals, 2,000 requests in review, 200 open disputes. */
async function seed(store: Store): Promise<void> {
  await inBatches(APPROVALS, 16, async (i) => {
    const id = hex('d', i);
    await store.approvals.create(
      {
        id,
        makerId: 'U0BENCH01',
        makerLocale: 'en',
        channel: 'C0BENCH',
        payload: { action: 'key-add', accountId: hex('a', i), pixKey: `bench-${i}@example.com`, type: 'EMAIL' },
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      },
      new Date(ago(10_000 - i)),
    );
    await store.approvals.update(id, (r) => ({ ...r, rootTs: `1700000000.${String(i).padStart(6, '0')}` }));
  });
  await inBatches(IN_REVIEW, 16, (i) =>
    store.trackedRequests.track({
      limitRequestId: hex('b', i),
      accountId: hex('c', i),
      requesterId: 'U0BENCH01',
      channel: 'C0BENCH',
      rootTs: `1700000001.${String(i).padStart(6, '0')}`,
      requested: { pixDayLimit: 10_000_000 },
      documents: [],
      source: 'filed',
      createdAt: ago(20_000 - i),
    }),
  );
  await inBatches(DISPUTES, 16, (i) =>
    store.pixEvents.saveDispute({
      endToEndId: `E${String(i).padStart(31, '0')}`,
      status: 'OPENED',
      value: 15_000 + i,
      channel: 'C0BENCH',
      closed: false,
      firstAt: ago(30_000 - i),
      updatedAt: ago(30_000 - i),
    }),
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * The digest for 500 approvals, 2,000 requests in review, 200 open disputes and 150 accounts: read
 * from the store (sqlite) and the sandbox (in its own process) and built, ten times, each timed; the
 * process's RSS after a full GC before the first and after the last. Then balance sweeps of the 150
 * accounts: the Pix calls each one makes.
 */
export const digest = benchmark(
  // The rig; the accounts made in the sandbox, a Pix call each at most its time limit, in batches of
  // 16; the builds at their bound; two sweeps at their bound of Pix calls. (Seeding the store is local
  // writes, within the builds' share.)
  WAIT_MARGIN * (RIG_START_MS + Math.ceil(ACCOUNTS / 16) * PIX_CALL_MS + BUILDS * BUILD_BOUND_MS + 2 * SWEEP_CALLS * PIX_CALL_MS),
  async (): Promise<Figure[]> => {
    const gc = exposedGc();
    const sandbox = await startSandboxProcess();
    const slack = await new SlackStandIn().start();
    const app = await startBotInProcess({
      SLACK_API_URL: slack.apiUrl,
      PIX_API_URL: sandbox.url,
      PIX_APP_ID: sandbox.main.mainAppId,
      PIX_EVENTS_CHANNEL: 'C0BENCH',
      BALANCE_ALERT_BELOW: '10000',
      DIGEST_CHANNEL: 'C0BENCH',
      PIX_RATE_LIMIT: '1000',
    });
    try {
      await seed(app.deps.store);
      await inBatches(ACCOUNTS - 1, 16, () =>
        fetch(`${sandbox.url}/api/v1/account`, { method: 'POST', headers: { authorization: sandbox.main.masterAppId } }),
      );
      const deps = { ...app.deps, pix: app.deps.pix.inLane('poller') };
      const build = async () => digestMessage('en', await readDigestData({ deps, pix: deps.pix, now: new Date() }, BELOW_CENTS));
      await build(); // warm: modules, ICU, prepared statements
      gc();
      const rssBefore = process.memoryUsage().rss;
      const ms: number[] = [];
      let viewMs = 0;
      let blocks = 0;
      for (let i = 0; i < BUILDS; i++) {
        const started = process.hrtime.bigint();
        const data = await readDigestData({ deps, pix: deps.pix, now: new Date() }, BELOW_CENTS);
        const viewStarted = process.hrtime.bigint();
        const message = digestMessage('en', data);
        const done = process.hrtime.bigint();
        ms.push(Number(done - started) / 1e6);
        viewMs = Math.max(viewMs, Number(done - viewStarted) / 1e6);
        blocks = message.blocks.length;
        if (!message.text.includes(`${IN_REVIEW} limit request`)) throw new Error(`unexpected digest: ${message.text}`);
      }
      gc();
      const rssGrowth = (process.memoryUsage().rss - rssBefore) / MiB;

      // Balance sweeps: the first records every account, the next finds no crossing; each one listing of the accounts.
      const settings = { belowCents: BELOW_CENTS, channel: 'C0BENCH' };
      const callsOf = async (run: () => Promise<unknown>) => {
        await sandboxControl(sandbox.url, '/sandbox/calls', undefined, 'DELETE');
        const started = process.hrtime.bigint();
        await run();
        const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
        const { calls } = (await (await fetch(`${sandbox.url}/sandbox/calls`)).json()) as { calls: unknown[] };
        return { calls: calls.length, ms: elapsed };
      };
      const first = await callsOf(() => sweepBalanceAlerts(deps, settings));
      const steady = await callsOf(() => sweepBalanceAlerts(deps, settings));
      const accounts = await deps.pix.listAccounts(sandbox.main.mainAppId);
      if (accounts.length < ACCOUNTS) throw new Error(`only ${accounts.length} accounts`);

      return [
        absoluteFigure({
          name: `digest built (${APPROVALS} approvals, ${IN_REVIEW} in review, ${DISPUTES} disputes, ${ACCOUNTS} accounts), median of ${BUILDS}`,
          value: median(ms),
          unit: 'ms',
          op: '≤',
          bound: BUILD_BOUND_MS,
        }),
        infoFigure('digest built, slowest', `${Math.max(...ms).toFixed(0)} ms`),
        infoFigure(`digest: the view alone (${blocks} blocks), slowest`, `${viewMs.toFixed(1)} ms`),
        absoluteFigure({
          name: `digest: RSS growth over ${BUILDS} builds`,
          value: rssGrowth,
          unit: 'MiB',
          op: '≤',
          bound: RSS_BOUND_MIB,
          digits: 1,
        }),
        countFigure({
          name: `balance sweep of ${accounts.length} accounts: Pix calls, the first sweep (it records every account)`,
          value: first.calls,
          op: '=',
          bound: SWEEP_CALLS,
        }),
        countFigure({
          name: `balance sweep of ${accounts.length} accounts: Pix calls, the next (no crossing)`,
          value: steady.calls,
          op: '=',
          bound: SWEEP_CALLS,
        }),
        infoFigure('balance sweep: time (first, steady)', `${first.ms.toFixed(0)} ms, ${steady.ms.toFixed(0)} ms`),
      ];
    } finally {
      await app.stopAll();
      await slack.close();
      await sandbox.stop();
    }
  },
);
