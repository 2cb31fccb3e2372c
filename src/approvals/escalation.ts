import type { ApprovalRecord } from '../store/approvals';

// Escalation: an approval still pending APPROVAL_ESCALATE_AFTER after it was asked is brought to
// ACCESS_ESCALATION once; from then on their members who hold the action's role may decide it too.
// When it is due and whom it widens the deciders to, as rules; the posting is escalate.ts's.

/** When an approval asked at `createdAt` is escalated; undefined when escalation is off. */
export function escalateAtFor(createdAt: Date, escalateAfterMs: number | undefined): string | undefined {
  return escalateAfterMs === undefined ? undefined : new Date(createdAt.getTime() + escalateAfterMs).toISOString();
}

/** Whether the approval has been escalated: its escalation posted. */
export const isEscalated = (record: Pick<ApprovalRecord, 'escalatedAt'>): boolean => record.escalatedAt !== undefined;

/** Whether its escalation is due now: pending with its root, its time come, not posted yet. */
export function escalationDue(record: ApprovalRecord, now: number): boolean {
  return (
    record.state === 'pending' &&
    record.rootTs !== '' &&
    record.escalateAt !== undefined &&
    !isEscalated(record) &&
    Date.parse(record.escalateAt) <= now
  );
}

/** Whether a person may decide it as a member of the escalation list: once it is escalated, and only then. */
export const decidesByEscalation = (record: Pick<ApprovalRecord, 'escalatedAt'>, inEscalationList: boolean): boolean =>
  inEscalationList && isEscalated(record);
