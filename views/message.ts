import type { KnownBlock } from '@slack/types';
import { messages, type Locale } from '../src/i18n';

/** What every builder returns: `text` is the notification and screen-reader fallback of `blocks`. */
export interface SlackMessage {
  text: string;
  blocks: KnownBlock[];
}

/** Slack's mrkdwn needs only these three escaped in user-supplied text. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function section(markdown: string): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: markdown } };
}

export function context(markdown: string): KnownBlock {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: markdown }] };
}

export function fields(pairs: Array<[string, string]>): KnownBlock[] {
  // A section holds at most 10 fields.
  const blocks: KnownBlock[] = [];
  for (let i = 0; i < pairs.length; i += 10) {
    blocks.push({
      type: 'section',
      fields: pairs.slice(i, i + 10).map(([label, value]) => ({ type: 'mrkdwn', text: `*${label}*\n${value}` })),
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

/**
 * A balance as the Pix API sends it: its numbers under their field names. The interface does not state
 * their unit ("Unit of balance amounts: not shown"), so they are never shown as R$ cents.
 */
export function balanceFieldsText(balance: { total: number; available: number; blocked: number }): string {
  return `total ${balance.total} · available ${balance.available} · blocked ${balance.blocked}`;
}
