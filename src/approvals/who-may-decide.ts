import type { ApprovalRefusal } from '../../views/approvals';
import type { Deps } from '../deps';
import { APPROVAL_ROLE, type ApprovalAction } from '../domain/approvals';
import { type Role, roleAllows } from '../domain/roles';
import { describeError } from '../errors';
import type { Locale } from '../i18n';
import type { ApprovalRecord } from '../store/approvals';
import { isStoreUnavailable } from '../store/errors';
import { delegationsIn } from './delegations-repo';
import { decidesByEscalation } from './escalation';
import { completesWithOneMore, hasApproved, quorumOf } from './quorum';

// Who may decide an approval now, and whether one more approval completes it: the one question the
// deciding code (deciding.ts) asks before it approves or rejects. `mayDecide` is the rule, a pure
// function of the approval, the user's standing and the standing of those away who left them to
// decide; `judge` gathers those (groups asked of Slack afresh) and asks it. The parts of the rule
// are quorum.ts (how many), escalation.ts (whom an escalation adds) and delegation.ts (who decides
// for whom).

/** The acting user, as the router resolved them. */
export interface Actor {
  userId: string;
  role: Role;
  locale: Locale;
}

/** What a person may do, as far as deciding approvals goes, looked up afresh. */
export interface Standing {
  role: Role | undefined;
  /** Listed in ACCESS_APPROVERS (or anyone, when it is empty). */
  approver: boolean;
  /** Listed in ACCESS_ESCALATION. */
  escalation: boolean;
}

export type Intent = 'approve' | 'reject';

/** Everything the rule looks at. */
export interface DecisionCase {
  approval: Pick<ApprovalRecord, 'action' | 'makerId' | 'required' | 'approvedBy' | 'escalatedAt'>;
  intent: Intent;
  user: { id: string; standing: Standing };
  /** Those away who left this user to decide for them (delegations in force), each with their own standing. */
  delegators: ReadonlyArray<{ id: string; standing: Standing }>;
}

export type Decision =
  | {
      may: true;
      /** The away approver this user decides for, when only a delegation lets them. */
      forUserId?: string;
      /** This decision ends `pending`: a reject, or the approval that completes the quorum. */
      completes: boolean;
    }
  | { may: false; refusal: ApprovalRefusal };

/** Why this person may not decide it on their own standing, or undefined when they may. */
function ownRefusal(approval: DecisionCase['approval'], personId: string, standing: Standing): ApprovalRefusal | undefined {
  if (personId === approval.makerId) return { kind: 'own' };
  const needed = APPROVAL_ROLE[approval.action];
  if (!roleAllows(standing.role, needed)) return { kind: 'role', role: needed, action: approval.action };
  if (!standing.approver && !decidesByEscalation(approval, standing.escalation)) return { kind: 'not-approver', userId: personId };
  return undefined;
}

/**
 * May this user approve (or reject) this approval now, and does their approval complete it? Never
 * the maker; the action's role always; an approver, or (once it is escalated) a member of the
 * escalation list; otherwise, for someone away who could decide it and named them delegate. An
 * approval counts once per person: who already approved (or was approved for) is told so.
 */
export function mayDecide(c: DecisionCase): Decision {
  const quorum = quorumOf(c.approval);
  let forUserId: string | undefined;
  const own = ownRefusal(c.approval, c.user.id, c.user.standing);
  if (own) {
    // A delegation lends what the away person could decide, never the role itself, and never one's own action.
    if (own.kind !== 'not-approver') return { may: false, refusal: own };
    const lender = c.delegators.find(
      (d) => ownRefusal(c.approval, d.id, d.standing) === undefined && !(c.intent === 'approve' && hasApproved(quorum, d.id)),
    );
    if (!lender) return { may: false, refusal: own };
    forUserId = lender.id;
  }
  if (c.intent === 'approve' && (hasApproved(quorum, c.user.id) || (forUserId !== undefined && hasApproved(quorum, forUserId)))) {
    return { may: false, refusal: { kind: 'already-approved', given: quorum.given.length, needed: quorum.needed } };
  }
  return { may: true, ...(forUserId ? { forUserId } : {}), completes: c.intent === 'reject' || completesWithOneMore(quorum) };
}

/**
 * Whether someone with this standing may approve anything at all: an action of APPROVALS whose role
 * they hold, as an approver or a member of the escalation list. Who may not has nothing to delegate.
 */
export function mayApproveSomething(standing: Standing, actions: Iterable<ApprovalAction>): boolean {
  if (!standing.approver && !standing.escalation) return false;
  return [...actions].some((action) => roleAllows(standing.role, APPROVAL_ROLE[action]));
}

/** The rule for one user, their standing gathered: asked again of the record as it is under the claim. */
export type Judge = (approval: ApprovalRecord) => Decision;

/** A person's standing, looked up afresh (their groups asked of Slack now); rejects when Slack does not answer. */
export async function standingOf(deps: Deps, userId: string): Promise<Standing> {
  const [role, approver, escalation] = await Promise.all([
    deps.access.roleOf(userId, { fresh: true }),
    deps.access.mayApprove(userId, { fresh: true }),
    // Asked whenever there is a list: the rule is asked again under the claim, of a record that may have been escalated meanwhile.
    deps.access.escalationIds.length > 0 ? deps.access.inEscalation(userId, { fresh: true }) : false,
  ]);
  return { role, approver, escalation };
}

/**
 * The rule for this user on this approval, their standing (and that of whoever they decide for)
 * looked up afresh: a group changed while the approval waited counts at once. When Slack does not
 * answer, nobody is let through on an old answer: the user is refused and told to try again.
 */
export async function judge(deps: Deps, record: ApprovalRecord, actor: Actor, intent: Intent): Promise<Judge> {
  const refuse =
    (refusal: ApprovalRefusal): Judge =>
    () => ({ may: false, refusal });
  if (record.makerId === actor.userId) return refuse({ kind: 'own' });
  try {
    const user = { id: actor.userId, standing: await standingOf(deps, actor.userId) };
    const alone = mayDecide({ approval: record, intent, user, delegators: [] });
    if (alone.may || alone.refusal.kind !== 'not-approver') return (approval) => mayDecide({ approval, intent, user, delegators: [] });
    const lent = await delegationsIn(deps.store).forDelegate(actor.userId, new Date());
    const delegators = await Promise.all(lent.map(async (d) => ({ id: d.awayUserId, standing: await standingOf(deps, d.awayUserId) })));
    return (approval) => mayDecide({ approval, intent, user, delegators });
  } catch (err) {
    if (isStoreUnavailable(err)) throw err;
    deps.logger.warn({ user: actor.userId, ...describeError(err) }, 'could not look the checker’s standing up afresh');
    return refuse({ kind: 'lookup-failed' });
  }
}
