import type { ModalView } from '@slack/types';
import type { SlackMessage } from './message';

/** Slack cuts modal titles, submit and close labels at 24 characters. */
export function modalTitle(text: string): { type: 'plain_text'; text: string } {
  return { type: 'plain_text', text: text.length > 24 ? `${text.slice(0, 23)}…` : text };
}

/** A modal that only shows a message (loading, progress, result, error), with a Close button. */
export function messageModal(title: string, message: SlackMessage, options: { callbackId?: string; privateMetadata?: string } = {}): ModalView {
  return {
    type: 'modal',
    title: modalTitle(title),
    close: { type: 'plain_text', text: 'Close' },
    blocks: message.blocks,
    ...(options.callbackId ? { callback_id: options.callbackId } : {}),
    ...(options.privateMetadata ? { private_metadata: options.privateMetadata } : {}),
  };
}
