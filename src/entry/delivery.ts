import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import { plain, presentMessage } from '../../views/message';
import { messageModal } from '../../views/modal';
import { describeError } from '../errors';
import { messages } from '../i18n';
import { withDeadline } from '../runtime/deadline';
import type { Logger } from '../runtime/logger';
import type { SlackClients } from '../slack/clients';
import type { Claims } from '../store/claims';
import { isStoreUnavailable } from '../store/errors';

/** How long a delivery is remembered: Slack retries within minutes (at once, after 1 and 5 min). */
export const DELIVERY_TTL_MS = 60 * 60_000;
/** With Redis, the retry check must never hold up an acknowledgement (Slack waits 3 s): past this, it is skipped. */
export const DEDUPE_WAIT_MS = 500;

/**
 * `context.receivedAt`: when the delivery reached the app (this middleware runs first), so that what
 * must answer within Slack's three seconds counts from there, not from after the checks before it.
 */
export const RECEIVED_AT = 'receivedAt';

type Body = Record<string, unknown> & { type?: unknown; event_id?: unknown; trigger_id?: unknown };

/**
 * What identifies one delivery of Slack, the same on each of its retries: the `event_id` of an Events
 * API event; the `trigger_id` of a slash command or an interaction (a button, a modal submission, a
 * shortcut), which Slack makes anew for every user action. Undefined for payloads with neither.
 */
export function deliveryKey(body: Body): string | undefined {
  if (typeof body.event_id === 'string' && body.event_id) return `event:${body.event_id}`;
  if (typeof body.trigger_id === 'string' && body.trigger_id) return `trigger:${body.trigger_id}`;
  return undefined;
}

/**
 * Slack repeats a delivery it thinks was lost (HTTP: `x-slack-retry-num`, which Bolt gives as
 * `context.retryNum`; Socket Mode: `retry_attempt`), and the repeat may arrive while the first one is
 * still being handled. Each delivery's key is claimed in the store (shared by every instance) before
 * any listener runs; a delivery whose key is already claimed is acknowledged and goes no further, so
 * no action is ever performed twice.
 *
 * When the store cannot answer at once, the delivery is handled without the check (a person's
 * action is never refused because of it; repeats are rare, and the poller's own claims keep its
 * decisions single).
 */
async function isRepeat(args: MiddlewareArgs, dedupe: DedupeOptions, logger: Logger): Promise<boolean> {
  const key = deliveryKey(args.body as Body);
  if (!key) return false;
  let first: boolean;
  try {
    const claimed = dedupe.claims.claim(`delivery:${key}`, dedupe.ttlMs ?? DELIVERY_TTL_MS);
    first = await (dedupe.waitMs === undefined ? claimed : withDeadline(claimed, dedupe.waitMs));
  } catch (err) {
    logger.warn({ delivery: key, ...describeError(err) }, 'could not check for a repeated Slack delivery; handling it anyway');
    return false;
  }
  if (first) return false;
  logger.info(
    { delivery: key, retryNum: args.context.retryNum, retryReason: args.context.retryReason },
    'repeated Slack delivery: acknowledged, not handled again',
  );
  // Events are acknowledged by Bolt before any middleware runs; everything else is acknowledged here.
  if ('ack' in args && typeof args.ack === 'function') await (args.ack as () => Promise<void>)();
  return true;
}

export interface DedupeOptions {
  claims: Claims;
  /** How long the check may take before the delivery is handled without it (unset: no limit of its own). */
  waitMs?: number;
  ttlMs?: number;
}

/** Counts the deliveries being handled (listeners included), so a shutdown can wait for them. */
export class InFlight {
  private count = 0;
  private taken = 0;
  private waiters: Array<() => void> = [];

  get size(): number {
    return this.count;
  }

  /** How many deliveries were taken in all: with `size`, tells when the ones sent so far are done (tests wait on it). */
  get total(): number {
    return this.taken;
  }

  enter(): void {
    this.count++;
    this.taken++;
  }

  leave(): void {
    this.count--;
    if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves true when nothing is in flight, or false once `timeoutMs` has passed. */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      timer.unref();
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}

/**
 * The one global middleware, and the last stop of every delivery (one, not several: Bolt spreads the
 * whole argument object at every step, which shows in the acknowledgement time under load):
 * - drops Slack's repeats of a delivery (see isRepeat);
 * - routes the delivery to its entry point through the table, or answers it as unknown: it never
 *   hands a delivery on (`next()`), so a listener registered the Bolt way is never reached;
 * - counts the delivery in flight while its listeners run, so a shutdown can wait for it;
 * - when a listener fails because the store is unavailable, tells the person so plainly (nothing was
 *   done; try again) instead of leaving them with silence or a generic error.
 */
export function deliveryMiddleware(options: {
  inFlight: InFlight;
  dedupe: DedupeOptions;
  logger: Logger;
  sandboxMode: boolean;
  /** The entry table's router (see router.ts): every delivery ends there. */
  router: { route(args: MiddlewareArgs): Promise<void> };
  /** The app's clients (deps.slack): the language a user reads, and the client that tells them. */
  slack: Pick<SlackClients, 'retried' | 'locales'>;
}): Middleware<AnyMiddlewareArgs> {
  const { inFlight, dedupe, logger, sandboxMode, router, slack } = options;
  return async (args) => {
    args.context[RECEIVED_AT] ??= Date.now();
    inFlight.enter();
    try {
      if (await isRepeat(args, dedupe, logger)) return;
      await router.route(args);
    } catch (err) {
      if (!isStoreUnavailable(err)) throw err;
      logger.warn(describeError(err), 'a Slack action needed the store, which is unavailable');
      await tellStoreUnavailable(args, sandboxMode, slack).catch((e: unknown) => {
        logger.warn({ ...describeError(e) }, 'could not tell the user the store is unavailable');
      });
    } finally {
      inFlight.leave();
    }
  };
}

type MiddlewareArgs = Parameters<Middleware<AnyMiddlewareArgs>>[0];

/** A notice, told again as often as Slack needs (the retried client): a repeat does no harm. */
async function tellStoreUnavailable(
  args: MiddlewareArgs,
  sandboxMode: boolean,
  slack: Pick<SlackClients, 'retried' | 'locales'>,
): Promise<void> {
  const body = args.body as Body & { view?: { id?: string }; user?: { id?: string }; user_id?: string };
  const a = args as unknown as { ack?: (r?: unknown) => Promise<void>; respond?: (r: unknown) => Promise<unknown> };
  const user = body.user?.id ?? body.user_id;
  const locale = await slack.locales.localeOf(typeof user === 'string' ? user : undefined);
  const m = messages(locale).common;
  const message = presentMessage(plain(m.storeUnavailable), locale, sandboxMode);
  if (body.type === 'view_submission') {
    const view = messageModal(locale, m.notAvailableTitle, message);
    try {
      await a.ack?.({ response_action: 'update', view });
      return;
    } catch {
      // Already acknowledged by the handler: change the modal instead.
      if (body.view?.id) await slack.retried.views.update({ view_id: body.view.id, view });
      return;
    }
  }
  if (a.respond) {
    await a.respond({ response_type: 'ephemeral', replace_original: false, ...message });
    return;
  }
  if (typeof user === 'string') await slack.retried.chat.postMessage({ channel: user, ...message });
}
