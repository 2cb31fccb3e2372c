import { presentMessage, type SlackMessage } from '../../views/message';
import { disputeReplyMessage, disputeRootMessage, otherEventMessage } from '../../views/pix-events';
import type { AuditLog } from '../audit/recorder';
import { describeError } from '../errors';
import { DEFAULT_LOCALE } from '../i18n';
import type { Logger } from '../runtime/logger';
import { SerialRunner } from '../runtime/serial-runner';
import { slackErrorCode } from '../slack/error-code';
import type { ExactWebClient } from '../slack/exact-client';
import { type OnceMetadata, postOnce } from '../slack/post-once';
import type { Claims } from '../store/claims';
import type { DisputeRecord, MovementSummary, PixEventRecord, PixEventsRepo } from '../store/pix-events';
import { isFinalStatus, mergedStatus } from './kinds';
import { WEBHOOK_ACTOR } from './receiver';

/** `metadata.event_type` of a dispute's root (the contract), its payload `end_to_end_id`. */
export const DISPUTE_EVENT_TYPE = 'pix_dispute';
/** `metadata.event_type` of a later event's reply in a dispute's thread, and of a compact message. */
export const DISPUTE_REPLY_EVENT_TYPE = 'pix_dispute_event';
export const OTHER_EVENT_TYPE = 'pix_event';

export const disputeMetadata = (endToEndId: string): OnceMetadata => ({
  event_type: DISPUTE_EVENT_TYPE,
  event_payload: { end_to_end_id: endToEndId },
});

/** How long an instance holds a dispute (or an event) while it posts it; another takes over after. */
const CLAIM_TTL_MS = 60_000;
/**
 * After a drain that left events unposted (Slack or the store failing), the next one is this soon,
 * twice as long after each further failing drain (up to RETRY_MAX_MS), back to it after one that works.
 */
const RETRY_AFTER_MS = 5_000;
const RETRY_MAX_MS = 5 * 60_000;
/**
 * After a drain that found events held by another instance: that one may have listed the pending
 * events before they were recorded, so they are tried again this soon rather than left to a tick.
 */
const HELD_RETRY_MS = 1_000;

export interface OutboxOptions {
  events: PixEventsRepo;
  claims: Claims;
  /** A client that makes each call once, paced to Slack's limits (slack/clients.ts). */
  slack: ExactWebClient;
  channel: string;
  sandboxMode: boolean;
  audit: AuditLog;
  logger: Logger;
  /**
   * A payment's end (a `MOVEMENT_*` event of a payment this app sent): settled in its approval's thread
   * (src/payments/settle.ts); `wait` while the payment is not sent yet, or its reply could not be posted
   * (tried again on a later drain). `receivedAt`: when the event came.
   */
  settle?: (movement: MovementSummary, receivedAt: string) => Promise<'done' | 'wait'>;
  /** After each drain; `disputesChanged`: a dispute's root was posted or changed (the Home tabs list the open ones). */
  onDrained?: (disputesChanged: boolean) => void;
}

export interface DrainReport {
  posted: number;
  /** Posted already (by another instance, or an earlier drain). */
  skipped: number;
  /** Its dispute (or itself) held by another instance at that moment: tried again shortly. */
  held: number;
  /** A payment's end whose payment is not sent yet (or whose reply could not be posted): tried again later. */
  waiting: number;
  failed: number;
}

/**
 * Posts the recorded events, oldest first, each once: under a claim (the dispute's, so that two
 * events of one dispute, or two instances, never make two roots; else the event's), its record read
 * again, posted (post-once.ts), then marked posted. Whatever a crash cuts short stays pending, and the
 * next drain (at start, on the next event, on the poller's tick) finishes it, looking in Slack first
 * for what may have been posted already.
 */
export class EventOutbox {
  private readonly runner = new SerialRunner(() => this.drainOnce());
  private stopping = false;
  private retry: NodeJS.Timeout | undefined;
  private retryMs = RETRY_AFTER_MS;
  private disputesChanged = false;

  constructor(private readonly o: OutboxOptions) {}

  /** Drains soon (coalesced with a drain already waiting to start). */
  nudge = (): void => {
    if (this.stopping) return;
    void this.drain();
  };

  /** A drain that starts after the one running, if any (it sees every event recorded before the call). */
  drain(): Promise<DrainReport> {
    return this.runner.fresh().catch((err: unknown) => {
      this.o.logger.warn({ ...describeError(err) }, 'could not list the Pix events to post; a later drain tries again');
      this.later();
      return { posted: 0, skipped: 0, held: 0, waiting: 0, failed: 1 };
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.retry) clearTimeout(this.retry);
    await this.runner.idle();
  }

  /** A drain later: after `ms`, or after the failure backoff (which then doubles). */
  private later(ms?: number): void {
    if (this.stopping || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.nudge();
    }, ms ?? this.retryMs);
    this.retry.unref();
    if (ms === undefined) this.retryMs = Math.min(RETRY_MAX_MS, this.retryMs * 2);
  }

  private async drainOnce(): Promise<DrainReport> {
    const report: DrainReport = { posted: 0, skipped: 0, held: 0, waiting: 0, failed: 0 };
    this.disputesChanged = false;
    for (const hash of await this.o.events.pending()) {
      if (this.stopping) break;
      try {
        report[await this.postOne(hash)]++;
      } catch (err) {
        report.failed++;
        this.o.logger.warn(
          { event: hash.slice(0, 12), ...describeError(err) },
          'a Pix event could not be posted; a later drain tries again',
        );
      }
    }
    if (report.failed + report.waiting > 0) this.later();
    else {
      this.retryMs = RETRY_AFTER_MS;
      if (report.held > 0) this.later(HELD_RETRY_MS);
    }
    if (report.posted + report.failed > 0) this.o.logger.info({ pixEvents: report }, 'Pix events drained');
    this.o.onDrained?.(this.disputesChanged);
    return report;
  }

  private async postOne(hash: string): Promise<'posted' | 'skipped' | 'held' | 'waiting'> {
    const first = await this.o.events.get(hash);
    if (!first || first.postedAt) {
      await this.o.events.markPosted(hash);
      return 'skipped';
    }
    const claimKey = first.dispute ? `pix-dispute:${first.dispute.endToEndId}` : `pix-event:${hash}`;
    if (!(await this.o.claims.claim(claimKey, CLAIM_TTL_MS))) return 'held';
    try {
      // Read again under the claim: whoever held it before may have posted it meanwhile.
      const record = await this.o.events.get(hash);
      if (!record || record.postedAt) {
        await this.o.events.markPosted(hash);
        return 'skipped';
      }
      if (record.movement && this.o.settle) {
        if ((await this.o.settle(record.movement, record.receivedAt)) === 'wait') return 'waiting';
      } else if (record.dispute) await this.postDispute(record, record.dispute);
      else await this.postOther(record);
      await this.o.events.markPosted(hash);
      void this.o.audit.record({
        user: WEBHOOK_ACTOR,
        role: 'none',
        action: `webhook:${record.kind.slice(0, 60)}`,
        outcome: 'ok',
        detail: 'posted',
      });
      return 'posted';
    } finally {
      await this.o.claims.release(claimKey).catch(() => undefined);
    }
  }

  private present(message: SlackMessage): SlackMessage {
    return presentMessage(message, DEFAULT_LOCALE, this.o.sandboxMode);
  }

  /**
   * The dispute's root when it has none (the first event to arrive makes it, whatever its kind), else a
   * reply in its thread and the root brought up to date. The dispute is recorded before its root is
   * posted, so a root whose post a crash cut short is looked for (by its metadata) before posting again.
   */
  private async postDispute(record: PixEventRecord, event: NonNullable<PixEventRecord['dispute']>): Promise<void> {
    const { events } = this.o;
    const known = await events.dispute(event.endToEndId);
    const status = mergedStatus(known?.status, event.status);
    const details = Object.fromEntries(Object.entries(event).filter(([k, v]) => k !== 'status' && v !== undefined));
    const dispute: DisputeRecord = {
      ...(known ?? { channel: this.o.channel, firstAt: record.receivedAt }),
      ...details,
      endToEndId: event.endToEndId,
      ...(status ? { status } : {}),
      closed: isFinalStatus(status),
      updatedAt: new Date().toISOString(),
      events: [...new Set([...(known?.events ?? []), record.hash])],
    } as DisputeRecord;
    const root = this.present(disputeRootMessage(DEFAULT_LOCALE, dispute));
    if (!dispute.rootTs) {
      await this.postRoot(record, dispute, root, known !== undefined);
    } else {
      const reply = this.present(
        disputeReplyMessage(DEFAULT_LOCALE, {
          e2e: dispute.endToEndId,
          status: event.status ?? status ?? 'OPENED',
          late: event.status === 'OPENED' && isFinalStatus(known?.status),
        }),
      );
      try {
        await postOnce(
          this.o.slack,
          { channel: dispute.channel, thread_ts: dispute.rootTs, ...reply },
          {
            event_type: DISPUTE_REPLY_EVENT_TYPE,
            event_payload: { end_to_end_id: dispute.endToEndId, event_hash: record.hash.slice(0, 32) },
          },
          { lookFirst: true, since: Date.parse(record.receivedAt) || 0 },
        );
        await this.o.slack.chat.update({ channel: dispute.channel, ts: dispute.rootTs, text: root.text, blocks: root.blocks });
      } catch (err) {
        const code = slackErrorCode(err);
        if (code !== 'thread_not_found' && code !== 'message_not_found') throw err;
        // Its root was deleted: a new one, with everything known so far, takes its place.
        this.o.logger.warn({ kind: record.kind, slackError: code }, 'the Pix dispute root is gone; a new root is posted');
        await this.postRoot(record, { ...dispute, rootTs: undefined }, root, false);
        this.disputesChanged = true;
        return;
      }
      await events.saveDispute(dispute);
      this.o.logger.info({ kind: record.kind, rootTs: dispute.rootTs }, 'Pix dispute event posted in its thread');
    }
    this.disputesChanged = true;
  }

  /**
   * The dispute recorded, then its root posted (`lookFirst`: an earlier run may have posted it without
   * recording it; found, it is brought up to date), then the root recorded.
   */
  private async postRoot(record: PixEventRecord, dispute: DisputeRecord, root: SlackMessage, lookFirst: boolean): Promise<void> {
    await this.o.events.saveDispute(dispute);
    const posted = await postOnce(this.o.slack, { channel: dispute.channel, ...root }, disputeMetadata(dispute.endToEndId), {
      lookFirst,
      since: Date.parse(dispute.firstAt) || 0,
    });
    await this.o.events.saveDispute({ ...dispute, channel: posted.channel, rootTs: posted.ts });
    if (lookFirst) await this.o.slack.chat.update({ channel: posted.channel, ts: posted.ts, text: root.text, blocks: root.blocks });
    this.o.logger.info({ kind: record.kind, rootTs: posted.ts }, 'Pix dispute root posted');
  }

  /** One compact message; looked for first only when an earlier attempt may have posted it. */
  private async postOther(record: PixEventRecord): Promise<void> {
    const message = this.present(otherEventMessage(DEFAULT_LOCALE, record.kind, record.other ?? {}));
    const attempted = record.attemptedAt !== undefined;
    if (!attempted) await this.o.events.update({ ...record, attemptedAt: new Date().toISOString() });
    await postOnce(
      this.o.slack,
      { channel: this.o.channel, ...message },
      { event_type: OTHER_EVENT_TYPE, event_payload: { event_hash: record.hash.slice(0, 32) } },
      { lookFirst: attempted, since: Date.parse(record.receivedAt) || 0 },
    );
  }
}
