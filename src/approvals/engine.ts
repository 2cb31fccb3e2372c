import { randomBytes } from 'node:crypto';
import pLimit from 'p-limit';
import {
  APPROVAL_EVENT_TYPE,
  approvalReplyMessage,
  approvalRootMessage,
  sentForApprovalText,
  withApprovalNote,
} from '../../views/approvals';
import { failureText } from '../../views/errors';
import { formatDateTime } from '../../views/limit-status';
import { presentMessage, type SlackMessage } from '../../views/message';
import { APPROVAL_ROLE, type ApprovalAction, type ApprovalPayload, type PayloadOf } from '../domain/approvals';
import { roleAllows, type Role } from '../domain/roles';
import type { Deps } from '../entry/deps';
import { messages, type Locale } from '../i18n';
import { ROOT_GONE } from '../poller/deliver';
import { errorText } from '../runtime/error-text';
import { slackErrorCode } from '../slack/error-code';
import { exactClient } from '../slack/exact-client';
import { noticeMetadata, postOnce } from '../slack/post-once';
import { postRootMessage } from '../slack/thread-root';
import type { ApprovalIntent, ApprovalRecord } from '../store/approvals';
import type { AuditTarget } from '../audit/entry';
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
  /** Posts the record of what was done in the root's thread, saying who asked and who approved. */
  inThread(message: SlackMessage): Promise<boolean>;
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
const at = (locale: Locale, iso: string | undefined) => formatDateTime(iso, locale);

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

const present = (deps: Deps, record: ApprovalRecord, message: SlackMessage) => presentMessage(message, record.makerLocale, deps.sandboxMode);

function rootOf(deps: Deps, record: ApprovalRecord): SlackMessage {
  return present(deps, record, approvalRootMessage(record.makerLocale, record, { approversListed: deps.access.approversListed }));
}

/**
 * The maker's flow, at the point of its first Pix write: the approval is saved, then its root posted
 * in the channel (or a DM to the maker when the bot cannot post there). Nothing reaches the Pix API.
 * `where` is undefined when the root could not be posted anywhere: the approval is then cancelled.
 */
export async function requestApproval(
  deps: Deps,
  input: { maker: { userId: string; locale: Locale }; channel: string; payload: ApprovalPayload },
): Promise<{ record: ApprovalRecord; where?: { channel: string; dm: boolean } }> {
  const now = new Date();
  let record = await deps.store.approvals.create(
    {
      id: randomBytes(8).toString('hex'),
      makerId: input.maker.userId,
      makerLocale: input.maker.locale,
      channel: input.channel,
      payload: input.payload,
      expiresAt: new Date(now.getTime() + deps.approvals.ttlMs).toISOString(),
    },
    now,
  );
  auditAbout(deps, record);
  // Held while the root is posted and recorded, so that no click can act on the record in between.
  const posted = await holding(deps, record.id, async () => {
    const root = await postRootMessage(exactClient(deps), deps.logger, {
      channel: input.channel,
      userId: input.maker.userId,
      message: rootOf(deps, record),
      metadata: { event_type: APPROVAL_EVENT_TYPE, event_payload: { approval_id: record.id } },
    });
    if (!root) {
      record = await deps.store.approvals.update(record.id, (r) => ({ ...r, state: 'cancelled', decidedAt: new Date().toISOString(), settled: true }));
      return undefined;
    }
    record = await deps.store.approvals.update(record.id, (r) => ({ ...r, channel: root.channel, rootTs: root.ts }));
    return root;
  });
  const root = posted.ran ? posted.value : undefined;
  if (!root) {
    deps.audit.outcome('failed', 'root not posted');
    return { record };
  }
  deps.audit.outcome('pending');
  deps.logger.info({ approval: record.id, action: record.action, maker: record.makerId }, 'approval requested');
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
    deps.logger.warn({ action: input.payload.action, err: errorText(err) }, 'could not ask for approval');
    const m = messages(locale).common;
    return isStoreUnavailable(err) ? m.storeUnavailable : m.wentWrongNothingMore(messages(locale).actions.askApproval);
  }
}

/** Why this user may not approve or reject this approval (for them, and in a word for the audit trail), or undefined when they may. */
async function checkerRefusal(deps: Deps, record: ApprovalRecord, actor: Actor): Promise<{ text: string; detail: string } | undefined> {
  const m = messages(actor.locale).approvals;
  if (record.makerId === actor.userId) return { text: m.selfRefused, detail: 'own action' };
  const needed = APPROVAL_ROLE[record.action];
  if (!roleAllows(actor.role, needed)) return { text: m.roleRefused({ role: messages(actor.locale).common.role(needed), title: m.actionTitle(record.action) }), detail: `needs ${needed}` };
  if (!(await deps.access.mayApprove(actor.userId))) return { text: m.notApprover(actor.userId), detail: 'not an approver' };
  return undefined;
}

/** A click on an approval that left `pending` (decided, or being decided): told, and recorded as refused. */
function alreadyDecided(deps: Deps, text: string): string {
  deps.audit.outcome('refused', 'already decided');
  return text;
}

/** Where an approval that left `pending` stands, for someone who clicks it afterwards. */
function decidedText(locale: Locale, record: ApprovalRecord): string {
  const m = messages(locale).approvals;
  const checker = `<@${record.checkerId ?? ''}>`;
  switch (record.state) {
    case 'rejected':
      return m.alreadyRejected({ checker, at: at(locale, record.decidedAt) });
    case 'cancelled':
      return m.alreadyCancelled(at(locale, record.decidedAt));
    case 'expired':
      return m.alreadyExpired(at(locale, record.decidedAt));
    default:
      return m.alreadyApproved({ checker, at: at(locale, record.decidedAt) });
  }
}

const isPastExpiry = (record: ApprovalRecord, now: number) => Date.parse(record.expiresAt) <= now;

/**
 * Runs `work` holding the approval's claim, renewed while it runs (an approved limit request streams
 * its proofs, which can outlast one claim's life). `ran: false` when someone else holds it.
 */
async function holding<T>(deps: Deps, id: string, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  const key = claimKey(id);
  const ttl = deps.approvals.claimTtlMs;
  if (!(await deps.store.claim(key, ttl))) return { ran: false };
  const renewal = setInterval(() => {
    deps.store.renew(key, ttl).catch((err: unknown) => deps.logger.warn({ approval: id, err: errorText(err) }, 'could not renew an approval claim'));
  }, Math.max(100, Math.floor(ttl / 3)));
  renewal.unref();
  try {
    return { ran: true, value: await work() };
  } finally {
    clearInterval(renewal);
    await deps.store.release(key).catch(() => undefined);
  }
}

/** Whoever holds the claim is deciding: wait a little for their decision, to say who it was. */
async function whoDecided(deps: Deps, locale: Locale, id: string): Promise<string> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const record = await deps.store.approvals.get(id);
    if (!record) return messages(locale).approvals.notFound;
    if (record.state !== 'pending') return decidedText(locale, record);
    if (Date.now() > deadline) return messages(locale).approvals.busy;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Reads the approval and checks the clicker may decide it: the record, or what to tell them. */
async function decidable(deps: Deps, id: string, actor: Actor): Promise<{ record: ApprovalRecord } | { answer: string }> {
  const record = await deps.store.approvals.get(id);
  if (!record) return { answer: messages(actor.locale).approvals.notFound };
  auditAbout(deps, record);
  const refusal = await checkerRefusal(deps, record, actor);
  if (refusal) {
    deps.logger.info({ approval: id, user: actor.userId, action: record.action }, 'approval refused');
    deps.audit.outcome('refused', refusal.detail);
    return { answer: refusal.text };
  }
  // Allowed to decide: the checker from here on (a refused user is no checker).
  auditAbout(deps, record, actor.userId);
  if (record.state !== 'pending') return { answer: alreadyDecided(deps, decidedText(actor.locale, record)) };
  return { record };
}

/**
 * Approve: the claim, then `approving` with the checker recorded, then the action's write path, its
 * outcome, and the root. Resolves with what to tell the checker, if anything (the root says the rest).
 */
export async function approve(deps: Deps, kinds: ApprovalKinds, id: string, actor: Actor): Promise<string | undefined> {
  const found = await decidable(deps, id, actor);
  if ('answer' in found) return found.answer;
  const held = await holding(deps, id, async () => {
    const fresh = await deps.store.approvals.get(id);
    if (!fresh || fresh.state !== 'pending') return fresh ? alreadyDecided(deps, decidedText(actor.locale, fresh)) : messages(actor.locale).approvals.notFound;
    if (isPastExpiry(fresh, Date.now())) {
      const expired = await endPending(deps, fresh, { state: 'expired' });
      return alreadyDecided(deps, decidedText(actor.locale, expired));
    }
    const approving = await deps.store.approvals.update(id, (r) => ({ ...r, state: 'approving', checkerId: actor.userId, decidedAt: new Date().toISOString() }));
    deps.logger.info({ approval: id, action: approving.action, maker: approving.makerId, checker: actor.userId }, 'approval approved');
    await updateRoot(deps, approving).catch((err: unknown) => deps.logger.info({ approval: id, err: errorText(err) }, 'could not show the approval as running'));
    const ended = await runApproved(deps, kinds, approving, 'execute');
    deps.audit.outcome(ended?.state === 'failed' ? 'failed' : 'approved', ended ? undefined : 'in doubt');
    return undefined;
  });
  return held.ran ? held.value : alreadyDecided(deps, await whoDecided(deps, actor.locale, id));
}

/** The reject button: the same checks as approving, then the form that asks why. */
export async function checkReject(deps: Deps, id: string, actor: Actor): Promise<{ record: ApprovalRecord } | { answer: string }> {
  return decidable(deps, id, actor);
}

/** The reject form's submission: `rejected` with the reason, under the claim. Settle the result after acknowledging. */
export async function reject(deps: Deps, id: string, actor: Actor, reason: string): Promise<{ record: ApprovalRecord } | { answer: string }> {
  const found = await decidable(deps, id, actor);
  if ('answer' in found) return found;
  const held = await holding(deps, id, async () => {
    const fresh = await deps.store.approvals.get(id);
    if (!fresh || fresh.state !== 'pending') return { answer: fresh ? alreadyDecided(deps, decidedText(actor.locale, fresh)) : messages(actor.locale).approvals.notFound };
    const rejected = await endPending(deps, fresh, { state: 'rejected', checkerId: actor.userId, reason }, { settle: false });
    deps.logger.info({ approval: id, action: rejected.action, maker: rejected.makerId, checker: actor.userId }, 'approval rejected');
    deps.audit.outcome('rejected');
    return { record: rejected };
  });
  return held.ran ? held.value : { answer: alreadyDecided(deps, await whoDecided(deps, actor.locale, id)) };
}

/** The maker's Cancel, while it is pending. Resolves with what to tell them, if anything. */
export async function cancel(deps: Deps, id: string, actor: Actor): Promise<string | undefined> {
  const m = messages(actor.locale).approvals;
  const record = await deps.store.approvals.get(id);
  if (!record) return m.notFound;
  auditAbout(deps, record);
  if (record.makerId !== actor.userId) {
    deps.audit.outcome('refused', 'not the maker');
    return m.onlyMakerCancels(`<@${record.makerId}>`);
  }
  if (record.state !== 'pending') return alreadyDecided(deps, decidedText(actor.locale, record));
  const held = await holding(deps, id, async () => {
    const fresh = await deps.store.approvals.get(id);
    if (!fresh || fresh.state !== 'pending') return fresh ? alreadyDecided(deps, decidedText(actor.locale, fresh)) : m.notFound;
    await endPending(deps, fresh, { state: 'cancelled', checkerId: actor.userId });
    deps.logger.info({ approval: id, action: fresh.action, maker: fresh.makerId }, 'approval cancelled');
    deps.audit.outcome('cancelled');
    return undefined;
  });
  return held.ran ? held.value : alreadyDecided(deps, await whoDecided(deps, actor.locale, id));
}

/** Ends a pending approval without any Pix call (rejected, cancelled, expired), under its claim; settles it unless told not to yet. */
async function endPending(
  deps: Deps,
  record: ApprovalRecord,
  end: { state: 'rejected' | 'cancelled' | 'expired'; checkerId?: string; reason?: string },
  options: { settle?: boolean } = {},
): Promise<ApprovalRecord> {
  const ended = await deps.store.approvals.update(record.id, (r) => ({ ...r, ...end, decidedAt: new Date().toISOString() }));
  if (end.state === 'expired') {
    // Nobody acted: the entry names the maker, whose action waited past APPROVAL_TTL.
    await deps.audit.record({ user: record.makerId, role: 'none', action: 'approval:expire', target: auditTarget(record), maker: record.makerId, outcome: 'expired' });
  }
  if (options.settle !== false) await settle(deps, ended).catch((err: unknown) => deps.logger.warn({ approval: record.id, err: errorText(err) }, 'approval not settled yet; a later tick finishes it'));
  return ended;
}

/**
 * Runs an approved action (`execute`), or finishes one an instance left in `approving` (`resume`),
 * records its outcome, then settles it. The caller holds the claim. Resolves with the ended record,
 * or undefined when it is left in `approving` for a later tick.
 */
async function runApproved(deps: Deps, kinds: ApprovalKinds, approving: ApprovalRecord, mode: 'execute' | 'resume'): Promise<ApprovalRecord | undefined> {
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
      record = await deps.store.approvals.update(record.id, (r) => ({ ...r, intent: { step, at: new Date().toISOString(), ...(data === undefined ? {} : { data }) } }));
    },
    toMaker: (message) => directMessage(deps, record.makerId, present(deps, record, message)),
    inThread: (message) => postInThread(deps, record, present(deps, record, withApprovalNote(locale, message, record))),
  };
  let result: ApprovalResult;
  try {
    result = mode === 'execute' ? await kind.execute(run, record.payload) : await kind.resume(run, record.payload, record.intent);
  } catch (err) {
    if (mode === 'resume' || err instanceof ApprovalInDoubt) {
      // The Pix side could not be read (or the store failed): left in `approving` for a later tick.
      deps.logger.warn({ approval: record.id, err: errorText(err) }, 'could not resume an approved action; a later tick tries again');
      return undefined;
    }
    deps.logger.error({ approval: record.id, err: errorText(err) }, 'an approved action failed');
    result = { ok: false, problem: failureText(locale, err, 'runApprovedAction', { write: true }) };
  }
  const ended = await deps.store.approvals.update(record.id, (r) => ({
    ...r,
    state: result.ok ? 'done' : 'failed',
    outcome: result.ok ? (result.limitRequestId ? { limitRequestId: result.limitRequestId } : {}) : { problem: result.problem },
  }));
  deps.logger.info({ approval: record.id, action: record.action, outcome: ended.state }, 'approved action ended');
  await settle(deps, ended, kind).catch((err: unknown) => deps.logger.warn({ approval: record.id, err: errorText(err) }, 'approval not settled yet; a later tick finishes it'));
  return ended;
}

/**
 * A resumption on the tick, recorded as the checker's (their approval is what runs): its Pix calls,
 * then its outcome, with maker and checker.
 */
async function resumeApproved(deps: Deps, kinds: ApprovalKinds, approving: ApprovalRecord): Promise<void> {
  const checker = approving.checkerId ?? approving.makerId;
  const audit = deps.audit.forDelivery({ user: checker, role: (await deps.access.roleOf(checker)) ?? 'none', action: 'approval:resume' });
  const resumed: Deps = { ...deps, pix: deps.pix.observed((event) => audit.pixCall(event)), audit };
  auditAbout(resumed, approving, approving.checkerId);
  const ended = await runApproved(resumed, kinds, approving, 'resume');
  if (!ended) return;
  audit.outcome(ended.state === 'done' ? 'approved' : 'failed');
  await audit.finish({ outcome: 'ok' });
}

/**
 * Shows an ended approval for what it is: the maker mentioned in the thread for a failure or a
 * rejection, the root updated (without its buttons), and the record marked settled. A failure
 * leaves it for the next tick.
 */
async function settle(deps: Deps, record: ApprovalRecord, kind?: ApprovalKind): Promise<void> {
  if (record.state === 'pending' || record.state === 'approving' || record.settled) return;
  if (record.rootTs) {
    const reply = approvalReplyMessage(record.makerLocale, record);
    if (reply) await postOnce(exactClient(deps), { channel: record.channel, thread_ts: record.rootTs, ...present(deps, record, reply) }, noticeMetadata());
    const custom = record.state === 'done' && kind?.doneRoot ? await kind.doneRoot(deps, record) : undefined;
    await updateRoot(deps, record, custom && present(deps, record, custom)).catch((err: unknown) => {
      const code = slackErrorCode(err);
      if (code === undefined || !ROOT_GONE.has(code)) throw err;
      deps.logger.warn({ approval: record.id, slackError: code }, 'the approval root cannot be updated any more');
    });
  }
  await deps.store.approvals.update(record.id, (r) => ({ ...r, settled: true }));
}

/** Settles an approval its caller ended (the reject form, after its acknowledgement). Never rejects: the tick finishes what fails. */
export async function settleEnded(deps: Deps, record: ApprovalRecord): Promise<void> {
  await settle(deps, record).catch((err: unknown) => deps.logger.warn({ approval: record.id, err: errorText(err) }, 'approval not settled yet; a later tick finishes it'));
}

async function updateRoot(deps: Deps, record: ApprovalRecord, message = rootOf(deps, record)): Promise<void> {
  if (!record.rootTs) return;
  await deps.slack.chat.update({ channel: record.channel, ts: record.rootTs, text: message.text, blocks: message.blocks });
}

async function postInThread(deps: Deps, record: ApprovalRecord, message: SlackMessage): Promise<boolean> {
  if (!record.rootTs) return false;
  try {
    await postOnce(exactClient(deps), { channel: record.channel, thread_ts: record.rootTs, text: message.text, blocks: message.blocks }, noticeMetadata());
    return true;
  } catch (err) {
    deps.logger.warn({ approval: record.id, err: slackErrorCode(err) ?? errorText(err) }, 'could not post in the approval thread');
    return false;
  }
}

/** A direct message from the bot to one user: private, and still there when they come back (unlike an ephemeral one). */
async function directMessage(deps: Deps, userId: string, message: SlackMessage): Promise<boolean> {
  try {
    const dm = await deps.slack.conversations.open({ users: userId });
    if (!dm.channel?.id) return false;
    await postOnce(exactClient(deps), { channel: dm.channel.id, text: message.text, blocks: message.blocks }, noticeMetadata());
    return true;
  } catch (err) {
    deps.logger.warn({ user: userId, err: slackErrorCode(err) ?? errorText(err) }, 'could not send a direct message');
    return false;
  }
}

/**
 * The poller's part, on its schedule (one instance per tick on Redis): expires pending approvals past
 * `APPROVAL_TTL`, resumes those an instance left in `approving` (their claim lapsed with it), and
 * settles ended ones whose root could not be updated. Never rejects for one approval's failure.
 */
export async function runApprovalTick(deps: Deps, kinds: ApprovalKinds, options: { stopping: () => boolean }): Promise<{ expired: number; resumed: number; settled: number }> {
  const report = { expired: 0, resumed: 0, settled: 0 };
  const ids = [...new Set(await deps.store.approvals.openIds())];
  const limit = pLimit(4);
  await Promise.all(
    ids.map((id) =>
      limit(async () => {
        if (options.stopping()) return;
        try {
          const record = await deps.store.approvals.get(id);
          if (!record) return void (await deps.store.approvals.forget(id));
          if (record.state === 'pending' && !isPastExpiry(record, Date.now())) return;
          await holding(deps, id, async () => {
            const fresh = await deps.store.approvals.get(id);
            if (!fresh) return;
            if (fresh.state === 'pending') {
              if (!isPastExpiry(fresh, Date.now())) return;
              await endPending(deps, fresh, { state: 'expired' });
              deps.logger.info({ approval: id, action: fresh.action }, 'approval expired');
              report.expired++;
            } else if (fresh.state === 'approving') {
              deps.logger.info({ approval: id, action: fresh.action, intent: fresh.intent?.step ?? 'none' }, 'resuming an approved action');
              await resumeApproved(deps, kinds, fresh);
              report.resumed++;
            } else if (!fresh.settled) {
              await settle(deps, fresh, kinds[fresh.action] as ApprovalKind);
              report.settled++;
            }
          });
        } catch (err) {
          deps.logger.warn({ approval: id, err: errorText(err) }, 'approval tick failed for one approval; a later tick retries');
        }
      }),
    ),
  );
  if (report.expired + report.resumed + report.settled > 0) deps.logger.info({ approvals: report }, 'approval tick');
  return report;
}
