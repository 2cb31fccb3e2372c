import type { ApprovalResult, ApprovalRun } from '../src/approvals/kinds';
import { formatCents } from '../src/domain/money';
import type { WithdrawPayload } from '../src/domain/money-out';
import { messages } from '../src/i18n';
import {
  auditStep,
  balanceAt,
  balanceNow,
  endNotSent,
  idWord,
  mayHaveBeenDone,
  moneyOutRecordOf,
  moveMoneyOut,
  serviceWords,
  startSending,
} from '../src/payments/money-out';
import { PixApiError } from '../src/pix/errors';
import type { ApprovalIntent } from '../src/store/approvals';
import { escapeClipped, plain } from '../views/message';
import { findEntries } from '../views/statement';
import { resolveAccountAppId } from './account-shared';

// Sending an approved withdraw (pix-money-out.md §3). The service has no idempotency key for it: the
// intent is recorded before the one call, made with the account's own AppID, and a call that may have
// been carried out (no answer, a time-out, any 5xx) is never sent again, not even by a resumption —
// its outcome is unknown, and the root shows the account's balance and latest statement entries.

/** The statement entries shown beside an unknown outcome. */
const LATEST_ENTRIES = 5;

/** Not sent (refused, or no AppID to send it with): the day no longer counts it, and the approval fails with why. */
async function notSent(run: ApprovalRun, problem: string, description?: string): Promise<ApprovalResult> {
  await endNotSent(run.deps, run.record.id, description);
  return { ok: false, problem };
}

/** Refused by the service: its words, and why when the account now reads `withdrawBlocked` (the DICT did not find its key). */
async function refused(run: ApprovalRun, p: WithdrawPayload, err: PixApiError): Promise<ApprovalResult> {
  const m = messages(run.locale).moneyOut;
  const blocked = await run.deps.pix
    .getAccount(run.deps.mainAppId, p.accountId)
    .then((a) => a.withdrawBlocked === true)
    .catch(() => false);
  return notSent(run, [m.withdrawRefused(serviceWords(run.locale, err)), ...(blocked ? [m.withdrawNowBlocked] : [])].join(' '), err.error);
}

/** The call may have been carried out: never sent again; the balance and the latest statement entries read for the root. */
async function unknown(run: ApprovalRun, p: WithdrawPayload, appId: string | undefined): Promise<ApprovalResult> {
  const { deps } = run;
  const [balance, entries] = await Promise.all([
    balanceNow(deps, run.record.id, p.accountId),
    appId
      ? deps.pix
          .getStatement(appId)
          .then((body) => findEntries(body)?.entries.slice(0, LATEST_ENTRIES))
          .catch(() => undefined)
      : undefined,
  ]);
  await moveMoneyOut(deps, run.record.id, (current) =>
    current?.stage === 'sending'
      ? { ...current, stage: 'unknown', ...(balance ? { balance } : {}), ...(entries ? { entries } : {}) }
      : undefined,
  );
  deps.logger.warn(
    { approval: run.record.id, account: p.accountId },
    'a withdraw got no clear answer: its outcome is unknown, and it is not sent again',
  );
  await auditStep(deps, run.record, 'withdraw:unknown');
  await run.inThread(plain(messages(run.locale).moneyOut.unknownThread), 'unknown');
  return { ok: true };
}

/** The withdraw's write path: the account's AppID, the intent, then the one call. */
export async function sendWithdraw(run: ApprovalRun, p: WithdrawPayload): Promise<ApprovalResult> {
  const { deps } = run;
  const started = await startSending(run, { kind: 'withdraw', accountId: p.accountId, value: p.value });
  if (started && started.stage !== 'sending') return { ok: true };
  const resolved = await resolveAccountAppId(deps, run.locale, p.accountId);
  if (!resolved.ok) return notSent(run, resolved.text);
  await run.intent('withdraw');
  let answer: Awaited<ReturnType<typeof deps.pix.withdraw>>;
  try {
    answer = await deps.pix.withdraw(resolved.appId, p.accountId, p.value);
  } catch (err) {
    if (!(err instanceof PixApiError) || mayHaveBeenDone(err)) return unknown(run, p, resolved.appId);
    return refused(run, p, err);
  }
  const endToEndId = answer.transaction?.endToEndId;
  const available = answer.account?.balance?.available;
  const now = new Date().toISOString();
  const balance = balanceAt(available, now);
  await moveMoneyOut(deps, run.record.id, (current) =>
    current?.stage === 'sending'
      ? {
          ...current,
          stage: 'withdrawn',
          sentAt: now,
          endedAt: now,
          ...(endToEndId ? { endToEndId } : {}),
          ...(balance ? { balance } : {}),
        }
      : undefined,
  );
  deps.logger.info({ approval: run.record.id, account: p.accountId }, 'withdrawn');
  await auditStep(deps, run.record, 'withdraw:sent', endToEndId ? `endToEndId ${idWord(endToEndId)}` : undefined);
  const m = messages(run.locale).moneyOut;
  await run.inThread(
    plain(
      m.withdrawnThread({
        endToEndId: endToEndId ? `\`${escapeClipped(endToEndId, 100)}\`` : m.unknownPart,
        balance: balance ? formatCents(balance.available, run.locale) : m.unknownPart,
      }),
    ),
    'withdrawn',
  );
  return { ok: true };
}

/**
 * After a crash: with the intent `withdraw` recorded, the call may have been made, and nothing tells:
 * never sent again, its outcome unknown. Without it, the call was not made: sent now.
 */
export async function resumeWithdraw(run: ApprovalRun, p: WithdrawPayload, intent: ApprovalIntent | undefined): Promise<ApprovalResult> {
  const record = await moneyOutRecordOf(run.deps, run.record.id);
  if (record && record.stage !== 'sending') return { ok: true };
  if (intent?.step !== 'withdraw') return sendWithdraw(run, p);
  await startSending(run, { kind: 'withdraw', accountId: p.accountId, value: p.value });
  const resolved = await resolveAccountAppId(run.deps, run.locale, p.accountId).catch(() => undefined);
  return unknown(run, p, resolved?.ok ? resolved.appId : undefined);
}
