import { refusalText } from '../../views/approvals';
import { auditAbout } from '../approvals/audit';
import { holding, write } from '../approvals/claim';
import type { ApprovalKinds } from '../approvals/kinds';
import { makerStanding, runApproved } from '../approvals/running';
import { updateRootTolerant } from '../approvals/thread';
import { type Actor, judge } from '../approvals/who-may-decide';
import type { Deps } from '../deps';
import { describeError } from '../errors';
import { messages } from '../i18n';
import type { ApprovalRecord } from '../store/approvals';
import { moneyOutRecordOf, moneyOutRootOf, moveMoneyOut, reserveDay } from './money-out';

// `payment_retry`: a payment approved and not sent for want of balance, approved again at the service
// once the money has come in. One person who may decide it (never its maker: the quorum was met when
// it was approved), the day's limit checked again, then the same payment (its one `correlationID`)
// read and approved while CREATED, through the approval's own write path: the approval goes back to
// `approving` with the intent `approve`, so a crash mid-way is resumed by the tick like any other.

/** The approval as one more person would decide it: their own standing counts, not the approvals given before. */
const asOneMore = (record: ApprovalRecord): ApprovalRecord => ({ ...record, approvedBy: [], required: 1 });

/** The retry button: what to tell the clicker, if anything (the root says the rest). */
export async function retryPayment(deps: Deps, kinds: ApprovalKinds, id: string, actor: Actor): Promise<string | undefined> {
  const m = messages(actor.locale);
  const record = await deps.store.approvals.get(id);
  if (record?.payload.action !== 'pay') return m.approvals.notFound;
  auditAbout(deps, record);
  const decision = (await judge(deps, asOneMore(record), actor, 'approve'))(asOneMore(record));
  if (!decision.may) {
    deps.audit.outcome('refused', decision.refusal.kind);
    return refusalText(actor.locale, decision.refusal);
  }
  auditAbout(deps, record, actor.userId);
  const value = record.payload.value;
  const held = await holding(deps, id, async (held) => {
    const [fresh, money] = await Promise.all([deps.store.approvals.get(id), moneyOutRecordOf(deps, id)]);
    if (fresh?.state !== 'done' || money?.stage !== 'short') {
      deps.audit.outcome('refused', 'not waiting for a retry');
      return m.moneyOut.retryNotShort;
    }
    const standing = await makerStanding(deps, fresh);
    if (standing !== 'ok') {
      deps.audit.outcome('refused', `maker ${standing === 'lost' ? 'lost role' : 'role unknown'}`);
      return standing === 'lost'
        ? m.approvalRules.makerLostRole({ maker: `<@${fresh.makerId}>`, role: m.common.role('operator') })
        : m.approvalRules.makerStandingUnknown;
    }
    const reserved = await reserveDay(deps, id, value, new Date(), actor.locale, 'retry');
    if (!reserved.ok) {
      deps.audit.outcome('refused', reserved.refusal.detail);
      return reserved.refusal.text;
    }
    const sending = await moveMoneyOut(deps, id, (current) =>
      current?.stage === 'short'
        ? { ...current, stage: 'sending', day: reserved.day, sentBy: actor.userId, retries: (current.retries ?? 0) + 1 }
        : undefined,
    );
    const approving = await write(deps, held, id, (r) => ({
      ...r,
      state: 'approving',
      settled: false,
      intent: { step: 'approve', at: new Date().toISOString() },
    }));
    deps.logger.info({ approval: id, user: actor.userId }, 'payment retried');
    deps.audit.outcome('approved', 'retry');
    await updateRootTolerant(deps, approving, moneyOutRootOf(deps, approving, sending)).catch((err: unknown) =>
      deps.logger.info({ approval: id, ...describeError(err) }, 'could not show the retry as running'),
    );
    await runApproved(deps, kinds, approving, 'resume', held);
    return undefined;
  });
  if (!held.ran) {
    deps.audit.outcome('refused', 'busy');
    return m.approvals.busy;
  }
  return held.value;
}
