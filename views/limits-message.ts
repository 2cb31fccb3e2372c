import { limitFieldLabel, splitLimits } from '../src/domain/limit-fields';
import { formatCents } from '../src/domain/money';
import { type Locale, messages } from '../src/i18n';
import type { Limits } from '../src/pix/schemas';
import { context, escapeMrkdwn, fields, type SlackMessage, section } from './message';

/** An account's current limits: requestable limits as money, the other fields as they are. */
export function limitsMessage(locale: Locale, input: { accountId: string; isDefault: boolean; limits: Limits }): SlackMessage {
  const { requestable, other } = splitLimits(input.limits);
  const title = messages(locale).limits.title({ account: `\`${escapeMrkdwn(input.accountId)}\``, isDefault: input.isDefault });
  const blocks = [
    section(`*${title}*`),
    ...fields(requestable.map((l) => [limitFieldLabel(l.field, locale), formatCents(l.cents, locale)])),
  ];
  if (other.length > 0) {
    blocks.push(context(other.map((o) => `${escapeMrkdwn(o.field)}: ${escapeMrkdwn(displayValue(o.value))}`).join('  ·  ')));
  }
  const summary = requestable.map((l) => `${limitFieldLabel(l.field, locale)} ${formatCents(l.cents, locale)}`).join('; ');
  return { text: `${title}: ${summary}`, blocks };
}

function displayValue(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}
