import type { Button, KnownBlock } from '@slack/types';
import { formatApiCents } from '../src/domain/money';
import { formatSaoPauloInstant } from '../src/domain/sao-paulo-date';
import { type Locale, messages } from '../src/i18n';

/** What every builder returns: `text` is the notification and screen-reader fallback of `blocks`. */
export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

/** Slack's mrkdwn needs only these three escaped in user-supplied text. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Text as inline code, escaped. */
export const code = (text: string) => `\`${escapeMrkdwn(text)}\``;

/**
 * Slack's text limits (https://docs.slack.dev/reference/block-kit/blocks/section-block): a section's
 * text at most 3,000 characters, a field 2,000, any text object 3,000.
 */
export const TEXT_MAX = { section: 3000, field: 2000 } as const;

/** At most `max` characters, the last one an ellipsis when something was cut. */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * User-supplied or API text, escaped for mrkdwn and at most `max` characters once escaped (an
 * ellipsis where it was cut, never half an entity): names, file names, the API's error texts.
 */
export function escapeClipped(text: string, max: number): string {
  const escaped = escapeMrkdwn(text);
  return escaped.length > max ? `${escaped.slice(0, max - 1).replace(/&[a-z]*$/, '')}…` : escaped;
}

/** A section of text; past Slack's 3,000 characters it is cut (callers split long lists with `sections`). */
export function section(markdown: string): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: clip(markdown, TEXT_MAX.section) } };
}

export function context(markdown: string): KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: clip(markdown, TEXT_MAX.section) }] };
}

/**
 * Parts (lines, by default) in as few sections as Slack's 3,000 characters allow, a part never split
 * (a longer one is cut).
 */
export function sections(parts: string[], separator = '\n'): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  let current = '';
  for (const part of parts.map((l) => clip(l, TEXT_MAX.section))) {
    if (current && current.length + separator.length + part.length > TEXT_MAX.section) {
      blocks.push(section(current));
      current = '';
    }
    current = current ? `${current}${separator}${part}` : part;
  }
  if (current) blocks.push(section(current));
  return blocks;
}

export function fields(pairs: Array<[string, string]>): KnownBlock[] {
  // A section holds at most 10 fields, each at most 2,000 characters.
  const blocks: KnownBlock[] = [];
  for (let i = 0; i < pairs.length; i += 10) {
    blocks.push({
      type: 'section',
      fields: pairs.slice(i, i + 10).map(([label, value]) => ({ type: 'mrkdwn', text: clip(`*${label}*\n${value}`, TEXT_MAX.field) })),
    });
  }
  return blocks;
}

export function plain(markdown: string): SlackMessage {
  return { text: markdown, blocks: [section(markdown)] };
}

/** The message as the bot sends it: in sandbox mode every message says it comes from the sandbox. */
export function presentMessage(message: SlackMessage, locale: Locale, sandbox: boolean): SlackMessage {
  if (!sandbox) return message;
  const m = messages(locale).common;
  return {
    text: `${m.sandboxTag} ${message.text}`,
    blocks: [...message.blocks, context(m.sandboxNote)],
  };
}

/** The sandbox note at the end of a modal's or a Home tab's blocks, in sandbox mode. */
export function sandboxNoteBlocks(locale: Locale, sandbox: boolean): KnownBlock[] {
  return sandbox ? [context(messages(locale).common.sandboxNote)] : [];
}

/** Previous and Next, where there is somewhere to go; none for a single page. */
export function pageButtons(
  locale: Locale,
  input: { blockId: string; prev: string; next: string; page: number; pages: number; value: (page: number) => string },
): KnownBlock[] {
  const c = messages(locale).common;
  const buttons: Button[] = [];
  if (input.page > 1)
    buttons.push({
      type: 'button',
      action_id: input.prev,
      text: { type: 'plain_text', text: c.previous },
      value: input.value(input.page - 1),
    });
  if (input.page < input.pages)
    buttons.push({ type: 'button', action_id: input.next, text: { type: 'plain_text', text: c.next }, value: input.value(input.page + 1) });
  return buttons.length > 0 ? [{ type: 'actions', block_id: input.blockId, elements: buttons }] : [];
}

/** Which slice of a list a page shows (1-based, clamped to the pages there are). */
export function pageOf(total: number, pageSize: number, page: number): { page: number; pages: number; start: number; end: number } {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  const start = (current - 1) * pageSize;
  return { page: current, pages, start, end: Math.min(total, start + pageSize) };
}

/** A balance (its amounts in cents, as the service sends them) in R$: total, available, blocked. */
export function balanceText(locale: Locale, balance: { total: number; available: number; blocked: number }): string {
  const money = (value: number) => formatApiCents(value, locale);
  return messages(locale).accounts.balanceFields({
    total: money(balance.total),
    available: money(balance.available),
    blocked: money(balance.blocked),
  });
}

/**
 * A mrkdwn text for a place that shows plain text only (a modal input's inline error): emphasis and
 * code marks dropped, a mention or a link as its name, entities as their characters. Underscores
 * inside words (scope names such as `FILE_POST`) stay.
 */
export function inlineErrorText(text: string): string {
  return text
    .replace(/<@([UW][A-Z0-9]+)>/g, '@$1')
    .replace(/<[^|>]+\|([^>]+)>/g, '$1')
    .replace(/[*`]/g, '')
    .replace(/(^|[\s(])_([^_\n]+)_(?=$|[\s.,;:!?)])/g, '$1$2')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/**
 * The ask before an irreversible action (a key's deletion, the withdraw key, a secret's rotation):
 * the warning, then Confirm (danger style, carrying `value`) and Cancel. Only Confirm acts.
 */
export function confirmMessage(
  locale: Locale,
  input: {
    text: string;
    warning: string;
    blockId: string;
    confirm: { actionId: string; text: string; value: string };
    cancelActionId: string;
  },
): SlackMessage {
  return {
    text: input.text,
    blocks: [
      section(`:warning: ${input.warning}`),
      {
        type: 'actions',
        block_id: input.blockId,
        elements: [
          {
            type: 'button',
            action_id: input.confirm.actionId,
            style: 'danger',
            text: { type: 'plain_text', text: input.confirm.text },
            value: input.confirm.value,
          },
          {
            type: 'button',
            action_id: input.cancelActionId,
            text: { type: 'plain_text', text: messages(locale).common.cancel },
            value: 'cancel',
          },
        ],
      },
    ],
  };
}

/** An ISO timestamp of the API in Brasília time, as the reader's language writes it (`05/03/2026, 14:30`). */
export function formatDateTime(iso: string | undefined, locale: Locale): string {
  if (!iso) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? escapeMrkdwn(iso) : formatSaoPauloInstant(at, locale);
}
