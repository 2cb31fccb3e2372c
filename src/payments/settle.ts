import { BALANCE_CODE, type PaymentEndInput, paymentEndMessage } from '../../views/payment-end';
import { noticeOf, present } from '../approvals/thread';
import type { Deps } from '../deps';
import { describeError } from '../errors';
import { postOnce, refusedBySlack } from '../slack/post-once';
import { DayLimit } from './day-limit';
import { hasEnded, type PaymentEnd } from './ends';
import { openPayments } from './indexes';
import { showMoneyOut } from './money-out';
import { type MoneyOutRecord, moneyOutRecords } from './records';

// A sent payment's end, exactly once whichever way it comes first (its webhook, or a read on the
// poll), on any instance, across restarts: its record moved from `sent` to its final stage by
// compare-and-set (one writer wins; the others find it ended), then, under a claim, one reply in the
// approval's thread (looked for first when an earlier attempt may have posted it), the root shown
// ended, the day's limit given back for a failed or removed payment, and the open entry removed.

/** How long one instance holds a payment's end while it posts it; another takes over after. */
const CLAIM_MS = 60_000;
/** The notice key of the reply in the approval's thread (its metadata, by which a resend is found). */
const END_NOTICE = 'payment-end';

/** Who the audit trail says told the end. */
export type EndSource = 'webhook' | 'poll';

/**
 * - `settled`: this call moved the record to its end and its reply is posted (by this call or another);
 * - `ended`: it had ended already (another path got there first), its reply posted or being posted;
 * - `later`: ended, but its reply could not be posted now (Slack or the store failing): tried again later;
 * - `not-sent`: not sent yet (its approval's sending still under way): its end is read again later;
 * - `unknown`: no payment of this app has that id.
 */
export type SettleOutcome = 'settled' | 'ended' | 'later' | 'not-sent' | 'unknown';

/** The record a payment's end moves it to. */
function ended(record: MoneyOutRecord, end: PaymentEnd, at: string): MoneyOutRecord {
  const { stage, endToEndId, code, description } = end;
  return {
    ...record,
    stage,
    ...(endToEndId ? { endToEndId } : {}),
    ...(stage === 'failed' ? { failure: { ...(code ? { code } : {}), ...(description ? { description } : {}) } } : {}),
    endedAt: at,
    updatedAt: at,
  };
}

/**
 * Moves a payment to its end (once: of several paths telling it, one moves it) and posts it (finishPayment).
 * A payment is ended from `sent`; a removal also from `short` (created, approved for want of balance:
 * what the service's web app removes).
 */
export async function settlePayment(deps: Deps, id: string, end: PaymentEnd, source: EndSource): Promise<SettleOutcome> {
  const payments = moneyOutRecords(deps.store.records);
  let outcome: SettleOutcome = 'ended';
  for (;;) {
    const record = await payments.get(id);
    if (record?.kind !== 'pay') return 'unknown';
    if (hasEnded(record)) break;
    if (!(record.stage === 'sent' || (end.stage === 'removed' && record.stage === 'short'))) return 'not-sent';
    const next = ended(record, end, new Date().toISOString());
    if (await payments.compareAndSet(id, record, next)) {
      outcome = 'settled';
      deps.logger.info({ approval: id, stage: end.stage, code: end.code, source }, 'payment ended');
      await auditEnd(deps, next, source);
      break;
    }
  }
  return (await finishPayment(deps, id)) === 'later' ? 'later' : outcome;
}

/** One audit entry per end, by the writer that moved the record (nobody acted: it names the maker). */
async function auditEnd(deps: Deps, record: MoneyOutRecord, source: EndSource): Promise<void> {
  const approval = await deps.store.approvals.get(record.approvalId).catch(() => undefined);
  const maker = approval?.makerId ?? 'unknown';
  const code = record.failure?.code?.replace(/[^A-Z0-9_]/g, '').slice(0, 60);
  const detail =
    record.stage === 'confirmed'
      ? `confirmed${record.endToEndId ? ` e2e ${record.endToEndId.slice(0, 60)}` : ''}`
      : record.stage === 'failed'
        ? `failed ${code || 'no code'}`
        : 'removed';
  await deps.audit.record({
    user: maker,
    role: 'none',
    action: `payment:${record.stage}`,
    target: { approval: record.approvalId, account: record.accountId },
    maker,
    outcome: record.stage === 'confirmed' ? 'ok' : record.stage === 'failed' ? 'failed' : 'cancelled',
    detail: `${detail} (by ${source})`,
  });
}

/**
 * Posts an ended payment's reply, once, under its claim: `done` (posted now or before; or nothing can
 * be posted), `held` (another instance is at it), `open` (not ended yet), `later` (Slack or the store
 * failed: a later poll, or the event's next drain, tries again). Never rejects for Slack's sake.
 */
export async function finishPayment(deps: Deps, id: string): Promise<'done' | 'held' | 'open' | 'later'> {
  const claim = `money-out-end:${id}`;
  if (!(await deps.store.claim(claim, CLAIM_MS))) return 'held';
  try {
    const payments = moneyOutRecords(deps.store.records);
    const open = openPayments(deps.store.records);
    const record = await payments.get(id);
    if (record?.kind !== 'pay') {
      await open.delete(id);
      return 'done';
    }
    if (!hasEnded(record)) return 'open';
    if (record.replied) {
      await open.delete(id);
      return 'done';
    }
    // A failed or removed payment no longer counts toward PAY_DAY_LIMIT (given back once: a repeat does nothing).
    if (record.stage !== 'confirmed') await new DayLimit(deps.store.records, undefined).release(record.day, id);
    const approval = await deps.store.approvals.get(id);
    if (approval?.rootTs) {
      const entry = await open.get(id);
      const resumed = entry?.replying !== undefined;
      if (!resumed) await open.set(id, { ...(entry ?? { since: record.updatedAt }), replying: new Date().toISOString() });
      const input: PaymentEndInput = {
        stage: record.stage,
        value: record.value,
        accountId: record.accountId,
        ...(record.endToEndId ? { endToEndId: record.endToEndId } : {}),
        ...(record.failure?.code ? { code: record.failure.code } : {}),
        ...(record.failure?.description ? { description: record.failure.description } : {}),
        ...(record.failure?.code === BALANCE_CODE ? { available: await availableNow(deps, record.accountId) } : {}),
      };
      const message = present(deps, approval, paymentEndMessage(approval.makerLocale, input));
      try {
        await postOnce(
          deps.slack.exact,
          { channel: approval.channel, thread_ts: approval.rootTs, text: message.text, blocks: message.blocks },
          noticeOf(approval, END_NOTICE),
          { lookFirst: resumed, since: Date.parse(record.endedAt ?? record.updatedAt) || Date.parse(approval.createdAt) },
        );
      } catch (err) {
        if (!refusedBySlack(err)) {
          deps.logger.warn({ approval: id, ...describeError(err) }, 'a payment’s end was not posted; it is tried again later');
          return 'later';
        }
        // Made again it would be refused again (the channel archived, the bot removed): the record says it ended.
        deps.logger.error({ approval: id, ...describeError(err) }, 'a payment’s end could not be posted in its thread: Slack refused it');
      }
      await showMoneyOut(deps, id).catch((err: unknown) =>
        deps.logger.info({ approval: id, ...describeError(err) }, 'could not show a payment’s end on its root'),
      );
    } else {
      deps.logger.warn({ approval: id }, 'a payment ended whose approval has no thread: its end is in the record and the audit trail only');
    }
    for (let current: MoneyOutRecord = record; ; ) {
      if (await payments.compareAndSet(id, current, { ...current, replied: true, updatedAt: new Date().toISOString() })) break;
      const again = await payments.get(id);
      if (!again || again.replied) break;
      current = again;
    }
    await open.delete(id);
    return 'done';
  } catch (err) {
    deps.logger.warn({ approval: id, ...describeError(err) }, 'a payment’s end could not be finished; it is tried again later');
    return 'later';
  } finally {
    await deps.store.release(claim).catch(() => undefined);
  }
}

/** The account's available balance now (the API's cents), for a "not enough balance" failure; `unread` when it cannot be read. */
async function availableNow(deps: Deps, accountId: string): Promise<number | 'unread'> {
  try {
    const account = await deps.pix.getAccount(deps.mainAppId, accountId);
    return account.balance?.available ?? 'unread';
  } catch (err) {
    deps.logger.info({ account: accountId, ...describeError(err) }, 'could not read the balance for a payment’s end');
    return 'unread';
  }
}
