import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PixBudget } from '../pix/budget';
import { PixClient } from '../pix/client';
import type { Logger } from './logger';
import type { Metrics } from './metrics';

export interface HealthReport {
  /** Both the store and the Pix API answer. */
  ok: boolean;
  store: 'ok' | 'down';
  pixApi: 'ok' | 'down';
  mode: 'http' | 'socket';
  sandbox: boolean;
}

export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';
/** Time limit of the Pix API probe: a health check must answer fast, whatever the API does. */
const PIX_PROBE_TIMEOUT_MS = 2_000;
/** How long a probe's answer is reused: health checks every second cannot hammer the Pix API. */
const PIX_CACHE_MS = 5_000;
const STORE_CACHE_MS = 1_000;

/** A probe whose answer is cached for a while and shared by concurrent callers. */
class CachedProbe {
  private last: { at: number; ok: boolean } | undefined;
  private running: Promise<boolean> | undefined;

  constructor(
    private readonly probe: () => Promise<boolean>,
    private readonly ttlMs: number,
    private readonly now: () => number,
  ) {}

  get(): Promise<boolean> {
    if (this.last && this.now() - this.last.at < this.ttlMs) return Promise.resolve(this.last.ok);
    this.running ??= this.probe()
      .catch(() => false)
      .then((ok) => {
        this.last = { at: this.now(), ok };
        this.running = undefined;
        return ok;
      });
    return this.running;
  }
}

export interface HealthOptions {
  ping: () => Promise<boolean>;
  pixBaseUrl: string;
  mainAppId: string;
  mode: 'http' | 'socket';
  sandbox: boolean;
  /** The probe's call takes its place in the Pix budget like every other call of the bot. */
  budget?: PixBudget;
  /** Defaults: 2 s probe time limit, Pix answer cached 5 s, store answer 1 s. */
  pixTimeoutMs?: number;
  pixCacheMs?: number;
  storeCacheMs?: number;
  /** The clock the caches read (tests move it by hand). */
  now?: () => number;
}

/**
 * `GET /healthz`: whether the store and the Pix API answer. The Pix API is asked a cheap read that
 * needs no scope (`GET /api/v1/application/scopes`), through a client of its own (one attempt, 2 s),
 * and the answer is cached for a few seconds.
 */
export class HealthCheck {
  private readonly store: CachedProbe;
  private readonly pix: CachedProbe;

  constructor(private readonly options: HealthOptions) {
    const timeoutMs = options.pixTimeoutMs ?? PIX_PROBE_TIMEOUT_MS;
    const client = new PixClient({
      baseUrl: options.pixBaseUrl,
      timeoutMs,
      retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
      ...(options.budget ? { budget: options.budget } : {}),
    });
    this.pix = new CachedProbe(
      async () => {
        // Its wait for a place in the budget (held back after a 429) within the same time limit: a
        // health check never hangs on the budget.
        await client.inLane('people', AbortSignal.timeout(timeoutMs)).listScopes(options.mainAppId);
        return true;
      },
      options.pixCacheMs ?? PIX_CACHE_MS,
      options.now ?? Date.now,
    );
    this.store = new CachedProbe(options.ping, options.storeCacheMs ?? STORE_CACHE_MS, options.now ?? Date.now);
  }

  /** The store answers (the cached probe, like /healthz). */
  storeAnswers(): Promise<boolean> {
    return this.store.get();
  }

  async report(): Promise<HealthReport> {
    const [store, pix] = await Promise.all([this.store.get(), this.pix.get()]);
    return {
      ok: store && pix,
      store: store ? 'ok' : 'down',
      pixApi: pix ? 'ok' : 'down',
      mode: this.options.mode,
      sandbox: this.options.sandbox,
    };
  }

  /** A plain Node handler (Bolt's customRoutes, or the health server). */
  readonly handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    this.report().then(
      (report) => {
        res
          .writeHead(report.ok ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
          .end(req.method === 'HEAD' ? undefined : JSON.stringify(report));
      },
      () => res.writeHead(500).end(),
    );
  };
}

/**
 * `GET /readyz`: 200 once the store answers and Slack is connected (Socket Mode) or served (HTTP);
 * 503 while stopping, so a load balancer or an orchestrator stops sending work before the port goes.
 */
export class Readiness {
  private stopping = false;

  constructor(
    private readonly check: HealthCheck,
    /** Whether the Slack side is up: the receiver listening, or the socket connected. */
    private readonly slackUp: () => boolean,
  ) {}

  stop(): void {
    this.stopping = true;
  }

  async report(): Promise<{ ready: boolean; store: 'ok' | 'down'; slack: 'ok' | 'down'; stopping: boolean }> {
    const store = this.stopping ? false : await this.check.storeAnswers();
    const slack = this.slackUp();
    return { ready: !this.stopping && store && slack, store: store ? 'ok' : 'down', slack: slack ? 'ok' : 'down', stopping: this.stopping };
  }

  readonly handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    this.report().then(
      (report) => {
        res
          .writeHead(report.ready ? 200 : 503, { 'content-type': 'application/json', 'cache-control': 'no-store' })
          .end(req.method === 'HEAD' ? undefined : JSON.stringify(report));
      },
      () => res.writeHead(500).end(),
    );
  };
}

export interface HealthServer {
  port: number;
  /** The address it listens on. */
  address: string;
  close(): Promise<void>;
}

/**
 * The health listener, on a port of its own (Socket Mode has no HTTP server of its own), on `host`
 * only: `/healthz`, `/readyz` and `/metrics` (never on the Slack-facing port: they describe the app to
 * whoever can reach them).
 */
export async function startHealthServer(
  port: number,
  host: string,
  endpoints: { check: HealthCheck; readiness: Readiness; metrics: Metrics },
  logger: Logger,
): Promise<HealthServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') res.writeHead(405, { allow: 'GET, HEAD' }).end();
    else if (path === HEALTH_PATH) endpoints.check.handle(req, res);
    else if (path === READY_PATH) endpoints.readiness.handle(req, res);
    else if (path === METRICS_PATH) serveMetrics(endpoints.metrics, req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port: bound, address } = server.address() as AddressInfo;
  logger.info({ host: address, port: bound }, `health check on ${address}:${bound}${HEALTH_PATH}`);
  return {
    port: bound,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function serveMetrics(metrics: Metrics, req: http.IncomingMessage, res: http.ServerResponse): void {
  metrics.scrape().then(
    (scraped) => {
      if (!scraped) res.writeHead(404).end();
      else
        res
          .writeHead(200, { 'content-type': scraped.contentType, 'cache-control': 'no-store' })
          .end(req.method === 'HEAD' ? undefined : scraped.body);
    },
    () => res.writeHead(500).end(),
  );
}
