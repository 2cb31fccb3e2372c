import { type Decision, HOME_MAX, type HomeData } from '../../views/home';
import type { Part } from '../../views/part';
import type { ActiveDelegation } from '../approvals/delegation';
import { delegationsIn } from '../approvals/delegations-repo';
import type { Deps } from '../deps';
import { describeError } from '../errors';
import { part } from '../slack/surface-part';
import type { ApprovalRecord } from '../store/approvals';
import type { DisputeRecord } from '../store/pix-events';
import type { TrackedRequest } from '../store/tracked-requests';

/** Limit requests read from the Pix API to find the latest decisions among them (newest first). */
const DECISION_SCAN = 20;
/** Tracked records read at most for one Home tab (the open ones are few in practice). */
const MAX_TRACKED_READS = 200;

const workspaceUrls = new WeakMap<object, Promise<string | undefined>>();

/**
 * The workspace's URL (`https://acme.slack.com/`), from auth.test, asked once per Slack client: the
 * base of message permalinks (`<url>archives/<channel>/p<ts without the dot>`).
 */
function workspaceUrl(deps: Deps): Promise<string | undefined> {
  const slack = deps.slack.retried;
  let url = workspaceUrls.get(slack);
  if (!url) {
    url = slack.auth
      .test()
      .then((r) => (typeof r.url === 'string' && /^https?:\/\//.test(r.url) ? r.url.replace(/\/?$/, '/') : undefined))
      .catch(() => {
        workspaceUrls.delete(slack); // asked again next time
        return undefined;
      });
    workspaceUrls.set(slack, url);
  }
  return url;
}

/** The tracked requests still open, oldest first (the longest waiting on top). */
async function openTracked(deps: Deps): Promise<TrackedRequest[]> {
  const ids = [...new Set(await deps.store.trackedRequests.openIds())].slice(0, MAX_TRACKED_READS);
  const records = await Promise.all(ids.map((id) => deps.store.trackedRequests.get(id).catch(() => undefined)));
  return records.filter((r): r is TrackedRequest => r !== undefined && !r.closed).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

const isDecided = (status: string, approvedLimits: unknown) =>
  status === 'REJECTED' || (status === 'APPROVED' && approvedLimits !== undefined);

/**
 * The latest decided requests of the company, from `GET /api/v1/limits/request` (newest first), each
 * with its thread when Pix Ops follows it.
 *
 * The store can list only the open tracked requests (`openIds`); a tracked request whose decision
 * reply is posted but not yet closed is among them and counts too. Once the store can list closed
 * ones, tracked decisions can be shown without the API's list.
 */
async function latestDecisions(deps: Deps, open: TrackedRequest[]): Promise<Decision[]> {
  const { items } = await deps.pix.listLimitRequests(deps.mainAppId, { limit: DECISION_SCAN, skip: 0 });
  const decided = items.filter((r) => isDecided(r.status, r.approvedLimits)).slice(0, HOME_MAX.decisions);
  const decisions = await Promise.all(
    decided.map(async (request) => ({ request, tracked: await deps.store.trackedRequests.get(request.id).catch(() => undefined) })),
  );
  // Decided and replied in its thread, not yet closed, and not in the API's first page.
  for (const t of open) {
    if (!t.reply || decisions.some((d) => d.request.id === t.limitRequestId)) continue;
    decisions.push({
      request: {
        id: t.limitRequestId,
        companyBankAccountId: t.accountId,
        status: t.reply.status,
        requestedLimits: t.requested,
        ...(t.reply.approved ? { approvedLimits: t.reply.approved } : {}),
        ...(t.reply.decidedAt ? { updatedAt: t.reply.decidedAt } : {}),
      },
      tracked: t,
    });
  }
  return decisions.sort((a, b) => (b.request.updatedAt ?? '').localeCompare(a.request.updatedAt ?? '')).slice(0, HOME_MAX.decisions);
}

/** Everything the Home tab shows (the same for every authorized user); each part fails on its own. */
export async function readHomeData(deps: Deps, now: Date): Promise<HomeData> {
  const trackedPart = await part(deps.logger, 'readTrackedRequests', () => openTracked(deps));
  const open = trackedPart.ok ? trackedPart.value : [];
  const inReviewAll = open.filter((r) => !r.reply);
  const [decisions, accounts, base] = await Promise.all([
    part(deps.logger, 'readLatestRequests', () => latestDecisions(deps, open)),
    part(deps.logger, 'listAccounts', () => deps.pix.listAccounts(deps.mainAppId)),
    workspaceUrl(deps),
  ]);
  return {
    now,
    inReview: trackedPart.ok
      ? { ok: true, value: { items: inReviewAll.slice(0, HOME_MAX.inReview), total: inReviewAll.length } }
      : trackedPart,
    decisions,
    accounts,
    link: (channel, ts) =>
      base && /^\d+\.\d+$/.test(ts) ? `${base}archives/${encodeURIComponent(channel)}/p${ts.replace('.', '')}` : undefined,
  };
}

/** Approvals read at most for one Home tab. */
const MAX_APPROVAL_READS = 200;

/** The approvals still pending (past their expiry or not: the tab leaves out those), oldest first. */
export async function readPendingApprovals(deps: Deps): Promise<Part<ApprovalRecord[]>> {
  return part(deps.logger, 'readApprovals', async () => {
    const ids = [...new Set(await deps.store.approvals.openIds())].slice(0, MAX_APPROVAL_READS);
    const records = await Promise.all(ids.map((id) => deps.store.approvals.get(id).catch(() => undefined)));
    return records
      .filter((r): r is ApprovalRecord => r?.state === 'pending' && r.rootTs !== '')
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  });
}

/** The delegations in force; none when they cannot be read (the tab leaves the delegate's part out then). */
export async function readDelegations(deps: Deps, now: Date): Promise<ActiveDelegation[]> {
  if (deps.approvals.actions.size === 0) return [];
  return delegationsIn(deps.store)
    .active(now)
    .catch((err: unknown) => {
      deps.logger.warn({ ...describeError(err) }, 'could not read the delegations (Home tab)');
      return [];
    });
}

/** The open Pix disputes (the store's record of them), when the dispute desk is on; undefined when it is off. */
export async function readOpenDisputes(deps: Deps): Promise<Part<DisputeRecord[]> | undefined> {
  if (!deps.pixEventsChannel) return undefined;
  return part(deps.logger, 'seeHome', () => deps.store.pixEvents.openDisputes());
}
