import { randomBytes } from 'node:crypto';
import pLimit from 'p-limit';
import {
  APPROVAL_EVENT_TYPE,
  type ApprovalRefusal,
  approvalReplyMessage,
  approvalRootMessage,
  decidedText,
  notRegisteredRootMessage,
  refusalText,
  reminderMessage,
  sentForApprovalText,
  withApprovalNote,
} from '../../views/approvals';
import { failureText } from '../../views/errors';
import { presentMessage, type SlackMessage } from '../../views/message';
import type { AuditTarget } from '../audit/entry';
import { APPROVAL_ROLE, type ApprovalAction, type ApprovalPayload, type PayloadOf } from '../domain/approvals';
import { type Role, roleAllows } from '../domain/roles';
import type { Deps } from '../entry/deps';
import { type Locale, messages } from '../i18n';
import { errorText } from '../runtime/error-text';
import { slackErrorCode } from '../slack/error-code';
import { findOwnMessage, type OnceMetadata, openDm, postOnce, postToUser } from '../slack/post-once';
import { isUnreachable, postRootMessage, ROOT_GONE } from '../slack/thread-root';
import type { ApprovalIntent, ApprovalRecord } from '../store/approvals';
import { isStoreUnavailable } from '../store/errors';

// Four-eyes approvals: one more state machine, on the same exactly-once tools as the poller. A
// pending action is a record in the store; every move out of `pending`, and the whole run of an
// approved action, happens under the claim `approval:<id>` (Redis `SET NX PX`, or this process's
// memory with sqlite), so two checkers, on one instance or two, make one set of Pix calls. Before
// each write the action records its intent; an instance that dies in `approving` lets its claim
// lapse, and the poller's tick resumes the approval, looking at the Pix side before writing again.

/** What an approved action's write path is given. */
export interface ApprovalRun {
  /** The deps of whoever runs it (the checker's delivery, or the poller's tick). */
  deps: Deps;
  record: ApprovalRecord;
  /** The maker's language: the thread and the root are in it. */
  locale: Locale;
  /** Records the write about to be made, before it is made (with what tells afterwards whether it was). */
  intent(step: string, data?: unknown): Promise<void>;
  /** Shows a message to the maker alone, in a direct message (a secret the action made). False when Slack refused. */
  toMaker(message: SlackMessage): Promise<boolean>;
  /** Whether a direct message with the maker opens: asked before a write whose secret only they may see. */
  makerReachable(): Promise<boolean>;
  /**
   * Posts the record of what was done in the root's thread, saying who asked and who approved. `key`
   * names the post (one per key and approval, also across a resumption); default `outcome`.
   */
  inThread(message: SlackMessage, key?: string): Promise<boolean>;
}

export type ApprovalResult = { ok: true; limitRequestId?: string } | { ok: false; problem: string };

/**
 * Thrown by a write path when its write was sent but got no answer: whether it happened is not known
 * yet. The approval stays `approving`, and the tick resumes it (looking at the Pix side) once the
 * claim is free.
 */
export class ApprovalInDoubt extends Error {}

/** One action that can wait for approval: its write path, and how it finishes after a crash. */
export interface ApprovalKind<A extends ApprovalAction = ApprovalAction> {
  action: A;
  /** The action's own write path (the one it runs without approvals), with the payload the maker's flow checked. */
  execute(run: ApprovalRun, payload: PayloadOf<A>): Promise<ApprovalResult>;
  /**
   * After an instance died in `approving` with `intent` the last write it was about to make: tells
   * from the Pix side whether that write happened, and writes only what did not. When the Pix side
   * cannot tell, nothing is written again.
   */
  resume(run: ApprovalRun, payload: PayloadOf<A>, intent: ApprovalIntent | undefined): Promise<ApprovalResult>;
  /** The root once done, when the action makes it something else (a limit request's thread root). */
  doneRoot?(deps: Deps, record: ApprovalRecord): Promise<SlackMessage | undefined>;
}

export type ApprovalKinds = { readonly [A in ApprovalAction]: ApprovalKind<A> };

/** The acting user, as the router resolved them. */
export interface Actor {
  userId: string;
  role: Role;
  locale: Locale;
}

const claimKey = (id: string) => `approval:${id}`;

/** Reminders of one pending approval, at most. */
export const MAX_REMINDERS = 3;

/** What an approval is about, for its audit entries (the trail masks the Pix key itself). */
function auditTarget(record: ApprovalRecord): AuditTarget {
  const p = record.payload;
  return {
    approval: record.id,
    ...('accountId' in p ? { account: p.accountId } : {}),
    ...('pixKey' in p && p.pixKey ? { pixKey: p.pixKey } : {}),
    ...(p.action === 'rotate-secret' ? { application: p.clientId } : {}),
  };
}

/** This delivery's audit entries are about this approval, asked by its maker (and decided by `checker`). */
function auditAbout(deps: Deps, record: ApprovalRecord, checker?: string): void {
  deps.audit.about(auditTarget(record));
  deps.audit.approval({ maker: record.makerId, ...(checker ? { checker } : {}) });
}

export function approvalsOn(deps: Deps, action: ApprovalAction): boolean {
  return deps.approvals.actions.has(action);
}

const present = (deps: Deps, record: ApprovalRecord, message: SlackMessage) =>
  presentMessage(message, record.makerLocale, deps.sandboxMode);

function rootOf(deps: Deps, record: ApprovalRecord): SlackMessage {
  return present(deps, record, approvalRootMessage(record.makerLocale, record, { approversListed: deps.access.approversListed }));
}

/** `event_type` of the posts an approval makes in its thread or a DM (reminders, replies, records, secrets). */
const APPROVAL_NOTICE_EVENT_TYPE = 'pix_approval_notice';
/** The metadata of one such post: derived from the approval's id and what the post is, so a resend is recognized. */
const noticeOf = (record: ApprovalRecord, key: string): OnceMetadata => ({
  event_type: APPROVAL_NOTICE_EVENT_TYPE,
  event_payload: { approval_id: record.id, notice: key },
});

/** The claim lapsed (or is someone else's now): whatever was under way stops before its next write. */
class ClaimLost extends Error {
  constructor(id: string) {
    super(`the claim on approval ${id} lapsed`);
  }
}

/** The claim an approval's work runs under. */
interface Held {
  /** Renews the claim; throws ClaimLost when it lapsed: called before each write. */
  check(): Promise<void>;
}

/**
 * Runs `work` holding the approval's claim, renewed while it runs (an approved limit request streams
 * its proofs, which can outlast one claim's life). A renewal that fails marks the claim lost, and the
 * next `check` stops the work. `ran: false` when someone else holds it.
 */
async function holding<T>(deps: Deps, id: string, work: (held: Held) => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  const key = claimKey(id);
  const ttl = deps.approvals.claimTtlMs;
  // When the claim was last known to be ours: taken or renewed by a call sent at that moment, so it
  // holds until at least `ttl` after it (the store counts from when the call arrives).
  let confirmedAt = Date.now();
  if (!(await deps.store.claim(key, ttl))) return { ran: false };
  let lost = false;
  const renew = async () => {
    const sentAt = Date.now();
    if (await deps.store.renew(key, ttl)) confirmedAt = sentAt;
    else lost = true;
  };
  const renewal = setInterval(
    () => {
      renew().catch((err: unknown) => deps.logger.warn({ approval: id, err: errorText(err) }, 'could not renew an approval claim'));
    },
    Math.max(100, Math.floor(ttl / 3)),
  );
  renewal.unref();
  const held: Held = {
    async check() {
      // More than half its life left since it was last confirmed: still ours, no round trip needed.
      if (!lost && Date.now() - confirmedAt > ttl / 2) await renew();
      if (lost) {
        deps.logger.warn({ approval: id }, 'the approval claim lapsed: stopping before the next write');
        throw new ClaimLost(id);
      }
    },
  };
  try {
    return { ran: true, value: await work(held) };
  } finally {
    clearInterval(renewal);
    await deps.store.release(key).catch(() => undefined);
  }
}

/** A change of the record under its claim: the claim checked first. `known`: the record as this holder has it (not read again). */
async function write(
  deps: Deps,
  held: Held,
  id: string,
  change: (r: ApprovalRecord) => ApprovalRecord,
  known?: ApprovalRecord,
): Promise<ApprovalRecord> {
  await held.check();
  return deps.store.approvals.update(id, change, known);
}

const isPastExpiry = (record: ApprovalRecord, now: number) => Date.parse(record.expiresAt) <= now;

/**
 * The maker's flow, at the point of its first Pix write: the approval is saved, then its root posted
 * in the channel (or a DM to the maker when the bot cannot post there), all under the approval's
 * claim. Nothing reaches the Pix API. `where` is undefined when the root could not be posted
 * anywhere: the approval is then cancelled. A failure once the root is posted leaves no live root:
 * it is updated to say it was not registered, without its buttons.
 */
export async function requestApproval(
  deps: Deps,
  input: { maker: { userId: string; locale: Locale }; channel: string; payload: ApprovalPayload },
): Promise<{ record: ApprovalRecord; where?: { channel: string; dm: boolean } }> {
  const id = randomBytes(8).toString('hex');
  const locale = input.maker.locale;
  let record: ApprovalRecord | undefined;
  // Held from before the record exists: the tick, which cancels a pending record without a root, cannot take it meanwhile.
  const posted = await holding(deps, id, async (held) => {
    const now = new Date();
    const remindAfter = deps.approvals.remindAfterMs;
    record = await deps.store.approvals.create(
      {
        id,
        makerId: input.maker.userId,
        makerLocale: locale,
        channel: input.channel,
        payload: input.payload,
        expiresAt: new Date(now.getTime() + deps.approvals.ttlMs).toISOString(),
        ...(remindAfter > 0 ? { remindAt: new Date(now.getTime() + remindAfter).toISOString() } : {}),
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
      record = await write(deps, held, id, (r) => ({ ...r, channel: root.channel, rootTs: root.ts }));
    } catch (err) {
      const orphan = { ...record, channel: root.channel, rootTs: root.ts };
      await disown(deps, orphan);
      throw err;
    }
    return root;
  });
  if (!posted.ran || !record) throw new Error(`approval ${id} was claimed by someone else before it existed`);
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
 * A root whose record could not be kept (the store failed once it was posted, or the maker's flow
 * died before recording it): updated to say so, without buttons; then the record is cancelled if the
 * store allows (else the tick does). Never rejects.
 */
async function disown(deps: Deps, record: ApprovalRecord): Promise<void> {
  await updateRootTolerant(deps, record, present(deps, record, notRegisteredRootMessage(record.makerLocale, record))).catch(
    (err: unknown) =>
      deps.logger.warn(
        { approval: record.id, err: slackErrorCode(err) ?? errorText(err) },
        'could not show an unregistered approval root as such',
      ),
  );
  await deps.store.approvals
    .update(record.id, (r) => ({ ...r, state: 'cancelled', decidedAt: new Date().toISOString(), settled: true }))
    .catch((err: unknown) =>
      deps.logger.warn({ approval: record.id, err: errorText(err) }, 'could not cancel an unregistered approval; a later tick does'),
    );
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
    deps.logger.warn({ action: input.payload.action, err: errorText(err) }, 'could not ask for approval');
    const m = messages(locale).common;
    return isStoreUnavailable(err) ? m.storeUnavailable : m.wentWrongNothingMore(messages(locale).actions.askApproval);
  }
}

/**
 * Why this user may not approve or reject this approval, or undefined when they may. Their groups are
 * asked of Slack afresh (a group changed while the approval waited counts at once); when Slack does
 * not answer, the router's cached answer stands.
 */
async function checkerRefusal(deps: Deps, record: ApprovalRecord, actor: Actor): Promise<ApprovalRefusal | undefined> {
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
    deps.logger.warn({ user: actor.userId, err: errorText(err) }, 'could not look the checker’s groups up afresh');
    [role, approver] = [actor.role, await deps.access.mayApprove(actor.userId)];
  }
  if (role === undefined || !roleAllows(role, needed)) return { kind: 'role', role: needed, action: record.action };
  if (!approver) return { kind: 'not-approver', userId: actor.userId };
  return undefined;
}

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

/** The maker's standing now: whether they still have the action's role (groups asked of Slack afresh), or unknown when Slack does not answer. */
async function makerStanding(deps: Deps, record: ApprovalRecord): Promise<'ok' | 'lost' | 'unknown'> {
  try {
    const role = await deps.access.roleOf(record.makerId, { fresh: true });
    return role !== undefined && roleAllows(role, APPROVAL_ROLE[record.action]) ? 'ok' : 'lost';
  } catch (err) {
    deps.logger.warn({ approval: record.id, err: errorText(err) }, 'could not check the maker’s role');
    return 'unknown';
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
  const refusal = await checkerRefusal(deps, record, actor);
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
      deps.logger.info({ approval: id, err: errorText(err) }, 'could not show the approval as running'),
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
async function endPending(
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
      deps.logger.warn({ approval: record.id, err: errorText(err) }, 'approval not settled yet; a later tick finishes it'),
    );
  return ended;
}

/**
 * Runs an approved action (`execute`), or finishes one an instance left in `approving` (`resume`),
 * records its outcome, then settles it. The caller holds the claim; each write checks it first, and
 * a lapsed claim stops the run (its new holder resumes it). A maker who lost the action's role
 * (checked afresh on a resumption) makes it fail with nothing written. Resolves with the ended
 * record, or undefined when it is left in `approving` for a later tick.
 */
async function runApproved(
  deps: Deps,
  kinds: ApprovalKinds,
  approving: ApprovalRecord,
  mode: 'execute' | 'resume',
  held: Held,
  makerLost = false,
): Promise<ApprovalRecord | undefined> {
  let record = approving;
  const locale = record.makerLocale;
  const kind = kinds[record.action] as ApprovalKind;
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
          deps.logger.warn({ approval: record.id, err: slackErrorCode(err) ?? errorText(err) }, 'cannot open a DM with the maker');
          return false;
        },
      ),
    inThread: (message, key = 'outcome') =>
      postInThread(deps, record, present(deps, record, withApprovalNote(locale, message, record)), key, mode === 'resume'),
  };
  let result: ApprovalResult;
  try {
    const standing = makerLost ? 'lost' : mode === 'resume' ? await makerStanding(deps, record) : 'ok';
    if (standing === 'unknown') throw new ApprovalInDoubt('the maker’s role could not be checked');
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
    if (err instanceof ClaimLost) return undefined;
    if (mode === 'resume' || err instanceof ApprovalInDoubt) {
      // The Pix side could not be read (or the store failed): left in `approving` for a later tick.
      deps.logger.warn({ approval: record.id, err: errorText(err) }, 'could not resume an approved action; a later tick tries again');
      return undefined;
    }
    deps.logger.error({ approval: record.id, err: errorText(err) }, 'an approved action failed');
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
    if (err instanceof ClaimLost) return undefined;
    throw err;
  }
  deps.logger.info({ approval: record.id, action: record.action, outcome: ended.state }, 'approved action ended');
  await settle(deps, ended, kind, held).catch((err: unknown) =>
    deps.logger.warn({ approval: record.id, err: errorText(err) }, 'approval not settled yet; a later tick finishes it'),
  );
  return ended;
}

/**
 * A resumption on the tick, recorded as the checker's (their approval is what runs): its Pix calls,
 * then its outcome, with maker and checker.
 */
async function resumeApproved(deps: Deps, kinds: ApprovalKinds, approving: ApprovalRecord, held: Held): Promise<void> {
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
 * Shows an ended approval for what it is: the maker mentioned in the thread for a failure or a
 * rejection (once: its metadata is the approval's, and the thread is read first), the root updated
 * (without its buttons), and the record marked settled. A failure leaves it for the next tick.
 */
async function settle(deps: Deps, record: ApprovalRecord, kind?: ApprovalKind, held?: Held): Promise<void> {
  if (record.state === 'pending' || record.state === 'approving' || record.settled) return;
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

/** Settles an approval its caller ended (the reject form, after its acknowledgement). Never rejects: the tick finishes what fails. */
export async function settleEnded(deps: Deps, record: ApprovalRecord): Promise<void> {
  await settle(deps, record).catch((err: unknown) =>
    deps.logger.warn({ approval: record.id, err: errorText(err) }, 'approval not settled yet; a later tick finishes it'),
  );
}

/** The root shows the record (or `message`); a root that cannot be updated any more (deleted, the channel gone) is left as it is. */
async function updateRootTolerant(deps: Deps, record: ApprovalRecord, message = rootOf(deps, record)): Promise<void> {
  if (!record.rootTs) return;
  try {
    await deps.slack.retried.chat.update({ channel: record.channel, ts: record.rootTs, text: message.text, blocks: message.blocks });
  } catch (err) {
    const code = slackErrorCode(err);
    if (code === undefined || !ROOT_GONE.has(code)) throw err;
    deps.logger.warn({ approval: record.id, slackError: code }, 'the approval root cannot be updated any more');
  }
}

async function postInThread(deps: Deps, record: ApprovalRecord, message: SlackMessage, key: string, lookFirst: boolean): Promise<boolean> {
  if (!record.rootTs) return false;
  try {
    await postOnce(
      deps.slack.exact,
      { channel: record.channel, thread_ts: record.rootTs, text: message.text, blocks: message.blocks },
      noticeOf(record, key),
      {
        lookFirst,
        since: Date.parse(record.createdAt),
      },
    );
    return true;
  } catch (err) {
    deps.logger.warn({ approval: record.id, err: slackErrorCode(err) ?? errorText(err) }, 'could not post in the approval thread');
    return false;
  }
}

/** A direct message from the bot to the maker: private, and still there when they come back (unlike an ephemeral one). */
async function directMessage(deps: Deps, record: ApprovalRecord, message: SlackMessage): Promise<boolean> {
  try {
    await postToUser(deps.slack.exact, record.makerId, message, noticeOf(record, 'to-maker'));
    return true;
  } catch (err) {
    deps.logger.warn(
      { approval: record.id, user: record.makerId, err: slackErrorCode(err) ?? errorText(err) },
      'could not send a direct message',
    );
    return false;
  }
}

/**
 * The next reminder of a pending approval, in its thread, mentioning who may approve: posted once
 * (the reminder's number is recorded before the post, so a run cut short reads the thread before
 * posting it again), then the one after it scheduled. A thread gone stops the reminders.
 */
async function remind(deps: Deps, held: Held, record: ApprovalRecord): Promise<void> {
  const n = (record.reminders ?? 0) + 1;
  const lookFirst = record.reminding === n;
  // Read under this claim just now: written from what is known, not read again.
  const marked = lookFirst ? record : await write(deps, held, record.id, (r) => ({ ...r, reminding: n }), record);
  const now = new Date();
  const mentions = deps.access.approverMentions(APPROVAL_ROLE[record.action], record.makerId);
  const message = present(
    deps,
    record,
    reminderMessage(record.makerLocale, record, { mentions, approversListed: deps.access.approversListed, now, n, max: MAX_REMINDERS }),
  );
  let threadGone = false;
  // A post is a write too: the claim checked first (a round trip only past half its life).
  await held.check();
  try {
    await postOnce(
      deps.slack.exact,
      { channel: record.channel, thread_ts: record.rootTs, text: message.text, blocks: message.blocks },
      noticeOf(record, `reminder-${n}`),
      {
        lookFirst,
        since: Date.parse(record.createdAt),
      },
    );
  } catch (err) {
    if (!isUnreachable(err)) throw err;
    threadGone = true;
    deps.logger.warn({ approval: record.id, slackError: slackErrorCode(err) }, 'the approval thread is gone: no more reminders');
  }
  const interval = deps.approvals.remindAfterMs;
  const nextAt = Math.max(Date.parse(record.createdAt) + (n + 1) * interval, now.getTime() + interval);
  const more = !threadGone && n < MAX_REMINDERS && nextAt < Date.parse(record.expiresAt);
  await write(
    deps,
    held,
    record.id,
    (r) => {
      const { reminding: _posted, remindAt: _due, ...rest } = r;
      return { ...rest, reminders: n, ...(more ? { remindAt: new Date(nextAt).toISOString() } : {}) };
    },
    marked,
  );
}

/** A pending record without a root (its maker's flow failed or died before recording it): its root, if one was posted, says so; the record is cancelled. */
async function cancelOrphan(deps: Deps, held: Held, record: ApprovalRecord): Promise<void> {
  const found = await findOwnMessage(
    deps.slack.exact,
    { channel: record.channel },
    { event_type: APPROVAL_EVENT_TYPE, event_payload: { approval_id: record.id } },
    Date.parse(record.createdAt),
  ).catch(() => undefined);
  if (found) await disown(deps, { ...record, rootTs: found.ts });
  await write(deps, held, record.id, (r) => ({ ...r, state: 'cancelled', decidedAt: new Date().toISOString(), settled: true }));
}

/**
 * The poller's part, on its schedule (one instance per tick on Redis), for the approvals that are due
 * (the store's index: nothing else is read): expires pending approvals past `APPROVAL_TTL`, posts
 * their reminders, resumes those an instance left in `approving` (their claim lapsed with it),
 * settles ended ones whose root could not be updated, and cancels those whose root was never
 * recorded. Every one under its claim, so two instances never both act. Does nothing when
 * `APPROVALS` is empty. Never rejects for one approval's failure.
 */
export async function runApprovalTick(
  deps: Deps,
  kinds: ApprovalKinds,
  options: { stopping: () => boolean },
): Promise<{ expired: number; reminded: number; resumed: number; settled: number; orphans: number }> {
  const report = { expired: 0, reminded: 0, resumed: 0, settled: 0, orphans: 0 };
  if (deps.approvals.actions.size === 0) return report;
  deps.metrics.approvalsPending(await deps.store.approvals.openCount());
  const ids = await deps.store.approvals.dueIds();
  const limit = pLimit(4);
  await Promise.all(
    ids.map((id) =>
      limit(async () => {
        if (options.stopping()) return;
        try {
          await holding(deps, id, async (held) => {
            const fresh = await deps.store.approvals.get(id);
            if (!fresh) return void (await deps.store.approvals.forget(id));
            const now = Date.now();
            if (fresh.state === 'pending' && !fresh.rootTs) {
              await cancelOrphan(deps, held, fresh);
              report.orphans++;
            } else if (fresh.state === 'pending' && isPastExpiry(fresh, now)) {
              await endPending(deps, held, fresh, { state: 'expired' });
              deps.logger.info({ approval: id, action: fresh.action }, 'approval expired');
              report.expired++;
            } else if (fresh.state === 'pending' && fresh.remindAt && Date.parse(fresh.remindAt) <= now) {
              if (deps.approvals.remindAfterMs > 0 && (fresh.reminders ?? 0) < MAX_REMINDERS) {
                await remind(deps, held, fresh);
                report.reminded++;
              } else {
                // Reminders turned off since it was asked, or all posted: only its expiry is left.
                await write(deps, held, id, ({ remindAt: _off, ...rest }) => rest);
              }
            } else if (fresh.state === 'approving') {
              deps.logger.info({ approval: id, action: fresh.action, intent: fresh.intent?.step ?? 'none' }, 'resuming an approved action');
              await resumeApproved(deps, kinds, fresh, held);
              report.resumed++;
            } else if (fresh.state !== 'pending' && !fresh.settled) {
              await settle(deps, fresh, kinds[fresh.action] as ApprovalKind, held);
              report.settled++;
            } else {
              // Listed as due too early (a clock step): listed again at its own time.
              await write(deps, held, id, (r) => r);
            }
          });
        } catch (err) {
          deps.logger.warn({ approval: id, err: errorText(err) }, 'approval tick failed for one approval; a later tick retries');
        }
      }),
    ),
  );
  if (Object.values(report).some((n) => n > 0)) deps.logger.info({ approvals: report }, 'approval tick');
  return report;
}
