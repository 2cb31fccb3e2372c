import type { Entry } from '../src/entries';
import { PixApiError } from '../src/pix/errors';
import { saoPauloToday, systemClock, type CalendarDate, type Clock } from '../src/sao-paulo-date';
import { escapeMrkdwn, plain, withSandboxBadge } from '../views/message';
import { bookletComment, bookletFileName, bookletMessages, bookletPostedMessage, bookletTitle } from '../views/payment-book';
import { PixIdSchema } from './parse';
import { UsageError, type CommandDef } from './types';

const ACTION = 'issue the payment booklet';

export type PeriodCheck = { ok: true; month: number; year: number } | { ok: false; problem: string };

/**
 * The booklet's last month, checked before any call: a real month (1 to 12), a four-digit year, and
 * not after the end of next year (section 8), next year counted from today in São Paulo.
 */
export function checkBookPeriod(monthText: string, yearText: string, today: CalendarDate): PeriodCheck {
  if (!/^\d{1,2}$/.test(monthText) || Number(monthText) < 1 || Number(monthText) > 12) {
    return { ok: false, problem: `“${escapeMrkdwn(monthText)}” is not a month: write a number from 1 to 12.` };
  }
  if (!/^\d{4}$/.test(yearText)) return { ok: false, problem: `“${escapeMrkdwn(yearText)}” is not a year: write four digits, like ${today.year}.` };
  const month = Number(monthText);
  const year = Number(yearText);
  const latest = today.year + 1;
  if (year > latest) {
    return { ok: false, problem: `The booklet can be issued up to 12/${latest} (the end of next year); ${String(month).padStart(2, '0')}/${year} is later.` };
  }
  return { ok: true, month, year };
}

/** Slack's error code of a failed Web API call (`not_in_channel`, …), when it is one. */
function slackErrorCode(err: unknown): string | undefined {
  const data = (err as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString('latin1') === '%PDF-';

/**
 * `/pix payment-book <subscriptionId> <month> <year>`: issues the booklet (GET, idempotent per
 * installment) and posts its PDF in the channel. The clock is injectable for tests.
 */
export function paymentBookCommand(options: { now?: Clock } = {}): CommandDef {
  const now = options.now ?? systemClock;
  return {
    path: ['payment-book'],
    argsUsage: '<subscriptionId> <month> <year>',
    summary: 'issue a subscription’s payment booklet up to that month and post the PDF here',
    action: ACTION,
    role: 'operator',
    minArgs: 3,
    maxArgs: 3,
    async run({ deps, args, channelId, userId }) {
      const [subscriptionId = '', monthText = '', yearText = ''] = args;
      if (!PixIdSchema.safeParse(subscriptionId).success) throw new UsageError('That is not a subscription id.');
      const period = checkBookPeriod(monthText, yearText, saoPauloToday(now()));
      if (!period.ok) throw new UsageError(period.problem);
      const book = { subscriptionId, month: period.month, year: period.year };

      let pdf: Buffer;
      try {
        pdf = await deps.pix.getPaymentBook(deps.mainAppId, subscriptionId, { month: period.month, year: period.year });
      } catch (err) {
        // A read that issues charges: without a proper answer some may have been issued.
        if (err instanceof PixApiError && err.unreachable) {
          deps.logger.warn({ operation: err.operation, status: err.status, kind: err.kind }, 'Pix API call failed');
          const detail = err.status > 0 ? `HTTP ${err.status}${err.error ? `: “${escapeMrkdwn(err.error)}”` : ''}` : 'no answer';
          return bookletMessages.noAnswer(book, detail);
        }
        throw err; // the router answers with the API's own text
      }
      if (!isPdf(pdf)) {
        deps.logger.warn({ subscriptionId, bytes: pdf.length }, 'the payment booklet is not a PDF');
        return bookletMessages.notAPdf(book);
      }

      const fileName = bookletFileName(book);
      const comment = bookletComment({ ...book, userId });
      try {
        await deps.slack.files.uploadV2({
          channel_id: channelId,
          file: pdf,
          filename: fileName,
          title: bookletTitle(book),
          initial_comment: deps.sandboxMode ? withSandboxBadge(plain(comment)).text : comment,
        });
      } catch (err) {
        const code = slackErrorCode(err);
        deps.logger.warn({ channel: channelId, error: code ?? (err instanceof Error ? err.message : String(err)) }, 'could not post the payment booklet');
        if (code === 'not_in_channel' || code === 'channel_not_found') return bookletMessages.notInChannel(book);
        return bookletMessages.postFailed(book, code ?? 'no answer');
      }
      deps.logger.info({ subscriptionId, month: period.month, year: period.year, user: userId, bytes: pdf.length }, 'payment booklet posted');
      return bookletPostedMessage({ ...book, fileName, bytes: pdf.length });
    },
  };
}

export const paymentBookCommands: CommandDef[] = [paymentBookCommand()];
export const paymentBookEntries: Entry[] = [];
