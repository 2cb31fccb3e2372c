import { type ApprovalRefusal, decidedText, refusalText } from '../../views/approvals';
import type { Deps } from '../deps';
import { describeError } from '../errors';
import { type Locale, messages } from '../i18n';
import type { ApprovalRecord } from '../store/approvals';
import { auditAbout, auditTarget } from './audit';
import { type Held, holding, write } from './claim';
import { type ApprovalKinds, kindOf } from './kinds';
import { makerStanding, runApproved, settle } from './running';
import { updateRootTolerant } from './thread';
import { type Actor, type Decision, type Intent, type Judge, judge } from './who-may-decide';

// Deciding an approval: approve, reject, or the maker's cancel; each a move out of `pending` under its
// claim, after asking who may decide (who-may-decide.ts), which also says whether an approval
// completes it or is one of two. And how a refusal is told and recorded.

/** Whether a pending approval has waited past its APPROVAL_TTL. */
export const isPastExpiry = (record: ApprovalRecord, now: number) => Date.parse(record.expiresAt) <= now;

/** A word on a refusal, for the audit trail. */
const REFUSAL_DETAIL: Record<ApprovalRefusal['kind'], string> = {
  own: 'own action',
  role: 'needs role',
  'not-approver': 'not an approver',
  'not-maker': 'not the maker',
  'standing-unknown': 'maker role unknown',
  'already-approved': 'already approved',
  'lookup-failed': 'checker groups not looked up',
};

function refused(deps: Deps, actor: Actor, refusal: ApprovalRefusal): string {
  deps.audit.outcome('refused', refusal.kind === 'role' ? `needs ${refusal.role}` : REFUSAL_DETAIL[refusal.kind]);
  return refusalText(actor.locale, refusal);
}

/** A click on an approval that left `pending` (decided, being decided, never registered): told, and recorded as refused. */
function alreadyDecided(deps: Deps, text: string): string {
  deps.audit.outcome('refused', 'already decided');
  return text;
}

/** How long a click waits for someone else's hold on an approval (a decision, a reminder) before it is told to look again. */
export const WAIT_FOR_CLAIM_MS = 3_000;
/** How often such a click looks at the claim again meanwhile. */
export const LOOK_AGAIN_MS = 100;

type Answer = { answer: string } | { record: ApprovalRecord };

/**
 * The preamble of every move out of `pending`, written once: under the claim, the record read
 * afresh; gone, decided or never registered, the clicker is told how it stands; past its expiry, it
 * is expired (and they are told). Otherwise `work` runs, still under the claim. When someone else
 * holds it, `wait` waits a little (a button; never a form, which Slack gives 3 s): for the claim, when
 * it is still pending after their turn (a first of two approvals, a reminder), else to say who decided.
 */
async function whilePending(
  deps: Deps,
  kinds: ApprovalKinds,
  id: string,
  locale: Locale,
  wait: boolean,
  work: (held: Held, record: ApprovalRecord) => Promise<Answer | undefined>,
): Promise<Answer | undefined> {
  const busy = () => {
    deps.audit.outcome('refused', 'busy');
    return { answer: messages(locale).approvals.busy };
  };
  const deadline = Date.now() + WAIT_FOR_CLAIM_MS;
  for (;;) {
    const held = await holding(deps, id, async (held) => {
      const fresh = await deps.store.approvals.get(id);
      if (fresh?.state !== 'pending' || !fresh.rootTs) return { answer: alreadyDecided(deps, decidedText(locale, fresh)) };
      if (isPastExpiry(fresh, Date.now())) {
        const expired = await endPending(deps, kinds, held, fresh, { state: 'expired' });
        return { answer: alreadyDecided(deps, decidedText(locale, expired)) };
      }
      return work(held, fresh);
    });
    if (held.ran) return held.value;
    if (!wait) return busy();
    const record = await deps.store.approvals.get(id);
    if (record?.state !== 'pending') return { answer: alreadyDecided(deps, decidedText(locale, record)) };
    if (Date.now() > deadline) return busy();
    await new Promise((resolve) => setTimeout(resolve, LOOK_AGAIN_MS));
  }
}

const answerOf = (result: Answer | undefined) => (result && 'answer' in result ? result.answer : undefined);

/** A refused decision, logged, told and recorded. */
function refusedDecision(deps: Deps, actor: Actor, record: ApprovalRecord, refusal: ApprovalRefusal): string {
  deps.logger.info({ approval: record.id, user: actor.userId, action: record.action, refusal: refusal.kind }, 'approval refused');
  return refused(deps, actor, refusal);
}

/** A word on a decision for the audit trail: which of two approvals it is, and whom a delegate decided for. */
function decisionDetail(record: ApprovalRecord, decision: Decision, extra?: string): string | undefined {
  if (!decision.may) return extra;
  const given = (record.approvedBy?.length ?? 0) + 1;
  const needed = record.required ?? 1;
  const parts = [
    ...(needed > 1 ? [`${Math.min(given, needed)} of ${needed} approvals`] : []),
    ...(decision.forUserId ? [`for ${decision.forUserId} (delegation)`] : []),
    ...(extra ? [extra] : []),
  ];
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/**
 * Reads the approval and checks the clicker may decide it: the record with the rule for this user (to
 * ask again under the claim), or what to tell them.
 */
async function decidable(
  deps: Deps,
  kinds: ApprovalKinds,
  id: string,
  actor: Actor,
  intent: Intent,
): Promise<{ answer: string } | { record: ApprovalRecord; judge: Judge }> {
  const record = await deps.store.approvals.get(id);
  if (!record) return { answer: messages(actor.locale).approvals.notFound };
  auditAbout(deps, record);
  const rule = await judge(deps, record, actor, intent);
  const decision = rule(record);
  if (!decision.may) return { answer: refusedDecision(deps, actor, record, decision.refusal) };
  // Allowed to decide: the checker from here on (a refused user is no checker).
  auditAbout(deps, record, actor.userId);
  if (record.state !== 'pending') return { answer: alreadyDecided(deps, decidedText(actor.locale, record)) };
  if (!record.rootTs || isPastExpiry(record, Date.now())) {
    // Under the claim: its root being recorded (busy), never recorded, or expired (recorded and shown
    // before the clicker is told). Nothing waits on whoever holds it.
    const answer = answerOf(await whilePending(deps, kinds, id, actor.locale, false, async () => undefined));
    if (answer !== undefined) return { answer };
  }
  return { record, judge: rule };
}

/**
 * Approve: the claim, the rule asked again of the record as it is now (another approval may have
 * come first); one of two approvals is recorded and shown, nothing sent. The approval that completes
 * it: the maker's standing, then `approving` with the checkers recorded, then the action's write
 * path, its outcome, and the root. Resolves with what to tell the checker, if anything (the root says
 * the rest).
 */
export async function approve(deps: Deps, kinds: ApprovalKinds, id: string, actor: Actor): Promise<string | undefined> {
  const found = await decidable(deps, kinds, id, actor, 'approve');
  if ('answer' in found) return found.answer;
  const result = await whilePending(deps, kinds, id, actor.locale, true, async (held, fresh) => {
    const decision = found.judge(fresh);
    if (!decision.may) return { answer: refusedDecision(deps, actor, fresh, decision.refusal) };
    const at = new Date().toISOString();
    const given = [
      ...(fresh.approvedBy ?? []),
      { userId: actor.userId, at, ...(decision.forUserId ? { forUserId: decision.forUserId } : {}) },
    ];
    if (!decision.completes) {
      const recorded = await write(deps, held, id, (r) => ({ ...r, approvedBy: given }), fresh);
      deps.logger.info(
        { approval: id, action: fresh.action, checker: actor.userId, given: given.length },
        'approval given, one more needed',
      );
      deps.audit.outcome('approved', decisionDetail(fresh, decision));
      await updateRootTolerant(deps, recorded).catch((err: unknown) =>
        deps.logger.info({ approval: id, ...describeError(err) }, 'could not show the approval given'),
      );
      return { answer: messages(actor.locale).approvals.quorumRecorded({ given: given.length, needed: fresh.required ?? 1 }) };
    }
    const standing = await makerStanding(deps, fresh);
    if (standing === 'unknown') return { answer: refused(deps, actor, { kind: 'standing-unknown' }) };
    const before =
      standing === 'ok' ? await kinds[fresh.action].beforeRun?.(deps, fresh, { locale: actor.locale, at: new Date(at) }) : undefined;
    if (before) {
      deps.audit.outcome('refused', before.detail);
      return { answer: before.text };
    }
    const approving = await write(
      deps,
      held,
      id,
      (r) => ({ ...r, state: 'approving', checkerId: actor.userId, decidedAt: at, approvedBy: given }),
      fresh,
    );
    deps.logger.info({ approval: id, action: approving.action, maker: approving.makerId, checker: actor.userId }, 'approval approved');
    await updateRootTolerant(deps, approving).catch((err: unknown) =>
      deps.logger.info({ approval: id, ...describeError(err) }, 'could not show the approval as running'),
    );
    const ended = await runApproved(deps, kinds, approving, 'execute', held, standing === 'lost');
    deps.audit.outcome(
      ended?.state === 'failed' ? 'failed' : 'approved',
      decisionDetail(fresh, decision, ended ? (standing === 'lost' ? 'maker lost role' : undefined) : 'in doubt'),
    );
    return undefined;
  });
  return answerOf(result);
}

/** The reject button: the same checks as approving (expiry included), then the form that asks why. */
export async function checkReject(deps: Deps, kinds: ApprovalKinds, id: string, actor: Actor): Promise<Answer> {
  const found = await decidable(deps, kinds, id, actor, 'reject');
  return 'answer' in found ? found : { record: found.record };
}

/**
 * The reject form's submission: `rejected` with the reason, under the claim. Answers at once (never
 * waits on someone else's claim: the form's acknowledgement has Slack's 3 s). Settle the result after
 * acknowledging.
 */
export async function reject(deps: Deps, kinds: ApprovalKinds, id: string, actor: Actor, reason: string): Promise<Answer> {
  const found = await decidable(deps, kinds, id, actor, 'reject');
  if ('answer' in found) return found;
  const result = await whilePending(deps, kinds, id, actor.locale, false, async (held, fresh) => {
    const decision = found.judge(fresh);
    if (!decision.may) return { answer: refusedDecision(deps, actor, fresh, decision.refusal) };
    const rejected = await endPending(
      deps,
      kinds,
      held,
      fresh,
      { state: 'rejected', checkerId: actor.userId, reason, ...(decision.forUserId ? { checkerFor: decision.forUserId } : {}) },
      { settle: false },
    );
    deps.logger.info({ approval: id, action: rejected.action, maker: rejected.makerId, checker: actor.userId }, 'approval rejected');
    deps.audit.outcome('rejected', decision.forUserId ? `for ${decision.forUserId} (delegation)` : undefined);
    return { record: rejected };
  });
  return result ?? { answer: messages(actor.locale).approvals.notFound };
}

/** The maker's Cancel, while it is pending (and not past its expiry). Resolves with what to tell them, if anything. */
export async function cancel(deps: Deps, kinds: ApprovalKinds, id: string, actor: Actor): Promise<string | undefined> {
  const record = await deps.store.approvals.get(id);
  if (!record) return messages(actor.locale).approvals.notFound;
  auditAbout(deps, record);
  if (record.makerId !== actor.userId) return refused(deps, actor, { kind: 'not-maker', makerId: record.makerId });
  const result = await whilePending(deps, kinds, id, actor.locale, true, async (held, fresh) => {
    await endPending(deps, kinds, held, fresh, { state: 'cancelled', checkerId: actor.userId });
    deps.logger.info({ approval: id, action: fresh.action, maker: fresh.makerId }, 'approval cancelled');
    deps.audit.outcome('cancelled');
    return undefined;
  });
  return answerOf(result);
}

/** Ends a pending approval without any Pix call (rejected, cancelled, expired), under its claim; settles it unless told not to yet. */
export async function endPending(
  deps: Deps,
  kinds: ApprovalKinds,
  held: Held,
  record: ApprovalRecord,
  end: { state: 'rejected' | 'cancelled' | 'expired'; checkerId?: string; checkerFor?: string; reason?: string },
  options: { settle?: boolean } = {},
): Promise<ApprovalRecord> {
  const ended = await write(deps, held, record.id, (r) => ({ ...r, ...end, decidedAt: new Date().toISOString() }));
  if (end.state === 'expired') {
    // Nobody acted: the entry names the maker, whose action waited past APPROVAL_TTL.
    await deps.audit.record({
      user: record.makerId,
      role: 'none',
      action: 'approval:expire',
      target: auditTarget(record),
      maker: record.makerId,
      outcome: 'expired',
    });
  }
  if (options.settle !== false)
    await settle(deps, ended, kindOf(kinds, ended.action)).catch((err: unknown) =>
      deps.logger.warn({ approval: record.id, ...describeError(err) }, 'approval not settled yet; a later tick finishes it'),
    );
  return ended;
}
