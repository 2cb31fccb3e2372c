import type { ApprovalKind } from '../src/approvals/kinds';
import { askApproval } from '../src/approvals/request';
import type { PayloadOf } from '../src/domain/approvals';
import { formatCents, parseReais } from '../src/domain/money';
import { type CommandRow, UsageError } from '../src/entry/table';
import { messages } from '../src/i18n';
import { moneyOutDoneRoot, releaseNotRun, reserveAtApproval } from '../src/payments/money-out';
import { PixApiError } from '../src/pix/errors';
import { code, plain } from '../views/message';
import { resolveAccountAppId } from './account-shared';
import { accountIdArg } from './parse';
import { resumeWithdraw, sendWithdraw } from './withdraw-send';

/**
 * `/pix withdraw <accountId> <amount>`: refused at once, with why, when the account has no withdraw
 * key, its withdraw is blocked, the amount is not one, or above the available balance read now;
 * otherwise a checker is asked (a withdraw always waits for one). Nothing is sent here.
 */
const withdrawCommand: CommandRow = {
  kind: 'command',
  id: 'withdraw',
  argsUsage: '<accountId> <amount>',
  summary: 'withdraw',
  what: 'askWithdraw',
  role: 'operator',
  minArgs: 2,
  maxArgs: 2,
  async handler({ deps, args, locale, userId, channelId }) {
    const m = messages(locale);
    const accountId = accountIdArg(locale, args[0]);
    const amount = parseReais(args[1] ?? '', locale);
    if (!amount.ok) throw new UsageError(m.money[amount.reason]);
    if (amount.cents <= 0) throw new UsageError(m.moneyOut.aboveZero);
    deps.audit.about({ account: accountId });
    let account: Awaited<ReturnType<typeof deps.pix.getAccount>>;
    try {
      account = await deps.pix.getAccount(deps.mainAppId, accountId);
    } catch (err) {
      if (err instanceof PixApiError && err.notFound) return plain(m.moneyOut.noSuchAccount(code(accountId)));
      throw err;
    }
    const refuse = (text: string) => {
      deps.audit.outcome('refused', 'withdraw not possible');
      return plain(text);
    };
    const key = account.pixKeyWithdraw;
    if (!key) return refuse(m.moneyOut.withdrawNoWithdrawKey(code(accountId)));
    if (account.withdrawBlocked) return refuse(m.moneyOut.withdrawBlocked(code(accountId)));
    const available = account.balance?.available;
    if (available === undefined) return refuse(m.moneyOut.balanceNotReported(code(accountId)));
    if (amount.cents > available) {
      return refuse(
        m.moneyOut.aboveBalance({
          account: code(accountId),
          amount: formatCents(amount.cents, locale),
          available: formatCents(available, locale),
        }),
      );
    }
    // Sent with the account's own AppID once approved: an account whose AppID is not known cannot be.
    const resolved = await resolveAccountAppId(deps, locale, accountId);
    if (!resolved.ok) return refuse(resolved.text);
    const payload: PayloadOf<'withdraw'> = {
      action: 'withdraw',
      accountId,
      value: amount.cents,
      withdrawKey: { pixKey: key.pixKey, type: key.type },
    };
    return plain(await askApproval(deps, { maker: { userId, locale }, channel: channelId, payload }));
  },
};

/** A withdraw, once approved: the day's limit reserved at the approval that sends it, then the one call (withdraw-send.ts). */
export const withdrawApproval: ApprovalKind<'withdraw'> = {
  action: 'withdraw',
  beforeRun: reserveAtApproval,
  notRun: releaseNotRun,
  execute: sendWithdraw,
  resume: resumeWithdraw,
  doneRoot: moneyOutDoneRoot,
};

export const withdrawRows = [withdrawCommand];
