import type { ActionsBlock, Button, KnownBlock, ModalView } from '@slack/types';
import { APPROVAL_ROLE, type ApprovalAction, type ApprovalGiven, type ApprovalPayload } from '../src/domain/approvals';
import { limitFieldLabel } from '../src/domain/limit-fields';
import { formatCents } from '../src/domain/money';
import type { PayPayload, WithdrawPayload } from '../src/domain/money-out';
import { maskPixKey, maskTaxId } from '../src/domain/pix-key-mask';
import type { Role } from '../src/domain/roles';
import { ageText, formatSaoPauloDateTime } from '../src/domain/sao-paulo-date';
import { type Locale, messages } from '../src/i18n';
import type { ApprovalRecord } from '../src/store/approvals';
import { keyTypeLabel, quoted } from './accounts';
import type { RejectMeta } from './carried';
import { code, context, escapeMrkdwn, formatDateTime, type SlackMessage, section } from './message';
import { modalTitle } from './modal';

/** The contract's action_ids: Approve (behind Slack's confirm dialog), Reject (opens the reason form), Cancel (the maker's). */
export const APPROVAL_ACTION_IDS = { approve: 'approval_approve', reject: 'approval_reject', cancel: 'approval_cancel' } as const;
/** The reject form: its callback_id, and the input the contract names. */
export const APPROVAL_REJECT_CALLBACK = 'approval_reject_reason';
export const REASON_BLOCK = 'reason';
export const REASON_MAX = 1000;
/** The root's metadata: how an approval's message is recognized. */
export const APPROVAL_EVENT_TYPE = 'pix_approval';

/** Free text a user typed, in a section: escaped, and short enough for Slack's 3,000 characters a text. */
function userText(text: string, max = 500): string {
  const clipped = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return escapeMrkdwn(clipped.replace(/\s+/g, ' '));
}

/** The source account's available balance read when a payment or a withdraw was asked (ApprovalRecord.askedBalance). */
export type AskedBalance = ApprovalRecord['askedBalance'];

/** The source account and its available balance as read when it was asked; flagged when lower than the amount. */
function balanceLines(locale: Locale, accountId: string, value: number, asked: AskedBalance): string[] {
  const m = messages(locale).moneyOut;
  if (!asked) return [m.balanceUnread(code(accountId))];
  const line = m.fromAccount({ account: code(accountId), available: formatCents(asked.available, locale), at: when(locale, asked.at) });
  return asked.available < value ? [line, m.balanceShort] : [line];
}

/** A payment's root: amount, source account and balance, the receiver as the key check found them (tax ID masked), the key masked, the comment. */
function payLines(locale: Locale, p: PayPayload, asked: AskedBalance): string[] {
  const m = messages(locale).moneyOut;
  const lines = [m.amount(formatCents(p.value, locale)), ...balanceLines(locale, p.sourceAccountId, p.value, asked)];
  if (p.receiver.verified) {
    const r = p.receiver;
    lines.push(
      m.receiver({
        name: r.name ? userText(r.name, 200) : m.unknownPart,
        taxId: r.taxId ? code(maskTaxId(r.taxId)) : m.unknownPart,
        bank: r.bank ? userText(r.bank, 200) : m.unknownPart,
      }),
    );
  } else lines.push(m.receiverUnverified);
  lines.push(
    m.key({ key: code(maskPixKey(p.destinationAlias, p.destinationAliasType)), type: keyTypeLabel(locale, p.destinationAliasType) }),
  );
  if (p.comment) lines.push(m.comment(userText(p.comment, 140)));
  return lines;
}

/** A withdraw's root: amount, the account and its balance, its withdraw key masked and its type. */
function withdrawLines(locale: Locale, p: WithdrawPayload, asked: AskedBalance): string[] {
  const m = messages(locale).moneyOut;
  return [
    m.amount(formatCents(p.value, locale)),
    ...balanceLines(locale, p.accountId, p.value, asked),
    m.withdrawTo({ key: code(maskPixKey(p.withdrawKey.pixKey, p.withdrawKey.type)), type: keyTypeLabel(locale, p.withdrawKey.type) }),
  ];
}

/**
 * What the action will send, line by line, in the maker's words. Others read it (the channel, the
 * checkers' Home tab), so Pix keys are masked (maskPixKey): the full value only the maker typed.
 * `asked`: a payment's or a withdraw's balance as read when it was asked.
 */
export function payloadLines(locale: Locale, payload: ApprovalPayload, asked?: AskedBalance): string[] {
  const m = messages(locale).approvals;
  switch (payload.action) {
    case 'pay':
      return payLines(locale, payload, asked);
    case 'withdraw':
      return withdrawLines(locale, payload, asked);
    case 'key-add':
      return [
        m.account(code(payload.accountId)),
        payload.type === 'EVP' && payload.pixKey === ''
          ? m.randomKey
          : m.pixKey({ key: code(maskPixKey(payload.pixKey, payload.type)), type: keyTypeLabel(locale, payload.type) }),
      ];
    case 'key-delete':
      return [m.account(code(payload.accountId)), m.keyToDelete(code(maskPixKey(payload.pixKey))), m.deleteWarning];
    case 'withdraw-key':
      return [m.account(code(payload.accountId)), m.withdrawKey(code(maskPixKey(payload.pixKey)))];
    case 'account-create':
      return [m.campaign(quoted(payload.name)), m.accountCreateNote];
    case 'rotate-secret':
      return [m.application(code(payload.clientId)), m.rotateNote];
    case 'limit-request': {
      const money = (cents: number) => formatCents(cents, locale);
      const lines = [m.account(code(payload.accountId))];
      for (const [field, cents] of Object.entries(payload.limits)) {
        lines.push(`• ${limitFieldLabel(field, locale)}: ${money(payload.current[field] ?? 0)} → *${money(cents)}*`);
      }
      lines.push(m.proofs(payload.files.map((f) => escapeMrkdwn(f.name)).join(', ')));
      if (payload.description) lines.push(m.description(userText(payload.description)));
      if (payload.limitRequestReason) lines.push(m.reason(userText(payload.limitRequestReason)));
      return lines;
    }
  }
}

const when = (locale: Locale, iso: string | undefined) => formatDateTime(iso, locale);

function buttons(locale: Locale, record: ApprovalRecord): ActionsBlock {
  const m = messages(locale).approvals;
  const title = m.actionTitle(record.action);
  const button = (id: string, text: string, extra: Partial<Button> = {}): Button => ({
    type: 'button',
    action_id: id,
    text: { type: 'plain_text', text },
    value: record.id,
    ...extra,
  });
  return {
    type: 'actions',
    block_id: 'approval_actions',
    elements: [
      button(APPROVAL_ACTION_IDS.approve, m.approveButton, {
        style: 'primary',
        // Slack's confirm dialog: title, confirm and deny at most 100/30/30 characters, text at most 300.
        // https://docs.slack.dev/reference/block-kit/composition-objects/confirmation-dialog-object
        confirm: {
          title: { type: 'plain_text', text: m.confirmTitle },
          text: { type: 'plain_text', text: m.confirmText(title).slice(0, 300) },
          confirm: { type: 'plain_text', text: m.confirmYes },
          deny: { type: 'plain_text', text: m.confirmNo },
        },
      }),
      button(APPROVAL_ACTION_IDS.reject, m.rejectButton, { style: 'danger' }),
      button(APPROVAL_ACTION_IDS.cancel, m.cancelButton),
    ],
  };
}

/** A checker, and the away approver they decided for when a delegate decided. */
function checkerText(locale: Locale, userId: string, forUserId: string | undefined): string {
  return forUserId ? messages(locale).approvals.checkerFor({ checker: `<@${userId}>`, away: `<@${forUserId}>` }) : `<@${userId}>`;
}

/** The approvals given, in words: `@ana and @bruno for @abel`. */
export function approvalsGivenText(locale: Locale, given: readonly ApprovalGiven[]): string {
  return messages(locale).approvals.and(given.map((a) => checkerText(locale, a.userId, a.forUserId)));
}

/** States whose checkers are those who approved. */
const APPROVED_STATES: ReadonlySet<ApprovalRecord['state']> = new Set(['pending', 'approving', 'done', 'failed']);

/**
 * Who decided: every checker who approved it (`@ana and @bruno for @abel`), or who rejected it;
 * `—` when nobody did.
 */
function checkersText(locale: Locale, record: ApprovalRecord): string {
  const given = record.approvedBy ?? [];
  if (given.length > 0 && APPROVED_STATES.has(record.state)) return approvalsGivenText(locale, given);
  return record.checkerId ? checkerText(locale, record.checkerId, record.checkerFor) : '—';
}

/** While pending with two checkers needed: how many approved so far, and who. */
function quorumLine(locale: Locale, record: ApprovalRecord): string | undefined {
  const m = messages(locale).approvals;
  const needed = record.required ?? 1;
  const given = record.approvedBy ?? [];
  if (needed < 2) return undefined;
  return given.length === 0 ? m.quorumNone(needed) : m.quorumSoFar({ given: given.length, needed, who: checkersText(locale, record) });
}

/** The line that says where an approval stands, once it has left `pending`. */
export function stateLine(locale: Locale, record: ApprovalRecord): string {
  const m = messages(locale).approvals;
  const checker = checkersText(locale, record);
  const at = when(locale, record.decidedAt);
  switch (record.state) {
    case 'pending':
      return m.expires(when(locale, record.expiresAt));
    case 'approving':
      return m.approving({ checker, at });
    case 'done':
      return m.done({ checker, at });
    case 'failed':
      return m.failed({ checker, at });
    case 'rejected':
      return m.rejected({ checker, at, reason: `“${userText(record.reason ?? '')}”` });
    case 'cancelled':
      return m.cancelled({ maker: `<@${record.makerId}>`, at });
    case 'expired':
      return m.expired(at);
  }
}

/**
 * The approval's root in the channel, in the maker's language: the action, the maker, what will be
 * sent; while pending, the three buttons; afterwards, who decided and when.
 */
export function approvalRootMessage(locale: Locale, record: ApprovalRecord, options: { approversListed: boolean }): SlackMessage {
  const m = messages(locale).approvals;
  const title = m.actionTitle(record.action);
  const pending = record.state === 'pending';
  const quorum = pending ? quorumLine(locale, record) : undefined;
  const blocks: KnownBlock[] = [
    section(pending ? m.pendingHead(title) : `*${title}*`),
    section([m.willSend, ...payloadLines(locale, record.payload, record.askedBalance)].join('\n')),
    ...(quorum ? [section(quorum)] : []),
    section(stateLine(locale, record)),
    context(m.askedBy({ maker: `<@${record.makerId}>`, at: when(locale, record.createdAt) })),
  ];
  if (pending && record.escalatedAt) blocks.push(context(m.escalatedLine(when(locale, record.escalatedAt))));
  if (pending) {
    blocks.push(
      buttons(locale, record),
      context(m.whoMayApprove({ role: messages(locale).common.role(APPROVAL_ROLE[record.action]), listed: options.approversListed })),
    );
  }
  return { text: `${title}: ${m.stateWord(record.state)}`, blocks };
}

/** Why a user may not decide (or cancel) an approval: the engine's refusals, as data. */
export type ApprovalRefusal =
  | { kind: 'own' }
  | { kind: 'role'; role: Role; action: ApprovalAction }
  | { kind: 'not-approver'; userId: string }
  | { kind: 'not-maker'; makerId: string }
  | { kind: 'standing-unknown' }
  | { kind: 'already-approved'; given: number; needed: number }
  | { kind: 'lookup-failed' };

/** A refusal in the clicker's words. */
export function refusalText(locale: Locale, refusal: ApprovalRefusal): string {
  const m = messages(locale).approvals;
  switch (refusal.kind) {
    case 'own':
      return m.selfRefused;
    case 'role':
      return m.roleRefused({ role: messages(locale).common.role(refusal.role), title: m.actionTitle(refusal.action) });
    case 'not-approver':
      return m.notApprover(refusal.userId);
    case 'not-maker':
      return m.onlyMakerCancels(`<@${refusal.makerId}>`);
    case 'standing-unknown':
      return messages(locale).approvalRules.makerStandingUnknown;
    case 'already-approved':
      return m.alreadyApprovedByYou({ given: refusal.given, needed: refusal.needed });
    case 'lookup-failed':
      return m.lookupFailed;
  }
}

/** Where an approval stands, for someone who clicks it once it left `pending` (or never had a root). */
export function decidedText(locale: Locale, record: ApprovalRecord | undefined): string {
  const m = messages(locale).approvals;
  if (!record) return m.notFound;
  const checker = checkersText(locale, record);
  switch (record.state) {
    case 'pending':
      return messages(locale).approvalRules.notRegisteredAnswer;
    case 'rejected':
      return m.alreadyRejected({ checker, at: when(locale, record.decidedAt) });
    case 'cancelled':
      return record.rootTs ? m.alreadyCancelled(when(locale, record.decidedAt)) : messages(locale).approvalRules.notRegisteredAnswer;
    case 'expired':
      return m.alreadyExpired(when(locale, record.decidedAt));
    default:
      return m.alreadyApproved({ checker, at: when(locale, record.decidedAt) });
  }
}

/** A pending root whose record could not be kept: no buttons, and why nothing will happen. */
export function notRegisteredRootMessage(locale: Locale, record: ApprovalRecord): SlackMessage {
  const m = messages(locale).approvals;
  const title = m.actionTitle(record.action);
  const text = messages(locale).approvalRules.notRegistered;
  return {
    text: `${title}: ${text}`,
    blocks: [
      section(`*${title}*`),
      section([m.willSend, ...payloadLines(locale, record.payload, record.askedBalance)].join('\n')),
      section(text),
      context(m.askedBy({ maker: `<@${record.makerId}>`, at: when(locale, record.createdAt) })),
    ],
  };
}

/**
 * A reminder in the root's thread: who may approve (mentioned), how long it has waited, when it
 * expires. `approversListed`: the mentions are ACCESS_APPROVERS; else they are the role's lists, and
 * the role is named beside them.
 */
export function reminderMessage(
  locale: Locale,
  record: ApprovalRecord,
  input: {
    mentions: string[];
    delegates?: Array<{ delegate: string; away: string }>;
    approversListed: boolean;
    now: Date;
    n: number;
    max: number;
    elsewhere?: { link?: string };
  },
): SlackMessage {
  const m = messages(locale);
  const role = m.approvalRules.anyoneWithRole(m.common.role(APPROVAL_ROLE[record.action]));
  const names = withDelegates(locale, input.mentions, input.delegates);
  const who = names.length === 0 ? role : input.approversListed ? names.join(', ') : `${names.join(', ')} (${role})`;
  const text = [
    m.approvalRules.reminder({
      who,
      title: m.approvals.actionTitle(record.action),
      maker: `<@${record.makerId}>`,
      age: ageText(record.createdAt, input.now, locale),
      expires: when(locale, record.expiresAt),
      n: input.n,
      max: input.max,
    }),
    ...stillNeeded(locale, record, input.elsewhere),
  ].join(' ');
  return { text, blocks: [section(text)] };
}

/** Mentions, and beside them the delegates of those away (`@bruno (for @abel, away)`). */
function withDelegates(locale: Locale, mentions: string[], delegates: Array<{ delegate: string; away: string }> = []): string[] {
  const m = messages(locale).approvalRules;
  return [...mentions, ...delegates.map((d) => m.delegateFor({ delegate: `<@${d.delegate}>`, away: `<@${d.away}>` }))];
}

/** What a post about a waiting approval adds: the approvals given so far, and where its root is when the approvers cannot see it. */
function stillNeeded(locale: Locale, record: ApprovalRecord, elsewhere: { link?: string } | undefined): string[] {
  const m = messages(locale).approvalRules;
  const given = record.approvedBy?.length ?? 0;
  return [
    ...(given > 0 ? [m.quorumSoFar({ given, needed: record.required ?? 1 })] : []),
    ...(elsewhere ? [m.rootElsewhere(elsewhere.link)] : []),
  ];
}

/**
 * The escalation, where the approvers are (the root's thread, or where the maker asked when the root
 * is in their DM): the escalation list (and the delegates of those away) mentioned, told they may decide it now.
 */
export function escalationMessage(
  locale: Locale,
  record: ApprovalRecord,
  input: { mentions: string[]; delegates?: Array<{ delegate: string; away: string }>; now: Date; elsewhere?: { link?: string } },
): SlackMessage {
  const m = messages(locale);
  const text = [
    m.approvalRules.escalation({
      who: withDelegates(locale, input.mentions, input.delegates).join(', '),
      title: m.approvals.actionTitle(record.action),
      maker: `<@${record.makerId}>`,
      age: ageText(record.createdAt, input.now, locale),
      expires: when(locale, record.expiresAt),
    }),
    ...stillNeeded(locale, record, input.elsewhere),
  ].join(' ');
  return { text, blocks: [section(text)] };
}

/** The direct message to one member of the escalation list (or the delegate of one away): a link to the root. */
export function escalationDmMessage(
  locale: Locale,
  record: ApprovalRecord,
  input: { link?: string; now: Date; forUserId?: string },
): SlackMessage {
  const m = messages(locale).approvalRules;
  const text = [
    m.escalationDm({
      title: messages(locale).approvals.actionTitle(record.action),
      maker: `<@${record.makerId}>`,
      age: ageText(record.createdAt, input.now, locale),
      expires: when(locale, record.expiresAt),
      ...(input.link ? { link: input.link } : {}),
    }),
    ...(input.forUserId ? [m.escalationDmFor(`<@${input.forUserId}>`)] : []),
  ].join(' ');
  return { text, blocks: [section(text)] };
}

/** The reply in the root's thread that tells the maker (mentioned) of a failure or a rejection. */
export function approvalReplyMessage(locale: Locale, record: ApprovalRecord): SlackMessage | undefined {
  const m = messages(locale).approvals;
  const maker = `<@${record.makerId}>`;
  const checker = checkersText(locale, record);
  if (record.state === 'rejected') {
    const text = m.rejectedReply({ maker, checker, reason: `“${userText(record.reason ?? '', REASON_MAX)}”` });
    return { text, blocks: [section(text)] };
  }
  if (record.state === 'failed') {
    const text = m.failedReply({ maker, checker, problem: record.outcome?.problem ?? m.interrupted });
    return { text, blocks: [section(text)] };
  }
  return undefined;
}

/** A record of what an approved action did, for its thread: the action's own message, and who asked and approved. */
export function withApprovalNote(locale: Locale, message: SlackMessage, record: ApprovalRecord): SlackMessage {
  const note = messages(locale).approvals.approvedBy({ checker: checkersText(locale, record), maker: `<@${record.makerId}>` });
  return { text: message.text, blocks: [...message.blocks, context(note)] };
}

/** The reject form: the reason is required (the maker reads it in the thread). */
export function rejectModal(locale: Locale, input: { record: ApprovalRecord; sandbox: boolean }): ModalView {
  const m = messages(locale).approvals;
  const meta: RejectMeta = { approvalId: input.record.id };
  return {
    type: 'modal',
    callback_id: APPROVAL_REJECT_CALLBACK,
    title: modalTitle(m.rejectTitle),
    submit: { type: 'plain_text', text: m.rejectSubmit },
    close: { type: 'plain_text', text: messages(locale).common.cancel },
    private_metadata: JSON.stringify(meta),
    blocks: [
      section(m.rejectIntro(m.actionTitle(input.record.action))),
      section(payloadLines(locale, input.record.payload, input.record.askedBalance).join('\n')),
      {
        type: 'input',
        block_id: REASON_BLOCK,
        label: { type: 'plain_text', text: m.reasonLabel },
        element: { type: 'plain_text_input', action_id: 'reason', multiline: true, min_length: 1, max_length: REASON_MAX },
      },
      ...(input.sandbox ? [context(messages(locale).common.sandboxNote)] : []),
    ],
  };
}

/** The maker's answer once the pending root is posted. */
export function sentForApprovalText(locale: Locale, record: ApprovalRecord, where: { channel: string; dm: boolean } | undefined): string {
  const m = messages(locale).approvals;
  if (!where) return m.notPosted;
  return m.sentForApproval({ title: m.actionTitle(record.action), where: where.dm ? m.sentToDm : m.sentWhere(`<#${where.channel}>`) });
}

/** An approval on the Home tab: the viewer decides it (for `forUserId`, when as a delegate), or cancels it (their own). */
export interface HomeApprovalItem {
  record: ApprovalRecord;
  forUserId?: string;
}

/** The viewer's delegation: who decides for them while they are away, and for whom they decide. */
export interface HomeDelegation {
  away?: { delegate: string; until: string };
  decidingFor: Array<{ awayUserId: string; until: string }>;
}

/** The Home tab's list: approvals the viewer may decide (as a delegate too), their own (to cancel), and their delegation. */
export function homeApprovalBlocks(
  locale: Locale,
  input: { viewerId: string; items: HomeApprovalItem[]; total: number; now: Date; approversListed: boolean; delegation?: HomeDelegation },
): KnownBlock[] {
  const m = messages(locale).approvals;
  const blocks: KnownBlock[] = [section(m.homeTitle)];
  const day = (until: string) => formatSaoPauloDateTime(until, locale) ?? until;
  const { away, decidingFor = [] } = input.delegation ?? {};
  if (away) blocks.push(context(m.homeAway({ delegate: `<@${away.delegate}>`, until: day(away.until) })));
  for (const d of decidingFor) blocks.push(context(m.homeDelegate({ away: `<@${d.awayUserId}>`, until: day(d.until) })));
  if (input.items.length === 0) return [...blocks, context(m.homeNone)];
  for (const { record, forUserId } of input.items) {
    const line = m.homeLine({
      title: m.actionTitle(record.action),
      maker: `<@${record.makerId}>`,
      age: ageText(record.createdAt, input.now, locale),
      expires: when(locale, record.expiresAt),
    });
    const mine = record.makerId === input.viewerId;
    const quorum = quorumLine(locale, record);
    blocks.push(section([line, ...payloadLines(locale, record.payload, record.askedBalance), ...(quorum ? [quorum] : [])].join('\n')));
    const all = buttons(locale, record);
    const elements = all.elements.filter((e) =>
      mine ? (e as Button).action_id === APPROVAL_ACTION_IDS.cancel : (e as Button).action_id !== APPROVAL_ACTION_IDS.cancel,
    );
    blocks.push({ ...all, block_id: `approval_${record.id}`, elements });
    if (mine) blocks.push(context(m.homeYours));
    else if (forUserId) blocks.push(context(m.homeFor(`<@${forUserId}>`)));
  }
  if (input.total > input.items.length) blocks.push(context(m.homeMore(input.total - input.items.length)));
  return blocks;
}
