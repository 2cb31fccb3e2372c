import type { ApprovalAction, ApprovalGiven, ApprovalPayload } from '../domain/approvals';

// Two checkers: how many distinct people must approve an action, and who has approved it so far.
// Decided once, when it is asked (the root says it from the start); a record asked before the rule
// existed needs one.

export interface QuorumSettings {
  /** APPROVAL_QUORUM_ABOVE, in cents: a limit request with a requested field above it, or a payment or withdraw of more, needs two. */
  quorumAboveCents?: number;
  /** APPROVAL_QUORUM_ACTIONS: these always need two. */
  quorumActions: ReadonlySet<ApprovalAction>;
}

/** How many distinct checkers an action needs before its Pix calls run. */
export function requiredApprovals(payload: ApprovalPayload, settings: QuorumSettings): 1 | 2 {
  if (settings.quorumActions.has(payload.action)) return 2;
  const above = settings.quorumAboveCents;
  if (above === undefined) return 1;
  if (payload.action === 'limit-request' && Object.values(payload.limits).some((cents) => cents > above)) return 2;
  // Money out: the amount paid or withdrawn.
  if ((payload.action === 'pay' || payload.action === 'withdraw') && payload.value > above) return 2;
  return 1;
}

/** What an approval's quorum stands at: the approvals given so far, and how many it needs. */
export interface Quorum {
  given: readonly ApprovalGiven[];
  needed: number;
}

export const quorumOf = (record: { required?: number; approvedBy?: ApprovalGiven[] }): Quorum => ({
  given: record.approvedBy ?? [],
  needed: record.required ?? 1,
});

/** Whether this person already counts among the approvals: as the one who clicked, or as whom a delegate clicked for. */
export const hasApproved = (quorum: Quorum, userId: string): boolean =>
  quorum.given.some((a) => a.userId === userId || a.forUserId === userId);

/** Whether one more approval completes it (then the Pix calls run). */
export const completesWithOneMore = (quorum: Quorum): boolean => quorum.given.length + 1 >= quorum.needed;
