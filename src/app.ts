import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App as BoltApp } from '@slack/bolt';
import { APPROVAL_KINDS, ENTRY_TABLE } from '../commands';
import { AccessControl } from './access';
import { runApprovalTick } from './approvals/tick';
import { AppAudit } from './audit/recorder';
import type { Deps } from './deps';
import { sweepBalanceAlerts } from './digest/balance-alerts';
import { type ScheduledDigest, startScheduledDigest } from './digest/scheduled';
import { ALWAYS_APPROVED, APPROVAL_CLAIM_MAX_MS } from './domain/approvals';
import { DEDUPE_WAIT_MS, deliveryMiddleware, InFlight } from './entry/delivery';
import { EntryRouter } from './entry/router';
import { ConfigError, describeError } from './errors';
import { settleLeftFilings } from './limit-requests/reconcile';
import { paceBudgetMs, type SweepReport, sweepLimitRequests } from './limit-requests/sweep';
import { KeyChecks } from './payments/key-check';
import { sweepPaymentEnds } from './payments/sweep';
import { MemoryRateWindow, PixBudget } from './pix/budget';
import { PixClient } from './pix/client';
import type { PixEvents } from './pix-events';
import { type Poller, startPoller, type TickScope } from './poller';
import type { Config } from './runtime/config';
import { withDeadline } from './runtime/deadline';
import { type DrainGate, drainGate } from './runtime/drain-gate';
import { HEALTH_PATH, HealthCheck, type HealthServer, Readiness, startHealthServer } from './runtime/health';
import { createLogger, type Logger, SecretRegistry } from './runtime/logger';
import { createMetrics, disabledMetrics } from './runtime/metrics';
import type { SandboxHandle } from './sandbox';
import { createBoltApp, refuseBoltListeners } from './slack/bolt-app';
import { boltLogger } from './slack/bolt-logger';
import { slackClientOptions, slackClients } from './slack/clients';
import { SlackPacer } from './slack/pacing';
import { openStore, StoreLocationError, StoreRefusedError, StoreUnavailableError, storeKindOf } from './store';

export interface RunningApp {
  /** The HTTP port in HTTP mode (useful with PORT=0). */
  port?: number;
  /** The port of the separate health server (HEALTH_PORT), when there is one. */
  healthPort?: number;
  /** The address it listens on (HEALTH_HOST). */
  healthAddress?: string;
  sandbox?: SandboxHandle;
  deps: Deps;
  /** The Pix events receiver and outbox, when PIX_EVENTS_CHANNEL is set. */
  pixEvents?: PixEvents;
  poller: Poller<SweepReport>;
  /** The morning digest on its schedule, when DIGEST_CHANNEL is set. */
  digest?: ScheduledDigest;
  /** The Slack deliveries being handled. */
  inFlight: InFlight;
  stop(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  secrets?: SecretRegistry;
  /** Prefix of every store key (several deployments or test runs on one Redis); default STORE_NAMESPACE. */
  storeNamespace?: string;
  /** False: record nothing (only the benchmark's baseline, to measure what the audit trail costs). */
  auditTrail?: boolean;
  /** False: count nothing, no /metrics (only the benchmark's baseline, to measure what metrics cost). */
  metrics?: boolean;
  /**
   * Only for tests: Bolt's App, just before its registration methods are refused, to register a
   * listener the Bolt way (which no delivery must ever reach).
   */
  beforeSealing?: (app: BoltApp) => void;
}

/** At most one log line this often about the shared Pix budget being unreachable (the shared store down). */
const BUDGET_WARN_EVERY_MS = 30_000;

/** What a stop may spend waiting for in-flight work, so the process exits within main.ts's 10 s. */
export const STOP_DRAIN_MS = 7_000;

/** What a start opened so far, each with its closing: undone in reverse when a later step fails. */
type Opened = Array<() => Promise<unknown>>;

/**
 * Config → (sandbox when no PIX_API_URL) → store → Bolt app → serve. A step that fails (a port taken,
 * the Pix events' listener) closes what the steps before it opened, so that an embedder that catches
 * the failure (a test, the playground) is left nothing open.
 */
export async function startPixOps(config: Config, options: StartOptions = {}): Promise<RunningApp> {
  const opened: Opened = [];
  try {
    return await start(config, options, opened);
  } catch (err) {
    for (const close of opened.reverse()) await close().catch(() => undefined);
    throw err;
  }
}

async function start(config: Config, options: StartOptions, opened: Opened): Promise<RunningApp> {
  const secrets = options.secrets ?? new SecretRegistry();
  for (const value of [
    config.slack.botToken,
    config.slack.appToken,
    config.slack.signingSecret,
    config.pix.appId,
    config.pix.masterAppId,
    config.store.secret,
    ...storePassword(config.store.url),
  ]) {
    secrets.add(value);
  }
  const logger = options.logger ?? createLogger({ level: config.logLevel, secrets });

  let sandbox: SandboxHandle | undefined;
  let pixUrl = config.pix.apiUrl;
  let mainAppId = config.pix.appId;
  let masterAppId = config.pix.masterAppId;
  if (config.sandboxMode) {
    // Loaded only in sandbox mode (start-up time). `require`: this is CommonJS.
    const { DEFAULT_SEED, startSandbox } = require('./sandbox') as typeof import('./sandbox');
    const started = await startSandbox({ port: 0, seed: DEFAULT_SEED });
    opened.push(() => started.close());
    sandbox = started;
    pixUrl = sandbox.url;
    mainAppId ??= sandbox.companies.main.mainAppId;
    // The sandbox's own MASTER application, so that account creation works out of the box.
    masterAppId ??= sandbox.companies.main.masterAppId;
    secrets.add(mainAppId);
    secrets.add(masterAppId);
    logger.warn({ pixApiUrl: pixUrl }, 'SANDBOX mode: no PIX_API_URL, using the built-in sandbox Pix API');
  }
  if (!pixUrl || !mainAppId) throw new ConfigError('PIX_API_URL and PIX_APP_ID are required outside sandbox mode');

  const storeKind = storeKindOf(config.store.url);
  const store = await openStore({
    url: config.store.url,
    secret: config.store.secret,
    namespace: options.storeNamespace ?? config.store.namespace,
    poolMax: config.store.poolMax,
    commandTimeoutMs: config.store.timeoutMs,
    onSecret: (v) => secrets.add(v),
    onWarning: (warning) => logger.warn({ store: storeKind }, warning),
    events: {
      onDown: (reason) =>
        logger.warn(
          { store: storeKind, reason },
          'the store is unavailable: actions that need it are answered with a clear message until it is back',
        ),
      onUp: () => logger.info({ store: storeKind }, 'the store is back'),
    },
  }).catch((err: unknown) => {
    // A path that cannot hold the sqlite file, a schema or a Redis that must not be used: say which variable to look at.
    throw err instanceof StoreLocationError || err instanceof StoreRefusedError ? new ConfigError(`STORE_URL: ${err.message}`) : err;
  });
  opened.push(() => store.close());
  // Counted only where they can be read (/metrics is served on the health listener alone): without one,
  // start-up does not pay for prom-client.
  const counting = options.metrics !== false && config.health.port !== undefined;
  const metrics = counting ? createMetrics() : disabledMetrics();
  // One budget for every Pix call of this instance, counted with the other instances on a shared store
  // (Redis, Postgres); while it is down or does not answer, counted in this process so that the Pix API
  // stays usable (and no call waits on the store for long: pix/budget.ts).
  let budgetWarnedAt = 0;
  const budget = new PixBudget({
    limit: config.pix.rateLimit,
    window: store.rateWindow ?? new MemoryRateWindow(),
    ...(store.rateWindow ? { fallback: new MemoryRateWindow() } : {}),
    onWindowError: (err) => {
      if (Date.now() - budgetWarnedAt < BUDGET_WARN_EVERY_MS) return;
      budgetWarnedAt = Date.now();
      logger.warn({ ...describeError(err) }, 'the shared Pix budget is unreachable: this instance counts its own calls meanwhile');
    },
  });
  const pix = new PixClient({
    baseUrl: pixUrl,
    timeoutMs: config.pix.timeoutMs,
    budget,
    // Nothing is written to the Pix API while the store cannot record what was done.
    beforeWrite: async () => {
      if (!(await store.ping())) throw new StoreUnavailableError('a Pix write', 'the store does not answer');
    },
    // Not the path or what the call is about: they may hold a Pix key, personal data.
    onCall: (e) => {
      logger.debug({ pix: { operation: e.operation, status: e.status, ms: e.ms, attempt: e.attempt } }, 'Pix API call');
      metrics.pixRequest(e.route ?? 'other', e.status, e.ms / 1000);
      if (e.status === 429) metrics.pixRateLimited();
    },
  });

  const mode = config.slack.appToken ? ('socket' as const) : ('http' as const);
  const health = new HealthCheck({ ping: () => store.ping(), pixBaseUrl: pixUrl, mainAppId, mode, sandbox: config.sandboxMode, budget });
  // Nothing counted, no counting fetch: every Slack call would pay for it.
  const slackOptions = slackClientOptions({ slackApiUrl: config.slack.apiUrl, ...(counting ? { metrics } : {}) });
  let slackUp = false;
  const readiness = new Readiness(health, () => slackUp);

  // The webhook receiver's handler is known once the deps are (below); Bolt takes its route now.
  let webhookRoute: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const pixEventsRoutes =
    mode === 'http' && config.pixEvents.channel
      ? [
          {
            path: config.pixEvents.webhookPath,
            method: ['POST'],
            handler: (req: IncomingMessage, res: ServerResponse) => webhookRoute!(req, res),
          },
        ]
      : [];

  const { app, socket } = createBoltApp({
    botToken: config.slack.botToken,
    appToken: config.slack.appToken,
    signingSecret: config.slack.signingSecret,
    clientOptions: slackOptions,
    logger: boltLogger(logger),
    // HTTP mode: /healthz on the same port. (Socket Mode would open a server on a port of Bolt's
    // choosing for custom routes; it gets HEALTH_PORT instead, below.)
    customRoutes: [{ path: HEALTH_PATH, method: ['GET', 'HEAD'], handler: health.handle }, ...pixEventsRoutes],
  });

  // Every way to reach Slack, from here on: Bolt's own client and the ones made beside it (slack/clients.ts).
  const slack = slackClients(app.client, { token: config.slack.botToken, logger }, slackOptions);

  const access = new AccessControl({
    lists: config.access,
    approvers: config.approvals.approvers,
    escalation: config.approvals.escalation,
    sandboxMode: config.sandboxMode,
    groupMembers: async (usergroup) => (await slack.quick.usergroups.users.list({ usergroup })).users ?? [],
    onGroupError: (usergroup, err) => logger.warn({ usergroup, ...describeError(err) }, 'could not resolve a user group'),
  });

  const deps: Deps = {
    pix,
    store,
    access,
    logger,
    mainAppId,
    keyChecks: new KeyChecks(),
    masterAppId,
    secrets,
    sandboxMode: config.sandboxMode,
    ...(config.pixEvents.channel ? { pixEventsChannel: config.pixEvents.channel } : {}),
    slack,
    botToken: config.slack.botToken,
    metrics,
    approvals: {
      // Money out waits for a checker whatever APPROVALS lists.
      actions: new Set([...config.approvals.actions, ...ALWAYS_APPROVED]),
      ttlMs: config.approvals.ttlMs,
      // Renewed while held, so short: an approval an instance died in (a payment between its two calls) is
      // taken up by the next tick after it lapses, within 90 s on the default minute's schedule.
      claimTtlMs: Math.min(config.pollClaimTtlMs, APPROVAL_CLAIM_MAX_MS),
      remindAfterMs: config.approvals.remindAfterMs,
      ...(config.approvals.limitAboveCents === undefined ? {} : { limitAboveCents: config.approvals.limitAboveCents }),
      ...(config.approvals.quorumAboveCents === undefined ? {} : { quorumAboveCents: config.approvals.quorumAboveCents }),
      quorumActions: new Set(config.approvals.quorumActions),
      ...(config.approvals.escalateAfterMs === undefined ? {} : { escalateAfterMs: config.approvals.escalateAfterMs }),
      ...(config.approvals.payDayLimitCents === undefined ? {} : { payDayLimitCents: config.approvals.payDayLimitCents }),
    },
    digest: {
      ...(config.digest.channel ? { channel: config.digest.channel } : {}),
      ...(config.balanceAlerts.belowCents === undefined ? {} : { belowCents: config.balanceAlerts.belowCents }),
    },
    audit: new AppAudit({
      sink: options.auditTrail === false ? { append: async () => undefined } : store.audit,
      scrub: (text) => secrets.scrub(text),
      logger,
    }),
  };
  // One global middleware, and no Bolt listener: it drops Slack's repeats of a delivery, routes it to
  // its row of the entry table after the one role check (see entry/router.ts), counts it in flight for
  // a graceful stop, and answers plainly when the store is down. Claims in memory (sqlite) need no
  // time limit of their own.
  const inFlight = new InFlight();
  const router = new EntryRouter(ENTRY_TABLE, deps);
  const dedupe = { claims: store, waitMs: store.shared ? DEDUPE_WAIT_MS : undefined };
  app.use(deliveryMiddleware({ inFlight, dedupe, logger, sandboxMode: config.sandboxMode, router, slack: deps.slack }));
  app.error(async (err) => {
    logger.error(describeError(err), 'unhandled error in a Slack listener');
  });
  options.beforeSealing?.(app);
  refuseBoltListeners(app);

  // The pace of every Slack call made in the background (the poller's jobs, the digest, the Pix
  // events' outbox): one turn of Slack's per method and channel, whoever posts there.
  const claimTtlMs = config.pollClaimTtlMs;
  const backgroundPacer = new SlackPacer({ maxWaitMs: paceBudgetMs(claimTtlMs), logger });

  // Pix events: the receiver (a route of Bolt's server in HTTP mode; a listener of its own on PORT in
  // Socket Mode) and the outbox that posts what it records.
  // Loaded only when configured (start-up time), like the sandbox.
  const pixEvents = config.pixEvents.channel
    ? await (require('./pix-events') as typeof import('./pix-events')).startPixEvents(deps, {
        ...config.pixEvents,
        channel: config.pixEvents.channel,
        pixBaseUrl: pixUrl,
        ownPort: mode === 'socket' ? config.slack.port : undefined,
        budget,
        pacer: backgroundPacer,
      })
    : undefined;
  if (pixEvents) opened.push(() => pixEvents.close());
  webhookRoute = pixEvents?.handler;

  let port: number | undefined;
  /** HTTP mode: what stops Slack's deliveries (and webhooks, /healthz) on connections kept alive from before the stop. */
  let slackGate: DrainGate | undefined;
  if (socket) {
    // Whether the socket is connected, as its client tells (it reconnects by itself).
    socket.on('connected', () => (slackUp = true));
    for (const event of ['disconnected', 'reconnecting']) socket.on(event, () => (slackUp = false));
    await app.start();
    opened.push(() => app.stop());
    slackUp = true;
    logger.info({ mode: 'socket' }, 'Pix Ops is running (Socket Mode)');
  } else {
    const server = await app.start(config.slack.host ? { port: config.slack.port, host: config.slack.host } : config.slack.port);
    opened.push(() => app.stop());
    port = (server.address() as AddressInfo).port;
    slackGate = drainGate(server);
    slackUp = true;
    logger.info({ mode: 'http', port }, 'Pix Ops is running (HTTP, /slack/events)');
  }
  if (pixEvents && sandbox) {
    // Sandbox mode: the sandbox's webhooks go to this bot's own receiver, with no configuration.
    const receiverPort = pixEvents.port ?? port;
    sandbox.webhooks.setTarget(`http://127.0.0.1:${receiverPort}${config.pixEvents.webhookPath}`);
    logger.info({ path: config.pixEvents.webhookPath }, 'SANDBOX mode: the sandbox delivers its webhooks to this bot');
  }
  let healthServer: HealthServer | undefined;
  if (config.health.port !== undefined)
    healthServer = await startHealthServer(config.health.port, config.health.host, { check: health, readiness, metrics }, logger);
  // The poller's jobs work on its own terms: their Pix calls queue behind people's in the budget
  // (pix/budget.ts), and a read still waiting for its place when it stops is not sent; their Slack calls
  // keep Slack's pace (slack/pacing.ts), through a pacer that survives ticks (a Retry-After still
  // running holds the next tick's calls back too).
  // Balance alerts go where the digest goes, else to the Pix events channel; with neither, nowhere.
  const alertChannel = config.digest.channel ?? config.pixEvents.channel;
  const belowCents = config.balanceAlerts.belowCents;
  const balanceAlerts = belowCents !== undefined && alertChannel ? { belowCents, channel: alertChannel } : undefined;
  if (belowCents !== undefined && !alertChannel) {
    logger.warn(
      'BALANCE_ALERT_BELOW is set but neither DIGEST_CHANNEL nor PIX_EVENTS_CHANNEL is: no balance alert is posted (/pix digest still lists the accounts below it)',
    );
  }
  const pacedSlack = slack.paced(backgroundPacer);
  const onTick = ({ signal }: TickScope): Deps => ({ ...deps, pix: deps.pix.inLane('poller', signal), slack: pacedSlack });
  const poller = startPoller(
    { schedule: config.poll.schedule, distributed: store.shared, claims: store, logger, metrics },
    {
      // Filings a previous run left cut short are settled at once, not at the first tick.
      atStart: (scope) => settleLeftFilings(onTick(scope)),
      main: (scope) => sweepLimitRequests(onTick(scope), { concurrency: config.poll.concurrency, claimTtlMs, stopping: scope.stopping }),
      also: [
        // Four-eyes approvals: expired past APPROVAL_TTL, reminded, resumed when left half done.
        (scope) => runApprovalTick(onTick(scope), APPROVAL_KINDS, scope),
        async () => pixEvents?.outbox.drain(),
        // Sent payments not final yet: read at the service (the only way they end without PIX_EVENTS_CHANNEL).
        (scope) => sweepPaymentEnds(onTick(scope), { concurrency: config.poll.concurrency, stopping: scope.stopping }),
        ...(balanceAlerts ? [(scope: TickScope) => sweepBalanceAlerts(onTick(scope), balanceAlerts)] : []),
      ],
    },
  );
  // Background work like the poller's: its Pix read behind people, its posts at Slack's pace.
  const digest = config.digest.channel
    ? startScheduledDigest(deps, {
        channel: config.digest.channel,
        schedule: config.digest.schedule,
        timezone: config.digest.timezone,
        holder: store.holder,
        background: (signal) => ({ ...deps, pix: deps.pix.inLane('poller', signal), slack: pacedSlack }),
      })
    : undefined;
  if (!config.access.viewer.length && !config.access.operator.length && !config.access.admin.length && !config.sandboxMode) {
    logger.warn('No ACCESS_VIEWERS, ACCESS_OPERATORS or ACCESS_ADMINS set: nobody is authorized');
  }

  /**
   * In order: stop taking new work (the Slack receiver and the schedule, at once; /readyz answers 503
   * from now on); let what is in flight finish (deliveries being handled, the tick in progress, which
   * starts no new request), for at most STOP_DRAIN_MS; then close the health listener, the store and
   * the sandbox. Whatever is cut short is handed back: a tick's requests stay open, claims lapse, and
   * the next instance resumes.
   */
  const stopInOrder = async () => {
    const started = Date.now();
    readiness.stop();
    slackGate?.close();
    logger.info({ inFlight: inFlight.size }, 'stopping: no new work taken');
    const pollerStopped = Promise.all([poller.stop(), digest?.stop()]);
    await Promise.all([
      withDeadline(app.stop(), STOP_DRAIN_MS).catch((err: unknown) =>
        logger.warn({ ...describeError(err) }, 'the Slack receiver did not stop cleanly'),
      ),
      pixEvents &&
        withDeadline(pixEvents.close(), STOP_DRAIN_MS).catch(() =>
          logger.warn('the Pix events outbox did not stop in time; what it left is posted by the next run'),
        ),
    ]);
    slackUp = false;
    const left = () => Math.max(0, STOP_DRAIN_MS - (Date.now() - started));
    const [drained, tickDone] = await Promise.all([
      inFlight.idle(left()),
      withDeadline(pollerStopped, left()).then(
        () => true,
        () => false,
      ),
    ]);
    if (!drained || !tickDone) {
      logger.warn({ inFlight: inFlight.size, tickDone }, 'stopping with work still in flight: it is left for the next run');
    }
    await healthServer?.close();
    await withDeadline(store.close(), 1_000).catch(() => logger.warn('the store did not close cleanly'));
    await sandbox?.close();
    logger.info({ ms: Date.now() - started }, 'stopped');
  };

  let stopped: Promise<void> | undefined;
  return {
    port,
    healthPort: healthServer?.port,
    healthAddress: healthServer?.address,
    sandbox,
    deps,
    poller,
    inFlight,
    ...(pixEvents ? { pixEvents } : {}),
    ...(digest ? { digest } : {}),
    // Safe to call twice (a signal during a stop, a test cleaning up): the second call waits on the first.
    stop: () => (stopped ??= stopInOrder()),
  };
}

/** The password in a Postgres or Redis `STORE_URL` (`postgres://user:password@host/db`), as written and decoded: a secret like the others. */
function storePassword(url: string): string[] {
  try {
    const { password } = new URL(url);
    return password === '' ? [] : [password, decodeURIComponent(password)];
  } catch {
    return [];
  }
}
