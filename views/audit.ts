import type { Button, KnownBlock } from '@slack/types';
import type { StoredAuditEntry } from '../src/audit/entry';
import { formatSaoPauloInstant } from '../src/domain/sao-paulo-date';
import { type Locale, messages } from '../src/i18n';
import type { AuditPageRef } from './carried';
import { code, context, escapeMrkdwn, type SlackMessage, section } from './message';

/** The paging buttons of `/pix audit` (their value: an AuditPageRef). */
export const AUDIT_PREV_ACTION_ID = 'audit_page_prev';
export const AUDIT_NEXT_ACTION_ID = 'audit_page_next';

/** The longest period `/pix audit` reads, in days. */
export const AUDIT_MAX_DAYS = 366;

export interface AuditPageInput {
  days: number;
  since: number;
  top?: string;
  page: number;
  entries: StoredAuditEntry[];
  hasNext: boolean;
}

function entryBlock(locale: Locale, e: StoredAuditEntry): KnownBlock {
  const m = messages(locale);
  const role = e.role === 'none' ? m.audit.noRole : m.common.role(e.role);
  const head = [
    `*${formatSaoPauloInstant(new Date(e.time), locale)}*`,
    `<@${escapeMrkdwn(e.user)}>`,
    role,
    code(e.action),
    m.audit.outcome(e.outcome),
  ].join(' · ');
  const details = [
    e.target ? code(e.target) : undefined,
    e.pixMethod ? `${code(`${e.pixMethod} ${e.pixPath ?? ''}`.trim())} → ${e.pixStatus ?? '—'}` : undefined,
    e.maker ? m.audit.maker(`<@${escapeMrkdwn(e.maker)}>`) : undefined,
    e.checker ? m.audit.checker(`<@${escapeMrkdwn(e.checker)}>`) : undefined,
    e.detail ? `_${escapeMrkdwn(e.detail)}_` : undefined,
  ].filter(Boolean);
  return section(details.length > 0 ? `${head}\n${details.join(' · ')}` : head);
}

function navButton(actionId: string, label: string, ref: AuditPageRef): Button {
  return { type: 'button', action_id: actionId, text: { type: 'plain_text', text: label }, value: JSON.stringify(ref) };
}

/** One page of `/pix audit`, newest first, with Previous / Next when there is somewhere to go. */
export function auditPageMessage(locale: Locale, input: AuditPageInput): SlackMessage {
  const m = messages(locale);
  const { days, since, page, entries } = input;
  const top = input.top ?? entries[0]?.id;
  const base = { days, since, ...(top ? { top } : {}) };
  const buttons: Button[] = [];
  if (page > 1 && entries.length > 0)
    buttons.push(navButton(AUDIT_PREV_ACTION_ID, m.common.previous, { ...base, page: page - 1, after: entries[0]!.id }));
  if (input.hasNext && entries.length > 0)
    buttons.push(navButton(AUDIT_NEXT_ACTION_ID, m.common.next, { ...base, page: page + 1, before: entries[entries.length - 1]!.id }));
  const nav: KnownBlock[] = buttons.length > 0 ? [{ type: 'actions', block_id: 'audit_nav', elements: buttons }] : [];

  if (entries.length === 0) {
    const text = page === 1 ? m.audit.empty(days) : m.audit.emptyPage;
    return { text, blocks: [section(text), ...nav] };
  }
  return {
    text: m.audit.text({ days, page, count: entries.length }),
    blocks: [section(m.audit.title({ days, page })), ...entries.map((e) => entryBlock(locale, e)), context(m.audit.footer), ...nav],
  };
}
