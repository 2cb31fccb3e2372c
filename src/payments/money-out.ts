import { pixErrorText } from '../../views/errors';
import { escapeClipped, type SlackMessage } from '../../views/message';
import { type MoneyOutRootExtras, moneyOutRoot } from '../../views/money-out-root';
import type { ApprovalRun } from '../approvals/kinds';
import { present, updateRootTolerant } from '../approvals/thread';
import type { AuditTarget } from '../audit/entry';
import type { Deps } from '../deps';
import type { ApprovalPayload } from '../domain/approvals';
import { formatCents } from '../domain/money';
import { describeError } from '../errors';
import { type Locale, messages } from '../i18n';
import { PixApiError } from '../pix/errors';
import type { ApprovalRecord } from '../store/approvals';
import { DayLimit, saoPauloDay } from './day-limit';
import { type MoneyOutRecord, moneyOutRecords } from './records';

// What a payment and a withdraw share once approved: the day's limit reserved at the approval that
// would send, the money-out record moved stage by stage (compare-and-set: any instance, any order),
// the root drawn from the two records, and the audit trail's steps.

/** What a money-out approval sends: from which account, how much. */
export function moneyOutOf(payload: ApprovalPayload): { kind: 'pay' | 'withdraw'; accountId: string; value: number } | undefined {
  if (payload.action === 'pay') return { kind: 'pay', accountId: payload.sourceAccountId, value: payload.value };
  if (payload.action === 'withdraw') return { kind: 'withdraw', accountId: payload.accountId, value: payload.value };
  return undefined;
}

export const dayLimitOf = (deps: Deps) => new DayLimit(deps.store.records, deps.approvals.payDayLimitCents);

/** Refused by PAY_DAY_LIMIT: what the checker is told (in their language), and the audit trail's word. */
export interface DayRefusal {
  text: string;
  detail: string;
}

/**
 * PAY_DAY_LIMIT at the approval that would send (the last one needed, or a retry): `value` counted
 * against the São Paulo day of `at` for this approval, across instances; or the refusal, with the
 * day's total so far, the amount and the limit. Counted already (a resumption), it passes.
 */
export async function reserveDay(
  deps: Deps,
  approvalId: string,
  value: number,
  at: Date,
  locale: Locale,
  when: 'approval' | 'retry' = 'approval',
): Promise<{ ok: true; day: string } | { ok: false; refusal: DayRefusal }> {
  const reservation = await dayLimitOf(deps).reserve(saoPauloDay(at), approvalId, value);
  if (reservation.ok) return { ok: true, day: reservation.day };
  const money = (cents: number) => formatCents(cents, locale);
  deps.logger.info(
    { approval: approvalId, day: reservation.day, total: reservation.total, value, limit: reservation.limit },
    'money out refused: it would pass the day’s limit',
  );
  return {
    ok: false,
    refusal: {
      text: messages(locale).moneyOut[when === 'retry' ? 'dayLimitRetry' : 'dayLimitRefused']({
        total: money(reservation.total),
        amount: money(value),
        limit: money(reservation.limit),
      }),
      detail: `day limit: ${reservation.total} + ${value} > ${reservation.limit} cents`,
    },
  };
}

/** The day no longer counts it (refused by the service, not sent for want of balance). Never rejects: logged. */
export async function releaseDay(deps: Deps, record: MoneyOutRecord): Promise<void> {
  await dayLimitOf(deps)
    .release(record.day, record.approvalId)
    .catch((err: unknown) =>
      deps.logger.error(
        { approval: record.approvalId, day: record.day, ...describeError(err) },
        'could not release a day’s limit reservation',
      ),
    );
}

/**
 * Moves a money-out record by compare-and-set: `change` sees it as it is now and says what it becomes
 * (undefined: it stays). Creates it when there is none and `change` makes one. Resolves with the
 * record as it stands.
 */
export async function moveMoneyOut(
  deps: Deps,
  approvalId: string,
  change: (current: MoneyOutRecord | undefined) => Omit<MoneyOutRecord, 'updatedAt'> | undefined,
): Promise<MoneyOutRecord | undefined> {
  const records = moneyOutRecords(deps.store.records);
  for (;;) {
    const current = await records.get(approvalId);
    const wanted = change(current);
    if (!wanted) return current;
    const next: MoneyOutRecord = { ...wanted, updatedAt: new Date().toISOString() };
    const wrote = current ? await records.compareAndSet(approvalId, current, next) : await records.setIfAbsent(approvalId, next);
    if (wrote) return next;
  }
}

/**
 * Refused by the service (or not sendable): nothing sent, its record `failed` from `sending` with the
 * service's words (its end already told by the approval's failure), and the day no longer counts it.
 */
export async function endNotSent(deps: Deps, approvalId: string, description?: string): Promise<void> {
  const ended = await moveMoneyOut(deps, approvalId, (current) =>
    current?.stage === 'sending'
      ? {
          ...current,
          stage: 'failed',
          endedAt: new Date().toISOString(),
          replied: true,
          ...(description ? { failure: { description: description.slice(0, 500) } } : {}),
        }
      : undefined,
  );
  if (ended) await releaseDay(deps, ended);
}

/** A refusal of the service's in a sentence: its own words, quoted, or what its status means when it gave none. */
export const serviceWords = (locale: Locale, err: PixApiError): string =>
  err.error ? `“${escapeClipped(err.error, 500)}”` : pixErrorText(locale, err, 'runApprovedAction', { write: true });

/** An available balance as a money-out record keeps it (when the service gave one in cents), read now. */
export const balanceAt = (available: number | undefined, at = new Date().toISOString()): MoneyOutRecord['balance'] =>
  available !== undefined && Number.isInteger(available) ? { available, at } : undefined;

/** An account's available balance read now, for a root that shows it; undefined (logged) when it cannot be read. */
export async function balanceNow(deps: Deps, approvalId: string, accountId: string): Promise<MoneyOutRecord['balance']> {
  try {
    return balanceAt((await deps.pix.getAccount(deps.mainAppId, accountId)).balance?.available);
  } catch (err) {
    deps.logger.warn({ approval: approvalId, account: accountId, ...describeError(err) }, 'could not read the balance of money not sent');
    return undefined;
  }
}

/** The stage `sending` of an approved payment or withdraw, written at its first run with the day its limit was reserved in; the record as it stands. */
export function startSending(
  run: ApprovalRun,
  out: { kind: MoneyOutRecord['kind']; accountId: string; value: number },
): Promise<MoneyOutRecord | undefined> {
  const { record } = run;
  return moveMoneyOut(run.deps, record.id, (current) =>
    current
      ? undefined
      : {
          approvalId: record.id,
          ...out,
          day: saoPauloDay(new Date(record.decidedAt ?? Date.now())),
          stage: 'sending',
          sentBy: record.checkerId ?? record.makerId,
        },
  );
}

export const moneyOutRecordOf = (deps: Deps, approvalId: string) => moneyOutRecords(deps.store.records).get(approvalId);

/** The root of a money-out approval as its two records stand (without the SANDBOX badge: `present` adds it). */
export function moneyOutMessage(deps: Deps, approval: ApprovalRecord, record: MoneyOutRecord | undefined): SlackMessage {
  const extras: MoneyOutRootExtras = { approversListed: deps.access.approversListed };
  return moneyOutRoot(approval.makerLocale, approval, record, extras);
}

/** The root as posted (SANDBOX badge included). */
export const moneyOutRootOf = (deps: Deps, approval: ApprovalRecord, record: MoneyOutRecord | undefined): SlackMessage =>
  present(deps, approval, moneyOutMessage(deps, approval, record));

/** A money-out kind's `beforeRun`: the day's limit reserved at the approval that would send, or the checker's refusal. */
export async function reserveAtApproval(
  deps: Deps,
  record: ApprovalRecord,
  input: { locale: Locale; at: Date },
): Promise<DayRefusal | undefined> {
  const out = moneyOutOf(record.payload);
  if (!out) return undefined;
  const reserved = await reserveDay(deps, record.id, out.value, input.at, input.locale);
  return reserved.ok ? undefined : reserved.refusal;
}

/**
 * A money-out kind's `notRun`: a reservation left at an approval that did not leave `pending` (its
 * instance died, the store failed) no longer counts once the approval is rejected, cancelled or expired.
 */
export async function releaseNotRun(deps: Deps, record: ApprovalRecord): Promise<void> {
  if (moneyOutOf(record.payload)) await dayLimitOf(deps).releaseAnyDay(record.id, new Date(record.createdAt), new Date());
}

/** A money-out kind's `doneRoot`: the root drawn from its money-out record. */
export async function moneyOutDoneRoot(deps: Deps, record: ApprovalRecord): Promise<SlackMessage> {
  return moneyOutMessage(deps, record, await moneyOutRecordOf(deps, record.id));
}

/**
 * Updates a money-out approval's root to show its records as they stand now: after a stage moved
 * (the settlement's confirmed, failed, removed). A root that is gone is left as it is.
 */
export async function showMoneyOut(deps: Deps, approvalId: string): Promise<void> {
  const [approval, record] = await Promise.all([deps.store.approvals.get(approvalId), moneyOutRecordOf(deps, approvalId)]);
  if (!approval) return;
  await updateRootTolerant(deps, approval, moneyOutRootOf(deps, approval, record));
}

/** A step of a payment or a withdraw, in the audit trail, on the entry of whoever's approval runs it. */
export async function auditStep(deps: Deps, approval: ApprovalRecord, action: string, detail?: string): Promise<void> {
  const out = moneyOutOf(approval.payload);
  const target: AuditTarget = {
    approval: approval.id,
    ...(out ? { account: out.accountId } : {}),
    ...(approval.payload.action === 'pay' ? { payment: approval.id } : {}),
  };
  await deps.audit.record({ action, target, outcome: 'ok', ...(detail ? { detail } : {}) });
}

/** An id the service gave (an `endToEndId`), fit for the audit trail's detail: its letters and digits only. */
export const idWord = (id: string | undefined) => (id ?? '').replace(/[^A-Za-z0-9]/g, '').slice(0, 40);

/**
 * Whether a write that failed this way may have been carried out: no answer, a time-out, an answer
 * that could not be read, any 5xx. Anything else is the service's own refusal: it did not do it.
 */
export function mayHaveBeenDone(err: unknown): boolean {
  if (!(err instanceof PixApiError)) return true;
  return err.mayHaveWritten || (err.kind === 'http' && err.status >= 500);
}
