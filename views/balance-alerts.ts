import { formatApiCents, formatCents } from '../src/domain/money';
import { type Locale, messages } from '../src/i18n';
import { code, type SlackMessage, section } from './message';

/** `event_type` of a balance alert's message; its payload names the alert (`alert_id`). */
export const BALANCE_ALERT_EVENT_TYPE = 'pix_balance_alert';

/** An account whose available balance went below the threshold: the account, its balance, the threshold. */
export function belowAlertMessage(locale: Locale, input: { accountId: string; available: number; thresholdCents: number }): SlackMessage {
  const m = messages(locale).balanceAlerts;
  const amounts = { available: formatApiCents(input.available, locale), threshold: formatCents(input.thresholdCents, locale) };
  return {
    text: m.belowText({ account: input.accountId, ...amounts }),
    blocks: [section(m.below({ account: code(input.accountId), ...amounts }))],
  };
}

/** An account whose withdrawals became blocked. */
export function blockedAlertMessage(locale: Locale, input: { accountId: string }): SlackMessage {
  const m = messages(locale).balanceAlerts;
  return { text: m.blockedText(input.accountId), blocks: [section(m.blocked(code(input.accountId)))] };
}
