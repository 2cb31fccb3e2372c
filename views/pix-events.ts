import type { KnownBlock } from '@slack/types';
import { formatCents } from '../src/domain/money';
import { type Locale, messages } from '../src/i18n';
import type { DisputeRecord, OtherEventSummary } from '../src/store/pix-events';
import { evidenceButton } from './carried';
import { context, escapeClipped, escapeMrkdwn, fields, type SlackMessage, section } from './message';

/** The root's button: opens the dispute-evidence form (commands/pix-events.ts; role operator). */
export const DISPUTE_EVIDENCE_ACTION = 'dispute_send_evidence';
const FIELD_MAX = 300;

const code = (text: string) => `\`${escapeClipped(text, 100)}\``;
const valueText = (locale: Locale, cents: number | undefined) =>
  cents === undefined ? messages(locale).pixEvents.notGiven : formatCents(cents, locale);

/**
 * A dispute's thread root: status, type, value in R$, reason, the customer's name, the masked e-mail,
 * phone and tax id (masked when recorded), the ids; the evidence button.
 */
export function disputeRootMessage(locale: Locale, d: DisputeRecord): SlackMessage {
  const m = messages(locale).pixEvents;
  const status = m.status(d.status ?? 'OPENED');
  const given = (v: string | undefined) => (v ? escapeClipped(v, FIELD_MAX) : m.notGiven);
  const pairs: Array<[string, string]> = [
    [m.statusLabel, `*${status}*`],
    [m.typeLabel, d.type ? escapeClipped(m.type(d.type), FIELD_MAX) : m.notGiven],
    [m.valueLabel, valueText(locale, d.value)],
    [m.reasonLabel, given(d.reason)],
    [m.customerLabel, given(d.name)],
    [m.emailLabel, given(d.email)],
    [m.phoneLabel, given(d.phone)],
    [m.taxIdLabel, given(d.taxId)],
    [m.e2eLabel, code(d.endToEndId)],
    [m.disputeIdLabel, d.id ? code(d.id) : m.notGiven],
  ];
  const blocks: KnownBlock[] = [
    section(`:rotating_light: ${m.disputeTitle(status)}`),
    ...fields(pairs),
    {
      type: 'actions',
      block_id: 'pix_dispute',
      elements: [
        {
          type: 'button',
          action_id: DISPUTE_EVIDENCE_ACTION,
          text: { type: 'plain_text', text: m.evidenceButton },
          value: JSON.stringify(evidenceButton(d.endToEndId, d.id)),
        },
      ],
    },
    context(m.evidenceHint),
  ];
  return { text: m.disputeText({ status, value: valueText(locale, d.value), e2e: d.endToEndId }), blocks };
}

/** A later event of a dispute, in its thread. `late`: an opening that arrived after a final status. */
export function disputeReplyMessage(locale: Locale, input: { e2e: string; status: string; late: boolean }): SlackMessage {
  const m = messages(locale).pixEvents;
  const status = m.status(input.status);
  const line = input.late ? m.replyLateOpened : m.replyLine(escapeMrkdwn(status));
  return { text: m.replyText({ status, e2e: input.e2e }), blocks: [section(line)] };
}

/** Any other listed kind: one compact line (the kind in words, R$, the correlation ID, masked data). */
export function otherEventMessage(locale: Locale, kind: string, d: OtherEventSummary): SlackMessage {
  const m = messages(locale).pixEvents;
  const parts = [
    ...(d.value !== undefined ? [formatCents(d.value, locale)] : []),
    ...(d.status ? [m.statusPart(escapeClipped(d.status, 40))] : []),
    ...(d.correlationId ? [m.correlation(code(d.correlationId))] : []),
    ...(d.name ? [m.customer(escapeClipped(d.name, FIELD_MAX))] : []),
    ...(d.taxId ? [m.taxId(escapeClipped(d.taxId, 40))] : []),
  ];
  const line = m.otherLine({ kind: escapeClipped(m.kindWords(kind), 200), parts });
  return { text: line.replace(/\*/g, ''), blocks: [section(`:incoming_envelope: ${line}`)] };
}

/** The Home tab's part: the open disputes, most recently updated first, at most `max`, each with its channel. */
export function openDisputesBlocks(locale: Locale, input: { disputes: DisputeRecord[]; max: number }): KnownBlock[] {
  const m = messages(locale).pixEvents;
  if (input.disputes.length === 0) return [section(m.homeTitle), context(m.homeNone)];
  const lines = input.disputes.slice(0, input.max).map((d) => {
    return m.homeLine({
      e2e: code(d.endToEndId),
      value: valueText(locale, d.value),
      type: d.type ? escapeClipped(d.type, 40) : m.notGiven,
      status: m.status(d.status ?? 'OPENED'),
      where: `<#${d.channel}>`,
    });
  });
  const more = input.disputes.length - input.max;
  return [section(m.homeTitle), section(lines.join('\n')), ...(more > 0 ? [context(m.homeMore(more))] : [])];
}
