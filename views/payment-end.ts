import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import { formatApiCents, formatCents } from '../src/domain/money';
import { type Locale, messages } from '../src/i18n';
import { PixIdSchema } from '../src/pix/schemas';
import { code, context, escapeClipped, type SlackMessage, section } from './message';

/** The button of a `REACH_TRANSFER_LIMIT` failure: the limit-request form for the account paid from (operator). */
export const PAYMENT_LIMIT_REQUEST_ACTION = 'payment_limit_request';

/** What the button carries: the account paid from. */
export const PaymentLimitButtonSchema = z.object({ accountId: PixIdSchema });
export type PaymentLimitButton = z.infer<typeof PaymentLimitButtonSchema>;

/** The code whose failure offers the limit-request form, and the one that shows the balance. */
export const LIMIT_CODE = 'REACH_TRANSFER_LIMIT';
export const BALANCE_CODE = 'NOT_ENOUGH_BALANCE';

export interface PaymentEndInput {
  stage: 'confirmed' | 'failed' | 'removed';
  /** Cents. */
  value: number;
  accountId: string;
  endToEndId?: string;
  code?: string;
  description?: string;
  /** For a `NOT_ENOUGH_BALANCE` failure: the account's available balance as read now (the API's cents), or `unread`. */
  available?: number | 'unread';
}

/** What a failure's code means, in words, with the code; or that the service gave none. */
export function failureWhy(locale: Locale, failureCode: string | undefined): string {
  const m = messages(locale).paymentEnd;
  if (!failureCode) return m.whyUnknown;
  const meaning = m.codeMeaning(failureCode);
  return meaning !== '' ? m.why({ code: code(failureCode), meaning }) : m.unknownCode(code(failureCode));
}

/**
 * A sent payment's end, as a reply in its approval's thread: confirmed (with its `endToEndId`), failed
 * (the code in words, the service's own text, the balance or the limit-request button as the code calls
 * for), or removed.
 */
export function paymentEndMessage(locale: Locale, input: PaymentEndInput): SlackMessage {
  const m = messages(locale).paymentEnd;
  const value = formatCents(input.value, locale);
  const account = code(input.accountId);
  const e2e = input.endToEndId ? [context(m.e2e(code(input.endToEndId)))] : [];
  if (input.stage === 'confirmed') {
    return { text: m.confirmedText(value), blocks: [section(m.confirmed({ value })), ...e2e] };
  }
  if (input.stage === 'removed') {
    return { text: m.removedText(value), blocks: [section(`${m.removed} ${m.released}`), context(m.source(account))] };
  }
  const why = failureWhy(locale, input.code);
  const lines = [m.failed({ value }), why];
  if (input.description) lines.push(m.serviceSaid(escapeClipped(input.description, 300)));
  lines.push(m.released);
  const blocks: KnownBlock[] = [section(lines.join('\n')), context(m.source(account)), ...e2e];
  if (input.code === BALANCE_CODE && input.available !== undefined) {
    blocks.push(
      section(
        input.available === 'unread'
          ? m.availableUnread(account)
          : m.available({ account, available: formatApiCents(input.available, locale) }),
      ),
    );
  }
  if (input.code === LIMIT_CODE) {
    const carried: PaymentLimitButton = { accountId: input.accountId };
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: m.limitHint },
      accessory: {
        type: 'button',
        action_id: PAYMENT_LIMIT_REQUEST_ACTION,
        text: { type: 'plain_text', text: m.limitButton },
        value: JSON.stringify(carried),
      },
    });
  }
  const plainWhy = input.code ? m.codeMeaning(input.code) || input.code : undefined;
  return { text: m.failedText({ value, ...(plainWhy ? { why: plainWhy } : {}) }), blocks };
}
