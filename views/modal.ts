import type { ModalView } from '@slack/types';
import { DEFAULT_LOCALE, type Locale, messages } from '../src/i18n';
import type { SlackMessage } from './message';

/** Slack cuts modal titles, submit and close labels at 24 characters. */
export function modalTitle(text: string): { type: 'plain_text'; text: string } {
  return { type: 'plain_text', text: text.length > 24 ? `${text.slice(0, 23)}…` : text };
}

interface MessageModalOptions {
  callbackId?: string;
  privateMetadata?: string;
}

/** A modal that only shows a message (loading, progress, result, error), with a Close button. */
export function messageModal(locale: Locale, title: string, message: SlackMessage, options?: MessageModalOptions): ModalView;
/** @deprecated Without the reader's locale the Close button is in pt-BR: pass the locale first. */
export function messageModal(title: string, message: SlackMessage, options?: MessageModalOptions): ModalView;
export function messageModal(
  ...args: [Locale, string, SlackMessage, MessageModalOptions?] | [string, SlackMessage, MessageModalOptions?]
): ModalView {
  const [locale, title, message, options = {}] =
    typeof args[1] === 'string'
      ? (args as [Locale, string, SlackMessage, MessageModalOptions?])
      : ([DEFAULT_LOCALE, ...args] as [Locale, string, SlackMessage, MessageModalOptions?]);
  return {
    type: 'modal',
    title: modalTitle(title),
    close: { type: 'plain_text', text: messages(locale).common.close },
    blocks: message.blocks,
    ...(options.callbackId ? { callback_id: options.callbackId } : {}),
    ...(options.privateMetadata ? { private_metadata: options.privateMetadata } : {}),
  };
}
