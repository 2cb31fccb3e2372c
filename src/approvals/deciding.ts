import { type ApprovalRefusal, decidedText, refusalText } from '../../views/approvals';
import type { Deps } from '../entry/deps';
import { describeError } from '../errors';
import { type Locale, messages } from '../i18n';
import type { ApprovalRecord } from '../store/approvals';
import { auditAbout, auditTarget } from './audit';
import { type Held, holding, write } from './claim';
import type { ApprovalKinds } from './kinds';
import { makerStanding, runApproved, settle } from './running';
import { updateRootTolerant } from './thread';
import { type Actor, refusalToDecide } from './who-may-decide';

// Deciding an approval: approve, reject, or the maker's cancel; each a move out of `pending` under its
// claim, after asking who may decide (who-may-decide.ts). And how a refusal is told and recorded.

/** Whether a pending approval has waited past its APPROVAL_TTL. */
export const isPastExpiry = (record: ApprovalRecord, now: number) => Date.parse(record.expiresAt) <= now;

/** A word on a refusal, for the audit trail. */
const REFUSAL_DETAIL: Record<ApprovalRefusal['kind'], string> = {
  own: 'own action',
  role: 'needs role',
  'not-approver': 'not an approver',
  'not-maker': 'not the maker',
  'standing-unknown': 'maker role unknown',
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

/** Whoever holds the claim is deciding: wait a little for their decision, to say who it was. */
async function whoDecided(deps: Deps, locale: Locale, id: string): Promise<string> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const record = await deps.store.approvals.get(id);
    if (record?.state !== 'pending') return decidedText(locale, record);
    if (Date.now() > deadline) return messages(locale).approvals.busy;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Answer = { answer: string } | { record: ApprovalRecord };

/**
 * The preamble of every move out of `pending`, written once: under the claim, the record read
 * afresh; gone, decided or never registered, the clicker is told how it stands; past its expiry, it
 * is expired (and they are told). Otherwise `work` runs, still under the claim. When someone else
 * holds it, `wait` waits a little to say who decided (a button; never a form, which Slack gives 3 s).
 */
async function whilePending(
  deps: Deps,
  id: string,
  locale: Locale,
  wait: boolean,
  work: (held: Held, record: ApprovalRecord) => Promise<Answer | undefined>,
): Promise<Answer | undefined> {
  const held = await holding(deps, id, async (held) => {
    const fresh = await deps.store.approvals.get(id);
    if (fresh?.state !== 'pending' || !fresh.rootTs) return { answer: alreadyDecided(deps, decidedText(locale, fresh)) };
    if (isPastExpiry(fresh, Date.now())) {
      const expired = await endPending(deps, held, fresh, { state: 'expired' });
      return { answer: alreadyDecided(deps, decidedText(locale, expired)) };
    }
    return work(held, fresh);
  });
  if (held.ran) return held.value;
  return { answer: alreadyDecided(deps, wait ? await whoDecided(deps, locale, id) : messages(locale).approvals.busy) };
}

const answerOf = (result: Answer | undefined) => (result && 'answer' in result ? result.answer : undefined);

/** Reads the approval and checks the clicker may decide it: the record, or what to tell them. */
async function decidable(deps: Deps, id: string, actor: Actor): Promise<Answer> {
  const record = await deps.store.approvals.get(id);
  if (!record) return { answer: messages(actor.locale).approvals.notFound };
  auditAbout(deps, record);
  const refusal = await refusalToDecide(deps, record, actor);
  if (refusal) {
    deps.logger.info({ approval: id, user: actor.userId, action: record.action }, 'approval refused');
    return { answer: refused(deps, actor, refusal) };
  }
  // Allowed to decide: the checker from here on (a refused user is no checker).
  auditAbout(deps, record, actor.userId);
  if (record.state !== 'pending') return { answer: alreadyDecided(deps, decidedText(actor.locale, record)) };
  if (!record.rootTs || isPastExpiry(record, Date.now())) {
    // Under the claim: its root being recorded (busy), never recorded, or expired (recorded and shown
    // before the clicker is told). Nothing waits on whoever holds it.
    return (await whilePending(deps, id, actor.locale, false, async () => undefined)) ?? { record };
  }
  return { record };
}

/**
 * Approve: the claim, the maker's standing, then `approving` with the checker recorded, then the
 * action's write path, its outcome, and the root. Resolves with what to tell the checker, if
 * anything (the root says the rest).
 */
export async function approve(deps: Deps, kinds: ApprovalKinds, id: string, actor: Actor): Promise<string | undefined> {
  const found = await decidable(deps, id, actor);
  if ('answer' in found) return found.answer;
  const result = await whilePending(deps, id, actor.locale, true, async (held) => {
    const standing = await makerStanding(deps, found.record);
    if (standing === 'unknown') return { answer: refused(deps, actor, { kind: 'standing-unknown' }) };
    const approving = await write(deps, held, id, (r) => ({
      ...r,
      state: 'approving',
      checkerId: actor.userId,
      decidedAt: new Date().toISOString(),
    }));
    deps.logger.info({ approval: id, action: approving.action, maker: approving.makerId, checker: actor.userId }, 'approval approved');
    await updateRootTolerant(deps, approving).catch((err: unknown) =>
      deps.logger.info({ approval: id, ...describeError(err) }, 'could not show the approval as running'),
    );
    const ended = await runApproved(deps, kinds, approving, 'execute', held, standing === 'lost');
    deps.audit.outcome(
      ended?.state === 'failed' ? 'failed' : 'approved',
      ended ? (standing === 'lost' ? 'maker lost role' : undefined) : 'in doubt',
    );
    return undefined;
  });
  return answerOf(result);
}

/** The reject button: the same checks as approving (expiry included), then the form that asks why. */
export async function checkReject(deps: Deps, id: string, actor: Actor): Promise<Answer> {
  return decidable(deps, id, actor);
}

/**
 * The reject form's submission: `rejected` with the reason, under the claim. Answers at once (never
 * waits on someone else's claim: the form's acknowledgement has Slack's 3 s). Settle the result after
 * acknowledging.
 */
export async function reject(deps: Deps, id: string, actor: Actor, reason: string): Promise<Answer> {
  const found = await decidable(deps, id, actor);
  if ('answer' in found) return found;
  const result = await whilePending(deps, id, actor.locale, false, async (held, fresh) => {
    const rejected = await endPending(deps, held, fresh, { state: 'rejected', checkerId: actor.userId, reason }, { settle: false });
    deps.logger.info({ approval: id, action: rejected.action, maker: rejected.makerId, checker: actor.userId }, 'approval rejected');
    deps.audit.outcome('rejected');
    return { record: rejected };
  });
  return result ?? { answer: messages(actor.locale).approvals.notFound };
}

/** The maker's Cancel, while it is pending (and not past its expiry). Resolves with what to tell them, if anything. */
export async function cancel(deps: Deps, id: string, actor: Actor): Promise<string | undefined> {
  const record = await deps.store.approvals.get(id);
  if (!record) return messages(actor.locale).approvals.notFound;
  auditAbout(deps, record);
  if (record.makerId !== actor.userId) return refused(deps, actor, { kind: 'not-maker', makerId: record.makerId });
  const result = await whilePending(deps, id, actor.locale, true, async (held, fresh) => {
    await endPending(deps, held, fresh, { state: 'cancelled', checkerId: actor.userId });
    deps.logger.info({ approval: id, action: fresh.action, maker: fresh.makerId }, 'approval cancelled');
    deps.audit.outcome('cancelled');
    return undefined;
  });
  return answerOf(result);
}

/** Ends a pending approval without any Pix call (rejected, cancelled, expired), under its claim; settles it unless told not to yet. */
export async function endPending(
  deps: Deps,
  held: Held,
  record: ApprovalRecord,
  end: { state: 'rejected' | 'cancelled' | 'expired'; checkerId?: string; reason?: string },
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
    await settle(deps, ended).catch((err: unknown) =>
      deps.logger.warn({ approval: record.id, ...describeError(err) }, 'approval not settled yet; a later tick finishes it'),
    );
  return ended;
}
