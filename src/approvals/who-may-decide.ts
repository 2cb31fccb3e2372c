import type { ApprovalRefusal } from '../../views/approvals';
import { APPROVAL_ROLE } from '../domain/approvals';
import { type Role, roleAllows } from '../domain/roles';
import type { Deps } from '../entry/deps';
import { describeError } from '../errors';
import type { Locale } from '../i18n';
import type { ApprovalRecord } from '../store/approvals';

// Who may decide an approval now: the one question the deciding code (deciding.ts) asks before it
// approves or rejects. Today one decision does it, by anyone but the maker who holds the action's
// role and may approve (ACCESS_APPROVERS), both looked up afresh. Rules of who decides, and how many
// decisions an approval needs, belong here.

/** The acting user, as the router resolved them. */
export interface Actor {
  userId: string;
  role: Role;
  locale: Locale;
}

/**
 * Why this user may not approve or reject this approval, or undefined when they may. Their groups are
 * asked of Slack afresh (a group changed while the approval waited counts at once); when Slack does
 * not answer, the router's cached answer stands.
 */
export async function refusalToDecide(deps: Deps, record: ApprovalRecord, actor: Actor): Promise<ApprovalRefusal | undefined> {
  if (record.makerId === actor.userId) return { kind: 'own' };
  const needed = APPROVAL_ROLE[record.action];
  let role: Role | undefined;
  let approver: boolean;
  try {
    [role, approver] = await Promise.all([
      deps.access.roleOf(actor.userId, { fresh: true }),
      deps.access.mayApprove(actor.userId, { fresh: true }),
    ]);
  } catch (err) {
    deps.logger.warn({ user: actor.userId, ...describeError(err) }, 'could not look the checker’s groups up afresh');
    [role, approver] = [actor.role, await deps.access.mayApprove(actor.userId)];
  }
  if (role === undefined || !roleAllows(role, needed)) return { kind: 'role', role: needed, action: record.action };
  if (!approver) return { kind: 'not-approver', userId: actor.userId };
  return undefined;
}
