import type { HomeView } from '@slack/types';
import pLimit from 'p-limit';
import { accessHomeView, type HomeApprovals, type HomeData, homeView } from '../../views/home';
import type { Part } from '../../views/part';
import type { ActiveDelegation } from '../approvals/delegation';
import { mayDecide, type Standing } from '../approvals/who-may-decide';
import type { Deps } from '../deps';
import type { Role } from '../domain/roles';
import { type Clock, systemClock } from '../domain/sao-paulo-date';
import { describeError } from '../errors';
import type { Locale } from '../i18n';
import type { ApprovalRecord } from '../store/approvals';
import type { DisputeRecord } from '../store/pix-events';
import type { TrackedRequest } from '../store/tracked-requests';
import { readDelegations, readHomeData, readOpenDisputes, readPendingApprovals } from './data';

/** Users whose Home tab shows the company's data, to refresh it when a request is decided. */
const VIEWER_TTL_MS = 24 * 60 * 60 * 1000;
const MAX_VIEWERS = 100;
const viewersOf = new WeakMap<object, Map<string, number>>();

function viewers(deps: Deps): Map<string, number> {
  let map = viewersOf.get(deps.store);
  if (!map) {
    map = new Map();
    viewersOf.set(deps.store, map);
  }
  return map;
}

function remember(deps: Deps, userId: string, at: number): void {
  const map = viewers(deps);
  map.delete(userId); // re-inserted last: the map stays in order of the latest opening
  map.set(userId, at);
  while (map.size > MAX_VIEWERS) map.delete(map.keys().next().value!);
}

/** What the tab reads once for every viewer. */
interface SharedData {
  home: HomeData;
  approvals: Part<ApprovalRecord[]>;
  /** The delegations in force (none when they cannot be read: the tab then shows no delegate's part). */
  delegations: ActiveDelegation[];
  /** The open Pix disputes, when the dispute desk is on. */
  disputes?: Part<DisputeRecord[]>;
}

async function readShared(deps: Deps, now: Date): Promise<SharedData> {
  const [home, approvals, disputes, delegations] = await Promise.all([
    readHomeData(deps, now),
    readPendingApprovals(deps),
    readOpenDisputes(deps),
    readDelegations(deps, now),
  ]);
  return { home, approvals, delegations, ...(disputes ? { disputes } : {}) };
}

/** A person's standing as the tab sees it (cached groups: the tab only shows; deciding looks them up afresh). */
async function standingOf(deps: Deps, userId: string, role?: Role): Promise<Standing> {
  const [known, approver, escalation] = await Promise.all([
    role ?? deps.access.roleOf(userId),
    deps.access.mayApprove(userId),
    deps.access.inEscalation(userId),
  ]);
  return { role: known, approver, escalation };
}

/**
 * The pending approvals this user may act on: decide (as the rule of who-may-decide.ts says, as a
 * delegate too), or cancel (their own); and their delegation.
 */
async function approvalsFor(deps: Deps, userId: string, role: Role, shared: SharedData): Promise<Part<HomeApprovals>> {
  if (!shared.approvals.ok) return shared.approvals;
  const now = shared.home.now.getTime();
  const lent = shared.delegations.filter((d) => d.delegate === userId);
  const [standing, delegators] = await Promise.all([
    standingOf(deps, userId, role),
    Promise.all(lent.map(async (d) => ({ id: d.awayUserId, standing: await standingOf(deps, d.awayUserId) }))),
  ]);
  const items = shared.approvals.value.flatMap((record) => {
    if (Date.parse(record.expiresAt) <= now) return [];
    if (record.makerId === userId) return [{ record }];
    const decision = mayDecide({ approval: record, intent: 'approve', user: { id: userId, standing }, delegators });
    return decision.may ? [{ record, ...(decision.forUserId ? { forUserId: decision.forUserId } : {}) }] : [];
  });
  const moneyOut = { forYou: { count: 0, total: 0 }, yours: { count: 0, total: 0 } };
  for (const { record } of items) {
    const p = record.payload;
    if (p.action !== 'pay' && p.action !== 'withdraw') continue;
    const waiting = record.makerId === userId ? moneyOut.yours : moneyOut.forYou;
    waiting.count++;
    waiting.total += p.value;
  }
  const away = shared.delegations.find((d) => d.awayUserId === userId);
  const delegation = {
    ...(away ? { away: { delegate: away.delegate, until: away.until } } : {}),
    decidingFor: lent.map((d) => ({ awayUserId: d.awayUserId, until: d.until })),
  };
  return {
    ok: true,
    value: { items, delegation, approversListed: deps.access.approversListed, enabled: deps.approvals.actions.size > 0, moneyOut },
  };
}

/** The Home tab for this user and role, in their language: only how to get access without a role (and no Pix API call). */
async function viewFor(
  deps: Deps,
  locale: Locale,
  userId: string,
  role: Role | undefined,
  shared: SharedData | undefined,
): Promise<HomeView> {
  if (!role || !shared)
    return accessHomeView(locale, { userId, accessConfigured: deps.access.configured || deps.sandboxMode, sandbox: deps.sandboxMode });
  return homeView(locale, {
    userId,
    role,
    data: shared.home,
    sandbox: deps.sandboxMode,
    approvals: await approvalsFor(deps, userId, role, shared),
    disputes: shared.disputes,
  });
}

async function publish(deps: Deps, userId: string, view: HomeView): Promise<boolean> {
  try {
    await deps.slack.retried.views.publish({ user_id: userId, view });
    return true;
  } catch (err) {
    deps.logger.warn({ user: userId, ...describeError(err) }, 'could not publish the Home tab');
    return false;
  }
}

/**
 * Builds and publishes one user's Home tab, for their role. Never rejects: a failure is logged (and
 * each part of the tab that cannot be read says so in the tab itself).
 */
export async function refreshHome(
  deps: Deps,
  userId: string,
  options: { now?: Clock; role?: Role | null; locale?: Locale } = {},
): Promise<boolean> {
  try {
    const now = (options.now ?? systemClock)();
    const role = options.role === undefined ? await deps.access.roleOf(userId) : (options.role ?? undefined);
    const locale = options.locale ?? (await deps.slack.locales.localeOf(userId));
    if (role) remember(deps, userId, now.getTime());
    const data = role ? await readShared(deps, now) : undefined;
    return await publish(deps, userId, await viewFor(deps, locale, userId, role, data));
  } catch (err) {
    deps.logger.warn({ user: userId, ...describeError(err) }, 'could not refresh the Home tab');
    return false;
  }
}

/**
 * Refreshes the Home tab of everyone who opened it in the last day (on this instance) and of the
 * request's requester, reading the data once. For the poller, once a tracked request is decided:
 * `void refreshHomesAfterDecision(deps, closedRecord)`. Never rejects.
 */
export async function refreshHomesAfterDecision(
  deps: Deps,
  decided?: Pick<TrackedRequest, 'requesterId'>,
  options: { now?: Clock } = {},
): Promise<number> {
  try {
    const now = (options.now ?? systemClock)();
    const since = now.getTime() - VIEWER_TTL_MS;
    const users = [...viewers(deps)].filter(([, at]) => at >= since).map(([id]) => id);
    if (decided && !users.includes(decided.requesterId)) users.push(decided.requesterId);
    if (users.length === 0) return 0;
    const roles = await Promise.all(
      users.map(async (id) => [id, await deps.access.roleOf(id), await deps.slack.locales.localeOf(id)] as const),
    );
    const data = roles.some(([, role]) => role) ? await readShared(deps, now) : undefined;
    const limit = pLimit(4);
    const done = await Promise.all(
      roles.map(([id, role, locale]) => limit(async () => publish(deps, id, await viewFor(deps, locale, id, role, data)))),
    );
    return done.filter(Boolean).length;
  } catch (err) {
    deps.logger.warn({ ...describeError(err) }, 'could not refresh the Home tabs');
    return 0;
  }
}
