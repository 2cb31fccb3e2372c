import { type CalendarDate, type Clock, saoPauloToday, systemClock } from '../src/domain/sao-paulo-date';
import type { EntryRow } from '../src/entry/table';
import { type CommandRow, UsageError } from '../src/entry/table';
import { describeError } from '../src/errors';
import { type Locale, messages } from '../src/i18n';
import { PixApiError } from '../src/pix/errors';
import { slackErrorCode } from '../src/slack/error-code';
import { apiText } from '../views/errors';
import { escapeMrkdwn, plain, presentMessage } from '../views/message';
import { bookletComment, bookletFileName, bookletMessages, bookletPostedMessage, bookletTitle, periodText } from '../views/payment-book';
import { PixIdSchema } from './parse';

export type PeriodCheck = { ok: true; month: number; year: number } | { ok: false; problem: string };

/**
 * The booklet's last month, checked before any call: a real month (1 to 12), a four-digit year, and
 * not after the end of next year (section 8), next year counted from today in São Paulo. The problem
 * is in the reader's language.
 */
export function checkBookPeriod(monthText: string, yearText: string, today: CalendarDate, locale: Locale): PeriodCheck {
  const m = messages(locale).paymentBook;
  if (!/^\d{1,2}$/.test(monthText) || Number(monthText) < 1 || Number(monthText) > 12) {
    return { ok: false, problem: m.notAMonth(escapeMrkdwn(monthText)) };
  }
  if (!/^\d{4}$/.test(yearText)) return { ok: false, problem: m.notAYear({ text: escapeMrkdwn(yearText), example: today.year }) };
  const month = Number(monthText);
  const year = Number(yearText);
  const latest = today.year + 1;
  if (year > latest) {
    return { ok: false, problem: m.tooLate({ latest: periodText(12, latest), asked: periodText(month, year) }) };
  }
  return { ok: true, month, year };
}

const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString('latin1') === '%PDF-';

/**
 * `/pix payment-book <subscriptionId> <month> <year>`: issues the booklet (GET, idempotent per
 * installment) and posts its PDF in the channel. The clock is injectable for tests.
 */
export function paymentBookCommand(options: { now?: Clock } = {}): CommandRow {
  const now = options.now ?? systemClock;
  return {
    kind: 'command',
    id: 'payment-book',
    argsUsage: '<subscriptionId> <month> <year>',
    summary: 'paymentBook',
    what: 'issuePaymentBook',
    role: 'operator',
    minArgs: 3,
    maxArgs: 3,
    async handler({ deps, args, channelId, userId, locale }) {
      const m = messages(locale);
      const answers = bookletMessages(locale);
      const [subscriptionId = '', monthText = '', yearText = ''] = args;
      if (!PixIdSchema.safeParse(subscriptionId).success) throw new UsageError(m.usage.notSubscriptionId);
      const period = checkBookPeriod(monthText, yearText, saoPauloToday(now()), locale);
      if (!period.ok) throw new UsageError(period.problem);
      const book = { subscriptionId, month: period.month, year: period.year };

      let pdf: Buffer;
      try {
        pdf = await deps.pix.getPaymentBook(deps.mainAppId, subscriptionId, { month: period.month, year: period.year });
      } catch (err) {
        // A read that issues charges: without a proper answer some may have been issued.
        if (err instanceof PixApiError && err.unreachable) {
          deps.logger.warn({ operation: err.operation, status: err.status, kind: err.kind }, 'Pix API call failed');
          const detail = err.status > 0 ? `HTTP ${err.status}${err.error ? `: “${apiText(err.error)}”` : ''}` : m.common.noAnswer;
          return answers.noAnswer(book, detail);
        }
        throw err; // the router answers with the API's own text
      }
      if (!isPdf(pdf)) {
        deps.logger.warn({ subscriptionId, bytes: pdf.length }, 'the payment booklet is not a PDF');
        return answers.notAPdf(book);
      }

      const fileName = bookletFileName(book);
      // For everyone in the channel, in the language of the person who issued it.
      const comment = bookletComment(locale, { ...book, userId });
      try {
        await deps.slack.retried.files.uploadV2({
          channel_id: channelId,
          file: pdf,
          filename: fileName,
          title: bookletTitle(locale, book),
          initial_comment: presentMessage(plain(comment), locale, deps.sandboxMode).text,
        });
      } catch (err) {
        const code = slackErrorCode(err);
        deps.logger.warn({ channel: channelId, ...describeError(err) }, 'could not post the payment booklet');
        if (code === 'not_in_channel' || code === 'channel_not_found') return answers.notInChannel(book);
        return answers.postFailed(book, code ?? m.common.noAnswer);
      }
      deps.logger.info(
        { subscriptionId, month: period.month, year: period.year, user: userId, bytes: pdf.length },
        'payment booklet posted',
      );
      return bookletPostedMessage(locale, { ...book, fileName, bytes: pdf.length });
    },
  };
}

export const paymentBookRows: EntryRow[] = [paymentBookCommand()];
