import pLimit from 'p-limit';
import type { Deps } from '../deps';
import { describeError } from '../errors';
import { endOfRead, hasEnded } from './ends';
import { type OpenEntry, openPayments } from './indexes';
import { moneyOutRecords } from './records';
import { finishPayment, settlePayment } from './settle';

/** Open entries listed at most by one sweep (they are what is sent and not final: few at a time). */
const MAX_LISTED = 2_000;
/** Payments read at the service at most by one sweep: the least recently read first, the rest on the next ticks. */
export const MAX_READS_PER_SWEEP = 100;
/** An open entry whose record never came (its write failed after the entry's) is dropped after this. */
const ORPHAN_MS = 60 * 60_000;

export interface PaymentSweepReport {
  /** Open entries looked at. */
  open: number;
  /** Payments read at the service. */
  read: number;
  /** Ended by this sweep (their record moved by it). */
  ended: number;
  /** Ends posted that an earlier try left unposted. */
  finished: number;
  /** Reads or posts that failed: tried again on a later tick. */
  failed: number;
}

export interface PaymentSweepOptions {
  concurrency: number;
  stopping: () => boolean;
}

/**
 * The poll of the payments sent and not final, on each tick: every open entry's record read from the
 * store, and at most MAX_READS_PER_SWEEP of the sent ones read at the service
 * (`GET /api/v1/payment/{correlationID}` with PIX_APP_ID, in the poller's lane of the Pix budget),
 * the least recently read first; a payment the read finds final is settled (settle.ts), and an ended
 * payment whose reply an earlier try left unposted is posted. Without PIX_EVENTS_CHANNEL this alone
 * settles payments; with it, it catches what a webhook missed. One payment's failure never stops the others.
 */
export async function sweepPaymentEnds(deps: Deps, options: PaymentSweepOptions): Promise<PaymentSweepReport> {
  const open = openPayments(deps.store.records);
  const payments = moneyOutRecords(deps.store.records);
  const entries = await open.list(MAX_LISTED);
  const report: PaymentSweepReport = { open: entries.length, read: 0, ended: 0, finished: 0, failed: 0 };
  if (entries.length === 0) return report;
  const now = Date.now();
  const toRead: Array<{ id: string; entry: OpenEntry }> = [];
  for (const { key: id, value: entry } of entries) {
    if (options.stopping()) break;
    try {
      const record = await payments.get(id);
      if (!record) {
        if (now - Date.parse(entry.since) > ORPHAN_MS) await open.delete(id);
      } else if (hasEnded(record)) {
        if ((await finishPayment(deps, id)) === 'later') report.failed++;
        else if (!record.replied) report.finished++;
      } else if (record.kind === 'pay' && record.stage === 'sent') {
        toRead.push({ id, entry });
      } else if (record.kind !== 'pay') {
        await open.delete(id);
      }
      // Else still being sent (or approved short of balance): its sender moves it on.
    } catch (err) {
      report.failed++;
      deps.logger.warn(
        { approval: id, ...describeError(err) },
        'an open payment could not be read from the store; a later tick tries again',
      );
    }
  }
  const due = toRead
    .sort((a, b) => (a.entry.checkedAt ?? '').localeCompare(b.entry.checkedAt ?? '') || a.id.localeCompare(b.id))
    .slice(0, MAX_READS_PER_SWEEP);
  const limit = pLimit(Math.max(1, options.concurrency));
  await Promise.all(
    due.map(({ id, entry }) =>
      limit(async () => {
        if (options.stopping()) return;
        try {
          report.read++;
          const detail = await deps.pix.getPayment(deps.mainAppId, id);
          await open.compareAndSet(id, entry, { ...entry, checkedAt: new Date().toISOString() }).catch(() => false);
          const end = endOfRead(detail);
          const settled = end ? await settlePayment(deps, id, end, 'poll') : undefined;
          if (settled === 'settled') report.ended++;
          if (settled === 'later') report.failed++;
        } catch (err) {
          report.failed++;
          deps.logger.warn({ approval: id, ...describeError(err) }, 'a sent payment could not be read; a later tick reads it again');
        }
      }),
    ),
  );
  const level = report.read + report.ended + report.failed > 0 ? 'info' : 'debug';
  deps.logger[level]({ payments: report }, 'payment ends poll');
  return report;
}
