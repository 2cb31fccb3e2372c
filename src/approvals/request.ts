import { randomBytes } from 'node:crypto';
import { APPROVAL_EVENT_TYPE, sentForApprovalText } from '../../views/approvals';
import type { Deps } from '../deps';
import type { ApprovalAction, ApprovalPayload } from '../domain/approvals';
import { ClaimLostError, describeError } from '../errors';
import { type Locale, messages } from '../i18n';
import { postRootMessage } from '../slack/thread-root';
import type { ApprovalRecord } from '../store/approvals';
import { isStoreUnavailable } from '../store/errors';
import { auditAbout } from './audit';
import { holding, write } from './claim';
import { escalateAtFor } from './escalation';
import { requiredApprovals } from './quorum';
import { disown, rootOf } from './thread';

// Requesting an approval: the maker's flow, where it would have made its first Pix write.

/** Whether `action` waits for a second person (APPROVALS; money out always: `deps.approvals.actions` holds it). */
export function approvalsOn(deps: Deps, action: ApprovalAction): boolean {
  return deps.approvals.actions.has(action);
}

/**
 * A payment's or a withdraw's source account balance, read as it is asked: its root shows it (and
 * flags it when lower than the amount). Unread (the Pix API failing), the root says so; the approval
 * is asked all the same, as its balance is checked again when it is sent.
 */
async function askedBalance(deps: Deps, payload: ApprovalPayload): Promise<ApprovalRecord['askedBalance']> {
  const accountId = payload.action === 'pay' ? payload.sourceAccountId : payload.action === 'withdraw' ? payload.accountId : undefined;
  if (accountId === undefined) return undefined;
  try {
    const account = await deps.pix.getAccount(deps.mainAppId, accountId);
    const available = account.balance?.available;
    return available === undefined || !Number.isInteger(available) ? undefined : { available, at: new Date().toISOString() };
  } catch (err) {
    deps.logger.warn({ account: accountId, ...describeError(err) }, 'could not read the balance of a money-out approval’s account');
    return undefined;
  }
}

/**
 * The maker's flow, at the point of its first Pix write: the approval is saved, then its root posted
 * in the channel (or a DM to the maker when the bot cannot post there), all under the approval's
 * claim. Nothing reaches the Pix API. `where` is undefined when the root could not be posted
 * anywhere: the approval is then cancelled. A failure once the root is posted leaves no live root:
 * it is updated to say it was not registered, without its buttons.
 */
async function requestApproval(
  deps: Deps,
  input: { maker: { userId: string; locale: Locale }; channel: string; payload: ApprovalPayload },
): Promise<{ record: ApprovalRecord; where?: { channel: string; dm: boolean } }> {
  const id = randomBytes(8).toString('hex');
  const locale = input.maker.locale;
  const balance = await askedBalance(deps, input.payload);
  let record: ApprovalRecord | undefined;
  // Held from before the record exists: the tick, which cancels a pending record without a root, cannot take it meanwhile.
  const posted = await holding(deps, id, async (held) => {
    const now = new Date();
    const remindAfter = deps.approvals.remindAfterMs;
    const required = requiredApprovals(input.payload, deps.approvals);
    const escalateAt = escalateAtFor(now, deps.approvals.escalateAfterMs);
    record = await deps.store.approvals.create(
      {
        id,
        makerId: input.maker.userId,
        makerLocale: locale,
        channel: input.channel,
        payload: input.payload,
        expiresAt: new Date(now.getTime() + deps.approvals.ttlMs).toISOString(),
        ...(remindAfter > 0 ? { remindAt: new Date(now.getTime() + remindAfter).toISOString() } : {}),
        ...(escalateAt ? { escalateAt } : {}),
        ...(required > 1 ? { required } : {}),
        ...(balance ? { askedBalance: balance } : {}),
      },
      now,
    );
    auditAbout(deps, record);
    const root = await postRootMessage(deps.slack.exact, deps.logger, {
      channel: input.channel,
      userId: input.maker.userId,
      message: rootOf(deps, record),
      metadata: { event_type: APPROVAL_EVENT_TYPE, event_payload: { approval_id: id } },
    });
    if (!root) {
      record = await write(deps, held, id, (r) => ({ ...r, state: 'cancelled', decidedAt: new Date().toISOString(), settled: true }));
      return undefined;
    }
    try {
      // A root posted elsewhere than asked (the maker's DM) keeps where it was asked: where the approvers are.
      const askedIn = root.channel === input.channel ? {} : { askedIn: input.channel };
      record = await write(deps, held, id, (r) => ({ ...r, channel: root.channel, rootTs: root.ts, ...askedIn }));
    } catch (err) {
      const orphan = { ...record, channel: root.channel, rootTs: root.ts };
      await disown(deps, orphan);
      throw err;
    }
    return root;
  });
  if (!posted.ran || !record) throw new ClaimLostError(`approval ${id} was claimed by someone else before it existed`);
  const root = posted.value;
  if (!root) {
    deps.audit.outcome('failed', 'root not posted');
    return { record };
  }
  deps.audit.outcome('pending');
  deps.logger.info({ approval: id, action: record.action, maker: record.makerId }, 'approval requested');
  return { record, where: { channel: root.channel, dm: root.dm } };
}

/**
 * `requestApproval`, for the maker's flow: what to tell the maker, in their language (where the root
 * went, or what failed: nothing is sent either way). Never rejects.
 */
export async function askApproval(deps: Deps, input: Parameters<typeof requestApproval>[1]): Promise<string> {
  const locale = input.maker.locale;
  try {
    const asked = await requestApproval(deps, input);
    return sentForApprovalText(locale, asked.record, asked.where);
  } catch (err) {
    deps.logger.warn({ action: input.payload.action, ...describeError(err) }, 'could not ask for approval');
    const m = messages(locale).common;
    return isStoreUnavailable(err) ? m.storeUnavailable : m.wentWrongNothingMore(messages(locale).actions.askApproval);
  }
}
