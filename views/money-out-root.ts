import type { ActionsBlock, KnownBlock } from '@slack/types';
import { APPROVAL_ROLE } from '../src/domain/approvals';
import { formatCents } from '../src/domain/money';
import { type Locale, messages } from '../src/i18n';
import type { MoneyOutRecord } from '../src/payments/records';
import type { ApprovalRecord } from '../src/store/approvals';
import { approvalsGivenText, payloadLines, stateLine } from './approvals';
import { context, escapeClipped, formatDateTime, type SlackMessage, section } from './message';
import { entryText } from './statement';

/** The button of a payment approved and not sent for want of balance: approves the same payment again, once. */
export const PAYMENT_RETRY_ACTION_ID = 'payment_retry';

/** What the root shows beyond the approval and its money-out record. */
export interface MoneyOutRootExtras {
  /** ACCESS_APPROVERS is set (the retry's wording names them). */
  approversListed: boolean;
}

/** The line of a payment or withdraw once its sending was decided: where its money stands. */
function stageLines(locale: Locale, approval: ApprovalRecord, record: MoneyOutRecord): string[] {
  const m = messages(locale).moneyOut;
  const at = (iso: string | undefined) => formatDateTime(iso, locale);
  const checkers = approvalsGivenText(locale, approval.approvedBy ?? []);
  const decided = { checkers, at: at(approval.decidedAt) };
  const endToEnd = record.endToEndId ? [m.endToEnd(`\`${escapeClipped(record.endToEndId, 100)}\``)] : [];
  const sent = record.sentAt
    ? [
        m.sent({ sender: `<@${record.sentBy ?? approval.checkerId ?? approval.makerId}>`, checkers, at: at(record.sentAt) }),
        ...(record.statusRead ? [m.statusRead(escapeClipped(record.statusRead, 40))] : []),
      ]
    : [];
  const balance = record.balance
    ? m.balanceNow({ available: formatCents(record.balance.available, locale), at: at(record.balance.at) })
    : m.balanceNotRead;
  switch (record.stage) {
    case 'sending':
      return [m.sending(decided)];
    case 'short':
      return [
        record.balance
          ? m.short({ ...decided, available: formatCents(record.balance.available, locale), read: at(record.balance.at) })
          : m.shortNoBalance(decided),
      ];
    case 'sent':
      return [...sent, ...endToEnd];
    case 'confirmed':
      return [...sent, m.confirmed(at(record.endedAt)), ...endToEnd];
    case 'failed':
      return [
        ...sent,
        m.failedStage({
          code: `\`${escapeClipped(record.failure?.code ?? '—', 80)}\``,
          description: escapeClipped(record.failure?.description ?? '—', 500),
        }),
      ];
    case 'removed':
      return [m.removed];
    case 'withdrawn':
      return [m.withdrawn(at(record.sentAt ?? record.endedAt)), ...endToEnd, ...(record.balance ? [balance] : [])];
    case 'unknown': {
      const entries = record.entries ?? [];
      return [
        m.unknown(decided),
        balance,
        ...(entries.length > 0 ? [m.latestEntries, ...entries.map((e) => `• ${entryText(locale, e)}`)] : [m.noEntries]),
      ];
    }
  }
}

function retryButton(locale: Locale, approval: ApprovalRecord, value: number): ActionsBlock {
  const m = messages(locale).moneyOut;
  return {
    type: 'actions',
    block_id: 'payment_retry',
    elements: [
      {
        type: 'button',
        action_id: PAYMENT_RETRY_ACTION_ID,
        text: { type: 'plain_text', text: m.retryButton },
        value: approval.id,
        style: 'primary',
        // Slack's confirm dialog: title, confirm and deny at most 100/30/30 characters, text at most 300.
        // https://docs.slack.dev/reference/block-kit/composition-objects/confirmation-dialog-object
        confirm: {
          title: { type: 'plain_text', text: m.retryConfirmTitle },
          text: { type: 'plain_text', text: m.retryConfirmText(formatCents(value, locale)).slice(0, 300) },
          confirm: { type: 'plain_text', text: messages(locale).approvals.confirmYes },
          deny: { type: 'plain_text', text: messages(locale).approvals.confirmNo },
        },
      },
    ],
  };
}

/**
 * The root of a payment's or a withdraw's approval once its sending was decided, in the maker's
 * language: what it sends (amount, account, receiver, key masked), then where the money stands by its
 * money-out record — sending, short (with the `payment_retry` button), sent, confirmed, failed,
 * removed, withdrawn, unknown (with the balance and latest statement entries read then). Without a
 * record (nothing was decided to be sent), the approval's own state line. Pure: every stage's data is
 * in the two records.
 */
export function moneyOutRoot(
  locale: Locale,
  approval: ApprovalRecord,
  moneyOut: MoneyOutRecord | undefined,
  extras: MoneyOutRootExtras,
): SlackMessage {
  const m = messages(locale).approvals;
  const title = m.actionTitle(approval.action);
  const lines = moneyOut ? stageLines(locale, approval, moneyOut) : [stateLine(locale, approval)];
  const blocks: KnownBlock[] = [
    section(`*${title}*`),
    section(payloadLines(locale, approval.payload, approval.askedBalance).join('\n')),
    section(lines.join('\n')),
    context(m.askedBy({ maker: `<@${approval.makerId}>`, at: formatDateTime(approval.createdAt, locale) })),
  ];
  if (moneyOut?.stage === 'short' && approval.payload.action === 'pay') {
    blocks.push(
      retryButton(locale, approval, approval.payload.value),
      context(
        messages(locale).moneyOut.retryWho({
          role: messages(locale).common.role(APPROVAL_ROLE[approval.action]),
          listed: extras.approversListed,
        }),
      ),
    );
  }
  const word = moneyOut ? moneyOut.stage : m.stateWord(approval.state);
  return { text: `${title}: ${lines[0] ?? word}`.slice(0, 3000), blocks };
}
