import { randomUUID } from 'node:crypto';
import { BALANCE_ALERT_EVENT_TYPE, belowAlertMessage, blockedAlertMessage } from '../../views/balance-alerts';
import { presentMessage } from '../../views/message';
import type { Deps } from '../deps';
import { describeError } from '../errors';
import { DEFAULT_LOCALE } from '../i18n';
import type { Account } from '../pix/schemas';
import { slackErrorCode } from '../slack/error-code';
import { postOnce, refusedBySlack } from '../slack/post-once';
import { type BalanceMark, BalanceMarks, type PendingAlert } from '../store/balance-marks';
import { isBelow } from './data';

/** Accounts whose marks one sweep reads, at most (the company's accounts, in one listing). */
const MAX_ACCOUNTS = 10_000;
/** How long one instance holds an account while it posts its alerts. */
const CLAIM_MS = 60_000;

export interface BalanceAlertSettings {
  /** BALANCE_ALERT_BELOW in cents. */
  belowCents: number;
  /** DIGEST_CHANNEL, else PIX_EVENTS_CHANNEL. */
  channel: string;
}

export interface BalanceSweepReport {
  accounts: number;
  /** Alerts posted by this sweep. */
  posted: number;
}

type State = Pick<BalanceMark, 'below' | 'blocked'>;

/** An account's state as read now; without a balance in the answer, its `below` as last seen. */
function stateOf(account: Account, belowCents: number, last: BalanceMark | undefined): State {
  return {
    below: account.balance === undefined ? (last?.below ?? false) : isBelow(account, belowCents),
    blocked: account.withdrawBlocked === true,
  };
}

/** The alerts a change from `last` to `now` calls for: a crossing below the threshold, a block that appeared. */
function crossings(last: State, now: State, account: Account, belowCents: number): PendingAlert[] {
  const at = new Date().toISOString();
  const alerts: PendingAlert[] = [];
  if (!last.below && now.below)
    alerts.push({ id: randomUUID(), kind: 'below', available: account.balance?.available ?? 0, threshold: belowCents, at });
  if (!last.blocked && now.blocked) alerts.push({ id: randomUUID(), kind: 'blocked', at });
  return alerts;
}

const changed = (last: BalanceMark, now: State) => last.below !== now.below || last.blocked !== now.blocked;

/**
 * One sweep of the balance alerts, on the poll schedule: the accounts with their balances in one Pix
 * call (`GET /api/v1/account`), every account's last seen state in one store read, and only for an
 * account whose state changed (or that has an alert left to post) a claim and a compare-and-set.
 *
 * An account that goes from at or above the threshold to below it gets one alert, and one whose
 * withdrawals become blocked gets one; the alert is decided by moving the account's mark (so of
 * several instances seeing the crossing, one decides it), then posted once with its id in the
 * metadata (a sweep resuming it looks for it first). An account seen for the first time is only
 * recorded: no crossing was seen (the digest lists it if it is below, or blocked).
 */
export async function sweepBalanceAlerts(deps: Deps, settings: BalanceAlertSettings): Promise<BalanceSweepReport> {
  const accounts = await deps.pix.listAccounts(deps.mainAppId);
  const marks = new BalanceMarks(deps.store.records);
  const seen = await marks.all(MAX_ACCOUNTS);
  let posted = 0;
  for (const account of accounts) {
    const last = seen.get(account.accountId);
    const now = stateOf(account, settings.belowCents, last);
    try {
      if (!last) await marks.first(account.accountId, { ...now, pending: [] });
      else if (changed(last, now) || last.pending.length > 0) posted += await settle(deps, marks, account, settings);
    } catch (err) {
      deps.logger.warn(
        { account: account.accountId, ...describeError(err) },
        'the balance alerts of an account failed; the next sweep tries again',
      );
    }
  }
  return { accounts: accounts.length, posted };
}

/** Under the account's claim: the mark moved from what it is now, then its alerts posted and cleared one by one. */
async function settle(deps: Deps, marks: BalanceMarks, account: Account, settings: BalanceAlertSettings): Promise<number> {
  const claim = `balance-alert:${account.accountId}`;
  if (!(await deps.store.claim(claim, CLAIM_MS))) return 0;
  try {
    const last = await marks.get(account.accountId);
    if (!last) return 0;
    const now = stateOf(account, settings.belowCents, last);
    const fresh = crossings(last, now, account, settings.belowCents);
    let current: BalanceMark = { ...now, pending: [...last.pending, ...fresh] };
    if ((changed(last, now) || fresh.length > 0) && !(await marks.move(account.accountId, last, current))) return 0;
    let posted = 0;
    for (const alert of current.pending) {
      const done = await postAlert(deps, account.accountId, alert, settings.channel, last.pending.includes(alert));
      if (!done) continue;
      const next = { ...current, pending: current.pending.filter((p) => p.id !== alert.id) };
      if (!(await marks.move(account.accountId, current, next))) break;
      current = next;
      if (done === 'posted') posted++;
    }
    return posted;
  } finally {
    await deps.store.release(claim).catch(() => undefined);
  }
}

/** Posts one alert once: `posted`; `dropped` when Slack refuses it (said in the log, once); undefined: try on the next sweep. */
async function postAlert(
  deps: Deps,
  accountId: string,
  alert: PendingAlert,
  channel: string,
  resumed: boolean,
): Promise<'posted' | 'dropped' | undefined> {
  const message =
    alert.kind === 'below'
      ? belowAlertMessage(DEFAULT_LOCALE, { accountId, available: alert.available ?? 0, thresholdCents: alert.threshold ?? 0 })
      : blockedAlertMessage(DEFAULT_LOCALE, { accountId });
  const shown = presentMessage(message, DEFAULT_LOCALE, deps.sandboxMode);
  try {
    await postOnce(
      deps.slack.exact,
      { channel, text: shown.text, blocks: shown.blocks },
      { event_type: BALANCE_ALERT_EVENT_TYPE, event_payload: { alert_id: alert.id } },
      { lookFirst: resumed, since: Date.parse(alert.at) },
    );
    deps.logger.info({ account: accountId, alert: alert.kind, channel }, 'balance alert posted');
    return 'posted';
  } catch (err) {
    const code = slackErrorCode(err);
    if (refusedBySlack(err)) {
      deps.logger.error(
        { account: accountId, alert: alert.kind, channel, slackError: code },
        'a balance alert could not be posted: Slack refused it (is the bot in DIGEST_CHANNEL, or PIX_EVENTS_CHANNEL?); the digest still lists the account',
      );
      return 'dropped';
    }
    deps.logger.warn(
      { account: accountId, alert: alert.kind, ...describeError(err) },
      'a balance alert was not posted; the next sweep tries again',
    );
    return undefined;
  }
}
