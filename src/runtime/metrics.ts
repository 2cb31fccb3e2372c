import type { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Outcome of one Slack Web API call, as counted in `pixops_slack_calls_total{result}`. */
export type SlackCallResult = 'ok' | 'error' | 'rate_limited' | 'failed';
/** Outcome of one poll tick, as counted in `pixops_poll_runs_total{result}`. */
export type PollRunResult = 'ok' | 'failed';

/**
 * The app's Prometheus series (the contract's "Pix API budget, metrics and readiness"), in a registry
 * of the app's own (several apps in one process, as in the tests, never share counts), served on the
 * health listener only (health.ts). Labels are closed sets or patterns: never an id, a key, a user or
 * a secret. `disabled()` counts nothing (the benchmark's baseline).
 */
export interface Metrics {
  /** One answered (or failed: status 0) attempt of a Pix call, by route pattern. */
  pixRequest(route: string, status: number, seconds: number): void;
  /** A 429 from the Pix API. */
  pixRateLimited(): void;
  pollRun(result: PollRunResult, at?: Date): void;
  limitRequestsInReview(count: number): void;
  slackCall(method: string, result: SlackCallResult): void;
  /** For the Pix webhooks receiver: one event received, by its kind and what became of it. */
  webhookEvent(kind: string, result: string): void;
  /** For four-eyes approvals: how many wait for a decision. */
  approvalsPending(count: number): void;
  /** Prometheus text format; undefined when metrics are off. */
  scrape(): Promise<{ contentType: string; body: string } | undefined>;
}

/** Route patterns are what the Pix client builds; anything else is folded so it cannot carry an id. */
const ROUTE = /^\/api\/v1(\/[a-z-]+|\/:[a-zA-Z]+)*$/;
/** Slack method names (`chat.postMessage`); anything else is folded. */
const SLACK_METHOD = /^[a-zA-Z]+(\.[a-zA-Z]+){1,3}$/;
/** Webhook kinds and results are short words chosen by the code, never taken from a payload as is. */
const WORD = /^[A-Za-z_]{1,40}$/;

const safe = (value: string, pattern: RegExp) => (pattern.test(value) ? value : 'other');

export function createMetrics(): Metrics {
  // Loaded only when metrics are on (start-up time).
  const prom = require('prom-client') as typeof import('prom-client');
  const registry: Registry = new prom.Registry();
  prom.collectDefaultMetrics({ register: registry });
  const counter = <L extends string>(name: string, help: string, labelNames: L[] = []): Counter<L> =>
    new prom.Counter({ name, help, labelNames, registers: [registry] });
  const gauge = (name: string, help: string): Gauge => new prom.Gauge({ name, help, registers: [registry] });

  const pixRequests = counter(
    'pixops_pix_requests_total',
    'Pix API calls (each attempt), by route pattern and HTTP status (0: no answer)',
    ['route', 'status'],
  );
  const pixDuration: Histogram<'route'> = new prom.Histogram({
    name: 'pixops_pix_request_duration_seconds',
    help: 'Time of each Pix API call attempt, from sending to the last byte of the answer',
    labelNames: ['route'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const pixRateLimited = counter('pixops_pix_rate_limited_total', 'Pix API calls answered 429');
  const pollRuns = counter('pixops_poll_runs_total', 'Poll ticks run by this instance, by result', ['result']);
  const pollLastSuccess = gauge(
    'pixops_poll_last_success_timestamp_seconds',
    'Unix time of the last poll tick that completed on this instance',
  );
  const inReview = gauge('pixops_limit_requests_in_review', 'Limit requests followed and still open, as of the last tick');
  const slackCalls = counter('pixops_slack_calls_total', 'Slack Web API calls, by method and result', ['method', 'result']);
  const webhookEvents = counter('pixops_webhook_events_total', 'Pix webhook events received, by kind and result', ['kind', 'result']);
  const approvalsPending = gauge('pixops_approvals_pending', 'Four-eyes approvals waiting for a decision');
  // Series with labels appear once used; these have none to wait for, and show 0 from the start.
  for (const result of ['ok', 'failed'] as const) pollRuns.inc({ result }, 0);

  return {
    pixRequest(route, status, seconds) {
      const r = safe(route, ROUTE);
      pixRequests.inc({ route: r, status: String(status) });
      pixDuration.observe({ route: r }, seconds);
    },
    pixRateLimited: () => pixRateLimited.inc(),
    pollRun(result, at = new Date()) {
      pollRuns.inc({ result });
      if (result === 'ok') pollLastSuccess.set(at.getTime() / 1000);
    },
    limitRequestsInReview: (count) => inReview.set(count),
    slackCall: (method, result) => slackCalls.inc({ method: safe(method, SLACK_METHOD), result }),
    webhookEvent: (kind, result) => webhookEvents.inc({ kind: safe(kind, WORD), result: safe(result, WORD) }),
    approvalsPending: (count) => approvalsPending.set(count),
    async scrape() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/** Metrics off (or nowhere to serve them): every call is a no-op, and there is nothing to scrape. */
export function disabledMetrics(): Metrics {
  const nothing = () => undefined;
  return {
    pixRequest: nothing,
    pixRateLimited: nothing,
    pollRun: nothing,
    limitRequestsInReview: nothing,
    slackCall: nothing,
    webhookEvent: nothing,
    approvalsPending: nothing,
    scrape: async () => undefined,
  };
}
