import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Deps } from '../deps';
import { refreshHomesAfterDecision } from '../home';
import { endOfMovement } from '../payments/ends';
import { moneyOutRecords } from '../payments/records';
import { settlePayment } from '../payments/settle';
import type { PixBudget } from '../pix/budget';
import { type DrainGate, drainGate } from '../runtime/drain-gate';
import { SlackPacer } from '../slack/pacing';
import { EventOutbox } from './outbox';
import { PublicKeys } from './public-keys';
import { webhookHandler } from './receiver';

export interface PixEvents {
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  outbox: EventOutbox;
  keys: PublicKeys;
  /** The port of the receiver's own listener (Socket Mode), when it has one. */
  port?: number;
  close(): Promise<void>;
}

export interface PixEventsSettings {
  channel: string;
  webhookPath: string;
  kinds: string[];
  /** The Pix API's base URL (the public keys' route). */
  pixBaseUrl: string;
  /** Socket Mode: the receiver listens on this port (PORT) for its path alone. */
  ownPort?: number;
  /** The one Pix budget: the key fetch takes a place in it like any call to the service. */
  budget?: PixBudget;
  /** The pacer of the app's other background Slack calls, whose turns the outbox shares. */
  pacer?: SlackPacer;
}

/**
 * How long a payment's end that came before the payment was recorded sent (or whose reply Slack would
 * not take) is tried again by the outbox: past that, the poll alone settles it.
 */
const MOVEMENT_WAIT_MS = 30 * 60_000;

/** How long one Slack call of the outbox may wait for its turn (Slack's pace, a Retry-After). */
const PACE_BUDGET_MS = 10_000;

/**
 * The receiver and the outbox of Pix events (contract: "Pix events: webhooks and the dispute desk").
 * The outbox drains once at start: whatever a previous run recorded but did not post (a crash after
 * the answer) is posted now.
 */
export async function startPixEvents(deps: Deps, settings: PixEventsSettings): Promise<PixEvents> {
  const budget = settings.budget;
  const keys = new PublicKeys({
    baseUrl: settings.pixBaseUrl,
    logger: deps.logger,
    ...(budget ? { acquire: (signal: AbortSignal) => budget.acquire('people', signal) } : {}),
  });
  let homesDirty = false;
  const pacer = settings.pacer?.withMaxWait(PACE_BUDGET_MS) ?? new SlackPacer({ maxWaitMs: PACE_BUDGET_MS, logger: deps.logger });
  // A payment's end is background work like the poll's: its Pix read behind people, its posts paced.
  const background: Deps = { ...deps, pix: deps.pix.inLane('poller'), slack: deps.slack.paced(pacer) };
  const outbox = new EventOutbox({
    events: deps.store.pixEvents,
    claims: deps.store,
    // The pace of the app's other background posts (balance alerts may go to this channel too), with its own wait.
    slack: background.slack.exact,
    channel: settings.channel,
    sandboxMode: deps.sandboxMode,
    audit: deps.audit,
    logger: deps.logger,
    settle: async (movement, receivedAt) => {
      const outcome = await settlePayment(background, movement.correlationId, endOfMovement(movement), 'webhook');
      if (outcome !== 'not-sent' && outcome !== 'later') return 'done';
      if (Date.now() - Date.parse(receivedAt) < MOVEMENT_WAIT_MS) return 'wait';
      // Never left pending for good: the poll reads the payment once it is sent, and posts an end left unposted.
      deps.logger.warn({ approval: movement.correlationId, outcome }, 'a payment’s end waited too long for its webhook: left to the poll');
      return 'done';
    },
    onDrained: (changed) => {
      // The Home tabs list the open disputes: refreshed once per drain that changed one, not per event.
      if (!changed || homesDirty) return;
      homesDirty = true;
      void refreshHomesAfterDecision(deps).finally(() => {
        homesDirty = false;
      });
    },
  });
  const handler = webhookHandler({
    keys,
    events: deps.store.pixEvents,
    kinds: settings.kinds,
    audit: deps.audit,
    metrics: deps.metrics,
    logger: deps.logger,
    ownsPayment: async (correlationId) => (await moneyOutRecords(deps.store.records).get(correlationId))?.kind === 'pay',
    nudge: outbox.nudge,
  });

  let server: Server | undefined;
  let port: number | undefined;
  let gate: DrainGate | undefined;
  if (settings.ownPort !== undefined) {
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://receiver').pathname;
      if (path === settings.webhookPath) return handler(req, res);
      req.resume();
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    });
    await new Promise<void>((resolve, reject) => {
      server!.once('error', reject);
      server!.listen(settings.ownPort, () => {
        server!.off('error', reject);
        resolve();
      });
    });
    port = (server.address() as AddressInfo).port;
    gate = drainGate(server);
    deps.logger.info({ port, path: settings.webhookPath }, 'Pix webhook receiver listening (Socket Mode: a listener of its own)');
  }
  void outbox.drain();

  return {
    handler,
    outbox,
    keys,
    ...(port !== undefined ? { port } : {}),
    async close() {
      if (server) {
        gate?.close();
        await new Promise<void>((resolve) => server!.close(() => resolve()));
      }
      await outbox.stop();
    },
  };
}
