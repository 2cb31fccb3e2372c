import { approvalReplyMessage, withApprovalNote } from '../../views/approvals';
import { failureText } from '../../views/errors';
import type { Deps } from '../deps';
import { APPROVAL_ROLE } from '../domain/approvals';
import { roleAllows } from '../domain/roles';
import { ClaimLostError, describeError } from '../errors';
import { messages } from '../i18n';
import { slackErrorCode } from '../slack/error-code';
import { openDm, postOnce } from '../slack/post-once';
import { isUnreachable } from '../slack/thread-root';
import type { ApprovalRecord } from '../store/approvals';
import { isStoreUnavailable } from '../store/errors';
import { auditAbout } from './audit';
import { type Held, holding, write } from './claim';
import { ApprovalInDoubtError, type ApprovalKind, type ApprovalKinds, type ApprovalResult, type ApprovalRun, kindOf } from './kinds';
import { directMessage, noticeOf, postInThread, present, updateRootTolerant } from './thread';

// Running an approved action (its kind's write path), or finishing one an instance left half done,
// and then settling the approval: showing it for what it ended as.

/** The maker's standing now: whether they still have the action's role (groups asked of Slack afresh), or unknown when Slack does not answer. */
export async function makerStanding(deps: Deps, record: ApprovalRecord): Promise<'ok' | 'lost' | 'unknown'> {
  try {
    const role = await deps.access.roleOf(record.makerId, { fresh: true });
    return role !== undefined && roleAllows(role, APPROVAL_ROLE[record.action]) ? 'ok' : 'lost';
  } catch (err) {
    deps.logger.warn({ approval: record.id, ...describeError(err) }, 'could not check the maker’s role');
    return 'unknown';
  }
}

/**
 * Runs an approved action (`execute`), or finishes one an instance left in `approving` (`resume`),
 * records its outcome, then settles it. The caller holds the claim; each write checks it first, and
 * a lapsed claim stops the run (its new holder resumes it). A maker who lost the action's role
 * (checked afresh on a resumption) makes it fail with nothing written. Resolves with the ended
 * record, or undefined when it is left in `approving` for a later tick.
 */
export async function runApproved(
  deps: Deps,
  kinds: ApprovalKinds,
  approving: ApprovalRecord,
  mode: 'execute' | 'resume',
  held: Held,
  makerLost = false,
): Promise<ApprovalRecord | undefined> {
  let record = approving;
  const locale = record.makerLocale;
  const kind = kindOf(kinds, record.action);
  const run: ApprovalRun = {
    deps,
    locale,
    get record() {
      return record;
    },
    async intent(step, data) {
      record = await write(deps, held, record.id, (r) => ({
        ...r,
        intent: { step, at: new Date().toISOString(), ...(data === undefined ? {} : { data }) },
      }));
    },
    toMaker: (message) => directMessage(deps, record, present(deps, record, message)),
    makerReachable: () =>
      openDm(deps.slack.retried, record.makerId).then(
        () => true,
        (err: unknown) => {
          deps.logger.warn({ approval: record.id, ...describeError(err) }, 'cannot open a DM with the maker');
          return false;
        },
      ),
    inThread: (message, key = 'outcome') =>
      postInThread(deps, record, present(deps, record, withApprovalNote(locale, message, record)), key, mode === 'resume'),
  };
  let result: ApprovalResult;
  try {
    const standing = makerLost ? 'lost' : mode === 'resume' ? await makerStanding(deps, record) : 'ok';
    if (standing === 'unknown') throw new ApprovalInDoubtError('the maker’s role could not be checked');
    if (standing === 'lost') {
      deps.logger.warn({ approval: record.id, maker: record.makerId }, 'the maker no longer has the action’s role: nothing is written');
      result = {
        ok: false,
        problem: messages(locale).approvalRules.makerLostRole({
          maker: `<@${record.makerId}>`,
          role: messages(locale).common.role(APPROVAL_ROLE[record.action]),
        }),
      };
    } else {
      result = mode === 'execute' ? await kind.execute(run, record.payload) : await kind.resume(run, record.payload, record.intent);
    }
  } catch (err) {
    if (err instanceof ClaimLostError) return undefined;
    if (mode === 'resume' || err instanceof ApprovalInDoubtError || isStoreUnavailable(err)) {
      // The Pix side could not be read, or the store failed mid-run (an intent not written, a write made
      // but not recorded): a crash's case, not a failure — ended as failed, a payment created but not yet
      // approved would be dropped. Left in `approving` for a later tick, which resumes from the intent.
      deps.logger.warn({ approval: record.id, ...describeError(err) }, 'could not resume an approved action; a later tick tries again');
      return undefined;
    }
    deps.logger.error({ approval: record.id, ...describeError(err) }, 'an approved action failed');
    result = { ok: false, problem: failureText(locale, err, 'runApprovedAction', { write: true }) };
  }
  let ended: ApprovalRecord;
  try {
    ended = await write(deps, held, record.id, (r) => ({
      ...r,
      state: result.ok ? 'done' : 'failed',
      outcome: result.ok ? (result.limitRequestId ? { limitRequestId: result.limitRequestId } : {}) : { problem: result.problem },
    }));
  } catch (err) {
    if (err instanceof ClaimLostError) return undefined;
    throw err;
  }
  deps.logger.info({ approval: record.id, action: record.action, outcome: ended.state }, 'approved action ended');
  await settle(deps, ended, kind, held).catch((err: unknown) =>
    deps.logger.warn({ approval: record.id, ...describeError(err) }, 'approval not settled yet; a later tick finishes it'),
  );
  return ended;
}

/**
 * A resumption on the tick, recorded as the checker's (their approval is what runs): its Pix calls,
 * then its outcome, with maker and checker.
 */
export async function resumeApproved(deps: Deps, kinds: ApprovalKinds, approving: ApprovalRecord, held: Held): Promise<void> {
  const checker = approving.checkerId ?? approving.makerId;
  const audit = deps.audit.forDelivery({ user: checker, role: (await deps.access.roleOf(checker)) ?? 'none', action: 'approval:resume' });
  const resumed: Deps = { ...deps, pix: deps.pix.observed((event) => audit.pixCall(event)), audit };
  auditAbout(resumed, approving, approving.checkerId);
  const ended = await runApproved(resumed, kinds, approving, 'resume', held);
  if (!ended) return;
  audit.outcome(ended.state === 'done' ? 'approved' : 'failed');
  await audit.finish({ outcome: 'ok' });
}

/**
 * Shows an ended approval for what it is: one that never ran first undoes what its kind reserved
 * (`notRun`), then the maker mentioned in the thread for a failure or a rejection (once: its metadata
 * is the approval's, and the thread is read first), the root updated (without its buttons), and the
 * record marked settled. A failure leaves it for the next tick.
 */
export async function settle(deps: Deps, record: ApprovalRecord, kind: ApprovalKind, held?: Held): Promise<void> {
  if (record.state === 'pending' || record.state === 'approving' || record.settled) return;
  if (record.state === 'rejected' || record.state === 'cancelled' || record.state === 'expired') await kind.notRun?.(deps, record);
  if (record.rootTs) {
    const reply = approvalReplyMessage(record.makerLocale, record);
    if (reply) {
      await postOnce(
        deps.slack.exact,
        { channel: record.channel, thread_ts: record.rootTs, ...present(deps, record, reply) },
        noticeOf(record, record.state),
        {
          lookFirst: true,
          since: Date.parse(record.createdAt),
        },
      ).catch((err: unknown) => {
        // A thread gone for good (the root deleted, the bot removed) is not retried on every tick.
        if (!isUnreachable(err)) throw err;
        deps.logger.warn(
          { approval: record.id, slackError: slackErrorCode(err) },
          'the approval thread is gone: its settling reply is not posted',
        );
      });
    }
    const custom = record.state === 'done' && kind?.doneRoot ? await kind.doneRoot(deps, record) : undefined;
    await updateRootTolerant(deps, record, custom && present(deps, record, custom));
  }
  const mark = (r: ApprovalRecord) => ({ ...r, settled: true });
  await (held ? write(deps, held, record.id, mark) : deps.store.approvals.update(record.id, mark));
}

/**
 * Settles an approval its caller ended (the reject form, after its acknowledgement), under its claim:
 * the tick may be settling it at the same moment, and its reply is posted once. Held by someone else,
 * it is theirs to settle. Never rejects: the tick finishes what fails.
 */
export async function settleEnded(deps: Deps, kinds: ApprovalKinds, record: ApprovalRecord): Promise<void> {
  await holding(deps, record.id, async (held) => {
    const fresh = await deps.store.approvals.get(record.id);
    if (fresh) await settle(deps, fresh, kindOf(kinds, fresh.action), held);
  }).catch((err: unknown) =>
    deps.logger.warn({ approval: record.id, ...describeError(err) }, 'approval not settled yet; a later tick finishes it'),
  );
}
