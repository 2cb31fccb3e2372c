import { DIGEST_SHOWN, type DigestData, type Listed, type WaitingApproval } from '../../views/digest';
import { mentionsOf } from '../access';
import { stillToCall } from '../approvals/calling';
import { isEscalated } from '../approvals/escalation';
import type { Deps } from '../deps';
import { APPROVAL_ROLE } from '../domain/approvals';
import { type MoneyOutSummary, moneyOutSince } from '../payments/digest';
import type { PixClient } from '../pix/client';
import type { Account } from '../pix/schemas';
import { part } from '../slack/surface-part';
import type { ApprovalRecord } from '../store/approvals';
import { DigestSlots } from '../store/digest-slots';
import type { TrackedRequest } from '../store/tracked-requests';

/** Records of one digest part read in one round trip to the store: thousands waiting are read a few hundred at a time. */
const READ_BATCH = 200;

/** What the digest reads with: the Pix client in the lane it runs in (a person's, or the poller's behind them). */
export interface DigestSources {
  deps: Deps;
  pix: PixClient;
  now: Date;
}

/** The `shown` first of `items` by `order`, and how many there are: a heap would save little at these sizes. */
function firstOf<T>(items: T[], order: (a: T, b: T) => number, shown = DIGEST_SHOWN): Listed<T> {
  return { items: [...items].sort(order).slice(0, shown), total: items.length };
}

/**
 * The oldest `shown` of the records of `ids` that `keep` accepts, and how many it accepts: read a
 * batch at a time, only the oldest so far kept, so thousands waiting are never all in memory at once.
 * A record gone meanwhile is left out.
 */
async function oldestOf<T extends { createdAt: string }>(
  ids: string[],
  readMany: (ids: string[]) => Promise<Array<T | undefined>>,
  keep: (record: T) => boolean,
): Promise<Listed<T>> {
  const unique = [...new Set(ids)];
  let oldest: T[] = [];
  let total = 0;
  for (let i = 0; i < unique.length; i += READ_BATCH) {
    const batch = await readMany(unique.slice(i, i + READ_BATCH));
    const kept = batch.filter((r): r is T => r !== undefined && keep(r));
    total += kept.length;
    oldest = [...oldest, ...kept].sort((a, b) => a.createdAt.localeCompare(b.createdAt)).slice(0, DIGEST_SHOWN);
  }
  return { items: oldest, total };
}

/** Approvals still waiting for a decision (pending, their root posted, not expired), oldest first, with who may decide. */
async function waitingApprovals({ deps, now }: DigestSources): Promise<Listed<WaitingApproval>> {
  const { items, total } = await oldestOf(
    await deps.store.approvals.openIds(),
    (ids) => deps.store.approvals.getMany(ids),
    (r) => r.state === 'pending' && r.rootTs !== '' && Date.parse(r.expiresAt) > now.getTime(),
  );
  return {
    items: items.map((record) => ({ record, mayDecide: mentionsOf(whoMayDecide(deps, record)) })),
    total,
  };
}

/** Who may decide it now, as reminders call on them: its approvers still to decide, and the escalation list once escalated. */
function whoMayDecide(deps: Deps, record: ApprovalRecord): string[] {
  const ids = deps.access.approverIds(APPROVAL_ROLE[record.action]);
  return stillToCall([...new Set([...ids, ...(isEscalated(record) ? deps.access.escalationIds : [])])], record);
}

/** The limit requests Pix Ops follows that are still in review (no decision yet), oldest first. */
async function requestsInReview({ deps }: DigestSources): Promise<Listed<TrackedRequest>> {
  return oldestOf(
    await deps.store.trackedRequests.openIds(),
    (ids) => deps.store.trackedRequests.getMany(ids),
    (r) => !r.closed && !r.reply,
  );
}

/** The accounts below the threshold (lowest available first) and those whose withdrawals are blocked: one Pix call. */
async function accountsToWatch({ deps, pix }: DigestSources, belowCents: number | undefined) {
  const accounts = await pix.listAccounts(deps.mainAppId);
  const below =
    belowCents === undefined
      ? []
      : accounts.filter((a): a is Account & { balance: NonNullable<Account['balance']> } => isBelow(a, belowCents));
  return {
    below: firstOf(below, (a, b) => a.balance.available - b.balance.available),
    blocked: firstOf(
      accounts.filter((a) => a.withdrawBlocked === true),
      (a, b) => a.accountId.localeCompare(b.accountId),
    ),
  };
}

/** Whether an account's available balance (as read) is below the threshold; no balance read: no. */
export function isBelow(account: Account, belowCents: number): boolean {
  return account.balance !== undefined && account.balance.available < belowCents;
}

/** When "since the last digest" starts when no digest was posted yet: a day before now. */
const NO_DIGEST_YET_MS = 86_400_000;

/** Money out since the last digest posted (a day back before the first): sent, and failed. */
async function moneyOutPart({ deps, now }: DigestSources): Promise<MoneyOutSummary> {
  const last = await new DigestSlots(deps.store.records).lastPosted();
  const since = last ? new Date(last) : new Date(now.getTime() - NO_DIGEST_YET_MS);
  return moneyOutSince(deps, since, now);
}

/** Everything the digest says, each part read on its own (one failing leaves the others). */
export async function readDigestData(sources: DigestSources, belowCents: number | undefined): Promise<DigestData> {
  const { deps } = sources;
  const [approvals, inReview, disputes, accounts, moneyOut] = await Promise.all([
    part(deps.logger, 'readApprovals', () => waitingApprovals(sources), 'digest'),
    part(deps.logger, 'readTrackedRequests', () => requestsInReview(sources), 'digest'),
    deps.pixEventsChannel
      ? part(
          deps.logger,
          'readOpenDisputes',
          async () => firstOf(await deps.store.pixEvents.openDisputes(), (a, b) => a.firstAt.localeCompare(b.firstAt)),
          'digest',
        )
      : undefined,
    part(deps.logger, 'listAccounts', () => accountsToWatch(sources, belowCents), 'digest'),
    part(deps.logger, 'readDigest', () => moneyOutPart(sources), 'digest'),
  ]);
  return {
    now: sources.now,
    approvals,
    inReview,
    ...(disputes ? { disputes } : {}),
    accounts,
    moneyOut,
    ...(belowCents === undefined ? {} : { belowCents }),
  };
}
