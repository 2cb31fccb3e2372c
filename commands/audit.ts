import { spoolCsv } from '../src/audit/csv';
import type { Deps } from '../src/deps';
import {
  addDays,
  type CalendarDate,
  type Clock,
  formatSaoPauloDateTime,
  isoDateOf,
  parseIsoDate,
  saoPauloStartOfDay,
  saoPauloToday,
  systemClock,
} from '../src/domain/sao-paulo-date';
import { type CommandRow, type EntryContext, type EntryRow, UsageError } from '../src/entry/table';
import { describeError } from '../src/errors';
import { type Locale, messages } from '../src/i18n';
import { slackErrorCode } from '../src/slack/error-code';
import { openDm } from '../src/slack/post-once';
import { UploadRefusedError, uploadFile } from '../src/slack/upload-file';
import { AUDIT_MAX_DAYS, AUDIT_NEXT_ACTION_ID, AUDIT_PREV_ACTION_ID, auditPageMessage } from '../views/audit';
import { type AuditPageRef, AuditPageRefSchema, readCarried } from '../views/carried';
import { plain, presentMessage, type SlackMessage } from '../views/message';
import { pageTurner } from './paging';

/** Entries a page: two lines each, well within a message's 50 blocks. */
export const AUDIT_PAGE_SIZE = 15;
const DEFAULT_DAYS = 7;
/** `/pix audit export` with no dates: the last 30 days, today included. */
const DEFAULT_EXPORT_DAYS = 30;
/** The bytes' upload: a large export on a slow link. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

function daysArg(locale: Locale, text: string | undefined): number {
  if (text === undefined) return DEFAULT_DAYS;
  const days = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(days >= 1 && days <= AUDIT_MAX_DAYS)) throw new UsageError(messages(locale).usage.badDays);
  return days;
}

function dateArg(locale: Locale, text: string): CalendarDate {
  const date = parseIsoDate(text);
  if (!date) throw new UsageError(messages(locale).usage.badDate);
  return date;
}

/** One page: the entries older than `before`, or newer than `after` (back towards the first page), or the newest. */
async function pageMessage(deps: Deps, locale: Locale, ref: AuditPageRef): Promise<SlackMessage> {
  const since = new Date(ref.since);
  if (ref.after !== undefined) {
    const entries = await deps.store.audit.page({ since, limit: AUDIT_PAGE_SIZE, after: ref.after, top: ref.top });
    return auditPageMessage(locale, { days: ref.days, since: ref.since, top: ref.top, page: ref.page, entries, hasNext: true });
  }
  const found = await deps.store.audit.page({ since, limit: AUDIT_PAGE_SIZE + 1, before: ref.before });
  return auditPageMessage(locale, {
    days: ref.days,
    since: ref.since,
    top: ref.top,
    page: ref.page,
    entries: found.slice(0, AUDIT_PAGE_SIZE),
    hasNext: found.length > AUDIT_PAGE_SIZE,
  });
}

function auditCommand(now: Clock): CommandRow {
  return {
    kind: 'command',
    id: 'audit',
    argsUsage: '[days]',
    summary: 'audit',
    what: 'readAuditTrail',
    role: 'admin',
    minArgs: 0,
    maxArgs: 1,
    async handler({ deps, args, locale }) {
      const days = daysArg(locale, args[0]);
      return pageMessage(deps, locale, { days, since: now().getTime() - days * 86_400_000, page: 1 });
    },
  };
}

/** A button's page of the trail; undefined for a value that names none. */
async function buttonPage(ctx: EntryContext, value: string): Promise<SlackMessage | undefined> {
  const ref = readCarried(AuditPageRefSchema, value);
  if (!ref) return undefined;
  const cursors = [ref.top, ref.before, ref.after].filter((c) => c !== undefined);
  if (!cursors.every((c) => ctx.deps.store.audit.isCursor(c)) || (ref.after === undefined) === (ref.before === undefined)) return undefined;
  return pageMessage(ctx.deps, ctx.locale, ref);
}

/** Previous / Next. */
const turnPage = pageTurner('readAuditTrail', buttonPage, { noPage: (locale) => messages(locale).audit.buttonNoPage });

/** What a failed upload is told as: Slack's error code, the upload's HTTP status, or "no answer". */
function uploadFailure(err: unknown): string | undefined {
  if (err instanceof UploadRefusedError) return `HTTP ${err.status ?? '?'}`;
  return slackErrorCode(err);
}

function auditExportCommand(now: Clock): CommandRow {
  return {
    kind: 'command',
    id: 'audit export',
    argsUsage: '[from] [to]',
    summary: 'auditExport',
    what: 'exportAuditTrail',
    role: 'admin',
    minArgs: 0,
    maxArgs: 2,
    async handler({ deps, args, userId, locale, reply }) {
      const m = messages(locale);
      const today = saoPauloToday(now());
      const from = args[0] === undefined ? addDays(today, 1 - DEFAULT_EXPORT_DAYS) : dateArg(locale, args[0]);
      const to = args[1] === undefined ? today : dateArg(locale, args[1]);
      const [fromIso, toIso] = [isoDateOf(from), isoDateOf(to)];
      if (fromIso > toIso) throw new UsageError(m.usage.datesOrder);
      deps.audit.about({ period: `${fromIso}..${toIso}` });
      const shown = { from: formatSaoPauloDateTime(fromIso, locale) ?? fromIso, to: formatSaoPauloDateTime(toIso, locale) ?? toIso };

      await reply(plain(m.audit.exporting(shown)));
      const snapshot = await deps.store.audit.snapshot(saoPauloStartOfDay(from), saoPauloStartOfDay(addDays(to, 1)));
      const csv = await spoolCsv(snapshot, locale);
      const { bytes, entries } = csv;
      try {
        if (entries === 0) return plain(m.audit.exportEmpty(shown));
        const filename = `pix-ops-audit-${fromIso}-to-${toIso}.csv`;
        try {
          // files.completeUploadExternal shares in a channel: the admin's direct message with the bot.
          const channelId = await openDm(deps.slack.retried, userId);
          await uploadFile(deps.slack.retried, {
            channelId,
            filename,
            title: filename,
            initialComment: presentMessage(plain(m.audit.exportComment({ count: entries, ...shown })), locale, deps.sandboxMode).text,
            file: csv.file,
            length: bytes,
            timeoutMs: UPLOAD_TIMEOUT_MS,
          });
        } catch (err) {
          const failure = uploadFailure(err);
          deps.logger.warn(describeError(err), 'could not send the audit export');
          deps.audit.outcome('failed', failure ? `slack ${failure}` : undefined);
          return plain(m.audit.exportFailed(failure ? `\`${failure}\`` : m.common.noAnswer));
        }
      } finally {
        await csv.dispose();
      }
      deps.logger.info({ user: userId, entries, bytes }, 'audit trail exported');
      return plain(m.audit.exportDone({ count: entries, ...shown }));
    },
  };
}

export function auditRows(options: { now?: Clock } = {}): EntryRow[] {
  const now = options.now ?? systemClock;
  return [
    auditCommand(now),
    auditExportCommand(now),
    { kind: 'action', id: AUDIT_PREV_ACTION_ID, role: 'admin', what: 'readAuditTrail', handler: turnPage },
    { kind: 'action', id: AUDIT_NEXT_ACTION_ID, role: 'admin', what: 'readAuditTrail', handler: turnPage },
  ];
}
