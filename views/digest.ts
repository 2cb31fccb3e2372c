import type { KnownBlock } from '@slack/types';
import { APPROVAL_ROLE } from '../src/domain/approvals';
import { formatApiCents, formatCents } from '../src/domain/money';
import { ageText, formatSaoPauloDateTime } from '../src/domain/sao-paulo-date';
import { type Locale, messages } from '../src/i18n';
import type { MoneyOutSummary } from '../src/payments/digest';
import type { Account } from '../src/pix/schemas';
import type { ApprovalRecord } from '../src/store/approvals';
import type { DisputeRecord } from '../src/store/pix-events';
import type { TrackedRequest } from '../src/store/tracked-requests';
import { clip, code, context, type SlackMessage, section } from './message';
import { failedPart, type Part } from './part';

/** `event_type` of a scheduled digest's message; its payload names the scheduled time (`slot`). */
export const DIGEST_EVENT_TYPE = 'pix_digest';
/** How many of each kind the digest shows (the oldest), the rest counted: within a message's 50 blocks however much waits. */
export const DIGEST_SHOWN = 5;
/** One line of a section, at most: five of them and a title stay far inside a section's 3,000 characters. */
const LINE_MAX = 400;
/** The notification text, at most (Slack advises 4,000 characters). */
const TEXT_MAX = 4_000;

/** The first few of a list (in the order shown), and how many there are in all. */
export interface Listed<T> {
  items: T[];
  total: number;
}

/** A pending approval, with who may decide it (Slack mentions; empty: anyone with its role). */
export interface WaitingApproval {
  record: ApprovalRecord;
  mayDecide: string[];
}

/** What the digest says, read from the store and the Pix API (src/digest/data.ts). */
export interface DigestData {
  now: Date;
  approvals: Part<Listed<WaitingApproval>>;
  inReview: Part<Listed<TrackedRequest>>;
  /** Absent when the dispute desk is off (no PIX_EVENTS_CHANNEL): nothing records disputes. */
  disputes?: Part<Listed<DisputeRecord>>;
  /** Below: lowest available balance first. `below` is empty when no threshold is set. */
  accounts: Part<{ below: Listed<Account>; blocked: Listed<Account> }>;
  /** Payments and withdrawals sent since the last digest, and payments that failed (absent: not read). */
  moneyOut?: Part<MoneyOutSummary>;
  /** BALANCE_ALERT_BELOW, in cents; unset: no section of accounts below it. */
  belowCents?: number;
}

const where = (channel: string) => (/^[CG][A-Z0-9]+$/.test(channel) ? `<#${channel}>` : code(channel));

/** A section: its title and first lines in one block, "and N more" (with where to see them all) under it. */
function listBlocks(title: string, lines: string[], more: number, moreText: (n: number) => string): KnownBlock[] {
  const body = [title, ...lines.map((l) => clip(l, LINE_MAX))].join('\n');
  return [section(body), ...(more > 0 ? [context(moreText(more))] : [])];
}

/**
 * The digest: approvals waiting (what, who asked, how long ago, who may decide), limit requests in
 * review, open disputes, accounts below the alert threshold, withdraw-blocked accounts — the oldest few
 * of each and how many more, a section left out when it has nothing; "nothing is waiting" when none has
 * anything. A part that could not be read says so (and the digest is never "nothing waiting" then).
 */
export function digestMessage(locale: Locale, data: DigestData): SlackMessage {
  const m = messages(locale);
  const d = m.digest;
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: d.header } },
    context(d.intro(formatSaoPauloDateTime(data.now.toISOString(), locale) ?? data.now.toISOString())),
  ];
  const summary: string[] = [];
  let unread = false;
  const threshold = data.belowCents === undefined ? undefined : formatCents(data.belowCents, locale);

  if (!data.approvals.ok) {
    unread = true;
    blocks.push(failedPart(locale, data.approvals));
  } else if (data.approvals.value.total > 0) {
    const { items, total } = data.approvals.value;
    const role = (r: ApprovalRecord) => m.approvalRules.anyoneWithRole(m.common.role(APPROVAL_ROLE[r.action]));
    const lines = items.map(({ record, mayDecide }) =>
      d.approvalLine({
        title: m.approvals.actionTitle(record.action),
        maker: `<@${record.makerId}>`,
        age: ageText(record.createdAt, data.now, locale),
        who: mayDecide.length > 0 ? clip(mayDecide.join(', '), 200) : role(record),
        where: where(record.channel),
      }),
    );
    blocks.push(...listBlocks(d.approvalsTitle(total), lines, total - items.length, d.approvalsMore));
    summary.push(d.textApprovals(total));
  }

  if (!data.inReview.ok) {
    unread = true;
    blocks.push(failedPart(locale, data.inReview));
  } else if (data.inReview.value.total > 0) {
    const { items, total } = data.inReview.value;
    const lines = items.map((r) =>
      d.inReviewLine({
        id: code(r.limitRequestId),
        account: code(r.accountId),
        age: ageText(r.createdAt, data.now, locale),
        user: `<@${r.requesterId}>`,
      }),
    );
    blocks.push(...listBlocks(d.inReviewTitle(total), lines, total - items.length, d.inReviewMore));
    summary.push(d.textInReview(total));
  }

  if (data.disputes && !data.disputes.ok) {
    unread = true;
    blocks.push(failedPart(locale, data.disputes));
  } else if (data.disputes?.ok && data.disputes.value.total > 0) {
    const { items, total } = data.disputes.value;
    const lines = items.map((dispute) =>
      d.disputeLine({
        e2e: code(dispute.endToEndId),
        value: dispute.value === undefined ? m.pixEvents.notGiven : formatCents(dispute.value, locale),
        age: ageText(dispute.firstAt, data.now, locale),
        where: where(dispute.channel),
      }),
    );
    blocks.push(...listBlocks(d.disputesTitle(total), lines, total - items.length, d.disputesMore));
    summary.push(d.textDisputes(total));
  }

  if (!data.accounts.ok) {
    unread = true;
    blocks.push(failedPart(locale, data.accounts));
  } else {
    const { below, blocked } = data.accounts.value;
    if (threshold !== undefined && below.total > 0) {
      const lines = below.items.map((a) =>
        d.belowLine({ account: code(a.accountId), available: a.balance ? formatApiCents(a.balance.available, locale) : '—' }),
      );
      blocks.push(...listBlocks(d.belowTitle({ n: below.total, threshold }), lines, below.total - below.items.length, d.accountsMore));
      summary.push(d.textBelow({ n: below.total, threshold }));
    }
    if (blocked.total > 0) {
      const lines = blocked.items.map((a) => d.blockedLine(code(a.accountId)));
      blocks.push(...listBlocks(d.blockedTitle(blocked.total), lines, blocked.total - blocked.items.length, d.accountsMore));
      summary.push(d.textBlocked(blocked.total));
    }
  }

  if (data.moneyOut && !data.moneyOut.ok) unread = true;
  if (summary.length === 0 && !unread) blocks.push(section(d.nothingWaiting));

  // What left is news, not something waiting: after the rest, and never instead of "nothing is waiting".
  if (data.moneyOut && !data.moneyOut.ok) {
    blocks.push(failedPart(locale, data.moneyOut));
  } else if (data.moneyOut?.ok && data.moneyOut.value.sent.count + data.moneyOut.value.failed.count > 0) {
    const { since, sent, failed } = data.moneyOut.value;
    const p = m.paymentEnd;
    const lines = [p.digestTitle(formatSaoPauloDateTime(since.toISOString(), locale) ?? since.toISOString())];
    if (sent.count > 0) lines.push(p.digestSent({ n: sent.count, total: formatCents(sent.total, locale) }));
    if (failed.count > 0) lines.push(p.digestFailed({ n: failed.count, total: formatCents(failed.total, locale) }));
    blocks.push(section(lines.join('\n')), context(p.digestMore));
    if (sent.count > 0) summary.push(p.textSent(sent.count));
    if (failed.count > 0) summary.push(p.textFailed(failed.count));
  }

  if (unread) summary.push(d.textUnread);
  return { text: clip(d.text(summary), TEXT_MAX), blocks };
}
