import { setTimeout } from 'node:timers/promises';
import { ErrorCode, type WebAPICallResult, type WebClientOptions } from '@slack/web-api';
import { PixOpsError } from '../errors';
import type { Logger } from '../runtime/logger';
import { ExactWebClient } from './exact-client';

/** A token bucket: `perSecond` on average, up to `burst` at once. */
export interface PaceRule {
  perSecond: number;
  burst: number;
}

/**
 * How far under a known rate the poller paces: calls leave here paced but reach Slack with the
 * network's jitter, and one arriving a few milliseconds early would be refused for a whole second.
 */
const UNDER = 0.95;

/** How long a pace learned from a 429 is kept after the last refusal that taught it. */
const LEARNED_FOR_MS = 60_000;

/**
 * What the poller paces ahead, per method and channel. Slack's rate-limit page
 * (https://docs.slack.dev/apis/web-api/rate-limits): chat.postMessage "generally allows posting one
 * message per second per channel" ("Posting messages: 1 per second, short bursts >1 allowed"), on top
 * of a workspace-wide limit it does not state: paced here a twentieth under that (UNDER). The other
 * methods of a delivery are tiered per method and workspace (chat.update and conversations.replies:
 * Tier 3, "50+ per minute"): their real allowance is unknown and generous, so they are not paced ahead;
 * a 429 on one teaches the pacer its pace there (below).
 */
export const SLACK_PACE: Readonly<Record<string, PaceRule>> = {
  'chat.postMessage': { perSecond: UNDER, burst: 3 },
};

/** A call that would have to wait longer than its budget for its turn. */
export class SlackPaceError extends PixOpsError {
  readonly code = 'pixops_slack_pace';
  /** The call never left: nothing was posted (see post-once.ts). */
  readonly notSent = true;

  constructor(
    readonly method: string,
    readonly channel: string | undefined,
    readonly waitMs: number,
  ) {
    super(`${method}${channel ? ` in ${channel}` : ''} would wait ${waitMs} ms for Slack's rate limit, more than a call waits`);
  }
}

interface Gate {
  /** The pace set for this method (SLACK_PACE). */
  rule: PaceRule | undefined;
  /** The pace a 429 taught, where none is set, and until when it holds. */
  learned?: { rule: PaceRule; until: number };
  tokens: number;
  at: number;
  /** Nothing on this key before this time: the end of Slack's last Retry-After. */
  blockedUntil: number;
  /** The previous caller's turn: callers of one key take their turns in order. */
  tail: Promise<void>;
  waiting: number;
}

/**
 * Turns for Slack calls, per method and channel (the key Slack limits chat.postMessage by; a method
 * called without a channel has one key): paced ahead where SLACK_PACE says; after a 429, held back
 * until its Retry-After has passed, and then, where no pace is set, paced at one call per Retry-After
 * for a while (LEARNED_FOR_MS), so that the refused call made again and the next ones do not run into
 * the limit one after the other. Waits are timers: nothing else waits on them, so another channel's
 * calls, and the app's own Slack client (acks, modals), go on meanwhile.
 */
export class SlackPacer {
  constructor(
    private readonly options: {
      /** The longest a call waits for its turn, all its retries together; past that it fails. */
      maxWaitMs: number;
      rules?: Readonly<Record<string, PaceRule>>;
      logger?: Logger;
    },
    private readonly gates = new Map<string, Gate>(),
  ) {}

  /**
   * The same pace (the same turns per method and channel) for calls that wait at most `maxWaitMs`:
   * two senders that post in one channel (the poller's, the Pix events') share one turn of Slack's.
   */
  withMaxWait(maxWaitMs: number): SlackPacer {
    return new SlackPacer({ ...this.options, maxWaitMs }, this.gates);
  }

  get maxWaitMs(): number {
    return this.options.maxWaitMs;
  }

  /**
   * Resolves when `method` may be called in `channel`, and takes that turn. Rejects with a
   * SlackPaceError, without waiting, when the turn would come after `deadline`.
   */
  async turn(method: string, channel: string | undefined, deadline: number): Promise<void> {
    const gate = this.gate(method, channel);
    const previous = gate.tail;
    let done!: () => void;
    gate.tail = new Promise((resolve) => (done = resolve));
    gate.waiting++;
    try {
      await previous;
      for (;;) {
        const now = Date.now();
        const rule = refill(gate, now);
        const readyAt = Math.max(
          gate.blockedUntil,
          rule && gate.tokens < 1 ? now + Math.ceil(((1 - gate.tokens) / rule.perSecond) * 1000) : now,
        );
        if (readyAt <= now) break;
        if (readyAt > deadline) throw new SlackPaceError(method, channel, readyAt - now);
        // Again after the sleep: a 429 meanwhile may have moved the time on.
        await setTimeout(readyAt - now);
      }
      gate.tokens -= 1;
    } finally {
      gate.waiting--;
      done();
    }
  }

  /**
   * Slack refused a call (429): nothing more on its key until Retry-After has passed (at least a
   * second, should Slack say 0), no burst right after it, and where no pace is set, one call per
   * Retry-After from then on for a while.
   */
  refused(method: string, channel: string | undefined, retryAfterS: number): void {
    const gate = this.gate(method, channel);
    const now = Date.now();
    const seconds = Math.max(1, retryAfterS);
    gate.blockedUntil = Math.max(gate.blockedUntil, now + seconds * 1000);
    if (!gate.rule) gate.learned = { rule: { perSecond: UNDER / seconds, burst: 1 }, until: now + LEARNED_FOR_MS };
    gate.tokens = 0;
    gate.at = now;
    this.options.logger?.info(
      { slack: { method, channel, retryAfter: retryAfterS } },
      'Slack rate limit: the call is made again after Retry-After',
    );
  }

  private gate(method: string, channel: string | undefined): Gate {
    const key = `${method} ${channel ?? ''}`;
    let gate = this.gates.get(key);
    if (!gate) {
      if (this.gates.size >= 1_000) this.forgetIdle();
      const rule = (this.options.rules ?? SLACK_PACE)[method];
      gate = { rule, tokens: rule?.burst ?? 0, at: Date.now(), blockedUntil: 0, tail: Promise.resolve(), waiting: 0 };
      this.gates.set(key, gate);
    }
    return gate;
  }

  /** Keys nobody waits on, whose bucket is full again and whose Retry-After has passed. */
  private forgetIdle(): void {
    const now = Date.now();
    for (const [key, gate] of this.gates) {
      const rule = refill(gate, now);
      if (gate.waiting === 0 && gate.blockedUntil <= now && (!rule || gate.tokens >= rule.burst)) this.gates.delete(key);
    }
  }
}

/** Brings the gate's bucket up to `now`; returns the pace in force (none: calls are not counted). */
function refill(gate: Gate, now: number): PaceRule | undefined {
  if (gate.learned && now >= gate.learned.until) gate.learned = undefined;
  const rule = gate.rule ?? gate.learned?.rule;
  gate.tokens = rule ? Math.min(rule.burst, gate.tokens + ((now - gate.at) / 1000) * rule.perSecond) : 0;
  gate.at = now;
  return rule;
}

/**
 * The background's Web API client (the poller's jobs, the events outbox): an exact client
 * (exact-client.ts) whose every call takes its turn from the pacer first. A call Slack refuses with
 * 429 was not performed (https://docs.slack.dev/apis/web-api/rate-limits), so it is made again once
 * its Retry-After has passed; unlike Bolt's client, which pauses every call of the app, only that
 * method in that channel waits. A call that would wait longer than the pacer's budget fails with
 * SlackPaceError, and the request's turn with it: a later tick resumes it.
 */
export class PacedWebClient extends ExactWebClient {
  constructor(
    token: string,
    options: WebClientOptions,
    private readonly pacer: SlackPacer,
  ) {
    super(token, options);
  }

  override async apiCall(method: string, options: Record<string, unknown> = {}): Promise<WebAPICallResult> {
    const channel = typeof options.channel === 'string' ? options.channel : undefined;
    const deadline = Date.now() + this.pacer.maxWaitMs;
    for (;;) {
      await this.pacer.turn(method, channel, deadline);
      try {
        return await super.apiCall(method, options);
      } catch (err) {
        const retryAfter = retryAfterOf(err);
        if (retryAfter === undefined) throw err;
        this.pacer.refused(method, channel, retryAfter);
      }
    }
  }
}

/** Retry-After (seconds) of a 429 the client rejected (`rejectRateLimitedCalls`). */
function retryAfterOf(err: unknown): number | undefined {
  const e = err as { code?: unknown; retryAfter?: unknown } | undefined;
  return e?.code === ErrorCode.RateLimitedError && typeof e.retryAfter === 'number' ? e.retryAfter : undefined;
}
