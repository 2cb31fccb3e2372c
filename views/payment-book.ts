import { type Locale, messages } from '../src/i18n';
import { code, plain, type SlackMessage } from './message';

/** `03/2027`. */
export const periodText = (month: number, year: number) => `${String(month).padStart(2, '0')}/${year}`;

export interface BookletInput {
  subscriptionId: string;
  month: number;
  year: number;
}

/** `<subscription>-<yyyy>-<mm>.pdf`: the file's name in Slack. */
export function bookletFileName(input: BookletInput): string {
  return `${input.subscriptionId}-${input.year}-${String(input.month).padStart(2, '0')}.pdf`;
}

export function bookletTitle(locale: Locale, input: BookletInput): string {
  return messages(locale).paymentBook.title({ subscriptionId: input.subscriptionId, period: periodText(input.month, input.year) });
}

/**
 * The comment posted with the PDF in the channel (plain text: Slack shows it above the file), in the
 * language of the person who issued it.
 */
export function bookletComment(locale: Locale, input: BookletInput & { userId: string }): string {
  return messages(locale).paymentBook.comment({
    subscriptionId: input.subscriptionId,
    period: periodText(input.month, input.year),
    user: `<@${input.userId}>`,
  });
}

/** The ephemeral answer once the PDF is in the channel. */
export function bookletPostedMessage(locale: Locale, input: BookletInput & { fileName: string; bytes: number }): SlackMessage {
  const m = messages(locale).paymentBook;
  const size =
    input.bytes >= 1024 * 1024 ? `${(input.bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.max(1, Math.round(input.bytes / 1024))} KiB`;
  const posted = m.posted({
    subscription: code(input.subscriptionId),
    period: periodText(input.month, input.year),
    file: code(input.fileName),
    size,
  });
  return plain(`${posted}\n${m.repeatIsSafe}`);
}

export function bookletMessages(locale: Locale) {
  const m = messages(locale).paymentBook;
  const about = (input: BookletInput) => ({ subscription: code(input.subscriptionId), period: periodText(input.month, input.year) });
  return {
    /** The bot is not in the channel: the booklet was issued, the file not posted. */
    notInChannel: (input: BookletInput): SlackMessage => plain(`${m.notInChannel(about(input))} ${m.repeatIsSafe}`),
    postFailed: (input: BookletInput, slackError: string): SlackMessage =>
      plain(`${m.postFailed({ ...about(input), slackError: code(slackError) })} ${m.repeatIsSafe}`),
    notAPdf: (input: BookletInput): SlackMessage => plain(`${m.notAPdf(code(input.subscriptionId))} ${m.repeatIsSafe}`),
    /** No answer (or a 5xx) to a read that issues charges: some may have been issued. */
    noAnswer: (input: BookletInput, detail: string): SlackMessage => plain(`${m.noAnswer({ ...about(input), detail })} ${m.repeatIsSafe}`),
  };
}
