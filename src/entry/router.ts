import type { AnyMiddlewareArgs, Middleware, SlashCommand } from '@slack/bolt';
import type { PlainTextOption } from '@slack/types';
import { pixErrorMessage } from '../../views/errors';
import { refusalMessage, unknownCommandMessage, usageMessage } from '../../views/help';
import { inlineErrorText, plain, presentMessage, type SlackMessage } from '../../views/message';
import { messageModal } from '../../views/modal';
import type { AuditOutcome } from '../audit/entry';
import type { DeliveryAudit } from '../audit/recorder';
import type { Deps } from '../deps';
import { type Role, roleAllows } from '../domain/roles';
import { describeError } from '../errors';
import { type Locale, messages } from '../i18n';
import { NoDefaultAccountError } from '../pix/default-account';
import { PixApiError } from '../pix/errors';
import { DeadlinePassedError, withDeadline } from '../runtime/deadline';
import { isStoreUnavailable } from '../store/errors';
import { matchCommand, tokenize } from './command-words';
import { RECEIVED_AT } from './delivery';
import {
  type ActionArgs,
  type CommandRow,
  type EntryContext,
  type EntryRow,
  type HomeOpenedArgs,
  InvalidEntryTableError,
  type OptionsArgs,
  type ShortcutArgs,
  UsageError,
  usageOf,
  type ViewArgs,
} from './table';

type Args = Parameters<Middleware<AnyMiddlewareArgs>>[0];
type Kind = EntryRow['kind'];
type RowOf<K extends Kind> = Extract<EntryRow, { kind: K }>;

/**
 * Slack waits three seconds for options, from when it sent the request: the search gets what is left
 * of this once the delivery's checks are done (counted from its arrival, RECEIVED_AT); what is not
 * read by then is not offered.
 */
const OPTIONS_DEADLINE_MS = 2_500;
/** Slack shows at most 100 options (https://docs.slack.dev/reference/block-kit/block-elements/select-menu-element). */
const MAX_OPTIONS = 100;

/** The slash command the app answers (the manifest declares it). */
export const SLASH_COMMAND = '/pix';

/**
 * Which kind of row a delivery is for, and the id it is looked up by; for a delivery of a kind no row
 * has, Slack's own type of it.
 */
function kindAndId(args: Args): [string, unknown] {
  const body = args.body as { type?: unknown; command?: unknown };
  if (typeof body.command === 'string') return ['command', body.command];
  switch (body.type) {
    case 'block_actions':
      return ['action', (args as { action?: { action_id?: unknown } }).action?.action_id];
    case 'view_submission':
      return ['view', (args as { view?: { callback_id?: unknown } }).view?.callback_id];
    case 'shortcut':
    case 'message_action':
      return ['shortcut', (args as { shortcut?: { callback_id?: unknown } }).shortcut?.callback_id];
    case 'block_suggestion':
      return ['options', (body as { action_id?: unknown }).action_id];
    case 'event_callback':
      return ['event', (args as { event?: { type?: unknown } }).event?.type];
    case 'view_closed':
      return ['view_closed', (args as { view?: { callback_id?: unknown } }).view?.callback_id];
    default:
      return [typeof body.type === 'string' ? body.type : 'unknown', undefined];
  }
}

const ROW_KINDS: ReadonlySet<string> = new Set<Exclude<Kind, 'command'>>(['action', 'view', 'shortcut', 'options', 'event']);

/**
 * Every entry point of the app, routed from one table by one check. For each delivery the router
 * finds its row (the `/pix` subcommand by its words; a button by `action_id`; a modal submission or a
 * shortcut by `callback_id`; an event by its type), resolves the user's role and language, and refuses
 * before the handler runs when the role is below the row's: a handler cannot forget the check, and a
 * refused user reaches neither the Pix API nor the store.
 *
 * It runs inside the one global middleware (see delivery.ts) rather than as one Bolt listener per
 * entry point: Bolt runs every listener's middleware chain for every request, which cost ~7 µs a
 * listener on every acknowledgement under load.
 */
export class EntryRouter {
  private readonly commands: CommandRow[];
  private readonly byId: { [K in Exclude<Kind, 'command'>]: Map<string, RowOf<K>> };
  private readonly help: CommandRow;

  constructor(
    rows: EntryRow[],
    private readonly deps: Deps,
  ) {
    this.commands = rows.filter((r): r is CommandRow => r.kind === 'command');
    this.byId = { action: new Map(), view: new Map(), shortcut: new Map(), options: new Map(), event: new Map() };
    for (const row of rows) {
      if (row.kind === 'command') continue;
      const map = this.byId[row.kind] as Map<string, EntryRow>;
      if (map.has(row.id)) throw new InvalidEntryTableError(`Two ${row.kind} rows answer to ${row.id}`);
      map.set(row.id, row);
    }
    const help = this.commands.find((c) => c.id === 'help');
    if (!help) throw new InvalidEntryTableError('The entry table has no help command');
    this.help = help;
  }

  /**
   * Handles the delivery through the row that answers to it; one no row answers to is acknowledged
   * and logged as unknown, and goes no further: nothing else of the app (a listener registered the
   * Bolt way) ever sees a delivery without the check and the audit trail.
   */
  async route(args: Args): Promise<void> {
    const [kind, id] = kindAndId(args);
    if (kind === 'command' && id === SLASH_COMMAND) {
      await this.command(args as unknown as CommandArgs);
      return;
    }
    const row = ROW_KINDS.has(kind) && typeof id === 'string' ? this.byId[kind as Exclude<Kind, 'command'>].get(id) : undefined;
    if (!row) {
      await this.unknown(args, kind, id);
      return;
    }
    switch (row.kind) {
      case 'action':
        await this.action(row, args as unknown as ActionArgs);
        break;
      case 'view':
        await this.view(row, args as unknown as ViewArgs);
        break;
      case 'shortcut':
        await this.shortcut(row, args as unknown as ShortcutArgs);
        break;
      case 'options':
        await this.options(row, args as unknown as OptionsArgs);
        break;
      case 'event':
        await this.event(row, args as unknown as HomeOpenedArgs);
        break;
    }
  }

  /**
   * Answered so that Slack stops waiting (events were acknowledged by Bolt already; options with none,
   * as Slack requires a list), and one line logged with its kind and id.
   */
  private async unknown(args: Args, kind: string, id: unknown): Promise<void> {
    this.deps.logger.warn({ delivery: { kind, ...(typeof id === 'string' ? { id } : {}) } }, 'unknown delivery: acknowledged, not handled');
    const { ack } = args as { ack?: (response?: unknown) => Promise<void> };
    if (typeof ack === 'function') await ack(kind === 'options' ? { options: [] } : undefined);
  }

  private present(locale: Locale) {
    return (m: SlackMessage) => presentMessage(m, locale, this.deps.sandboxMode);
  }

  /** The one check: the user's role and language, and whether the role is enough for the row. */
  private async check(userId: string, row: EntryRow) {
    const [role, locale] = await Promise.all([this.deps.access.roleOf(userId), this.deps.slack.locales.localeOf(userId)]);
    const allowed = roleAllows(role, row.role);
    if (!allowed) this.deps.logger.info({ user: userId, entry: row.kind, id: row.id, role: role ?? 'none' }, 'refused');
    return { role, locale, allowed, present: this.present(locale) };
  }

  private refusal(userId: string, row: EntryRow, needed: Role, locale: Locale): SlackMessage {
    const m = messages(locale);
    const what = row.kind === 'command' ? m.help.useCommand(row.id) : m.actions[row.what];
    return this.present(locale)(refusalMessage(locale, { userId, needed, what }));
  }

  /**
   * The deps of one delivery: the same, but with its own audit log, and a Pix client that tells that
   * log of every call made on the user's behalf. So the entry point's use, its outcome and its Pix
   * calls are recorded whatever the handler does.
   */
  private delivery(userId: string, role: Role | undefined, row: EntryRow | undefined): { deps: Deps; audit: DeliveryAudit } {
    const action = row === undefined ? SLASH_COMMAND : row.kind === 'command' ? `${SLASH_COMMAND} ${row.id}` : `${row.kind}:${row.id}`;
    const audit = this.deps.audit.forDelivery({ user: userId, role: role ?? 'none', action });
    return { deps: { ...this.deps, pix: this.deps.pix.observed((event) => audit.pixCall(event)), audit }, audit };
  }

  /** Runs a handler, then records the entry point's use with its outcome. */
  private async audited(audit: DeliveryAudit, run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (err) {
      await audit.finish({ outcome: outcomeOf(err) });
      throw err;
    }
    await audit.finish({ outcome: 'ok' });
  }

  /** Tells a refusal, and records it whether or not the telling worked. */
  private async refused(audit: DeliveryAudit, needed: Role, tell: () => Promise<unknown>): Promise<void> {
    try {
      await tell();
    } finally {
      await audit.finish({ outcome: 'refused', detail: `needs ${needed}` });
    }
  }

  /** The check, then the handler with its context, or the refusal told the way this kind of entry point can. */
  private async guard(
    row: RowOf<'action' | 'view' | 'shortcut'>,
    userId: string,
    run: (ctx: EntryContext) => Promise<void>,
    refuse: (refusal: SlackMessage, locale: Locale) => Promise<void>,
  ): Promise<void> {
    const { role, locale, allowed, present } = await this.check(userId, row);
    const { deps, audit } = this.delivery(userId, role, row);
    if (allowed) return this.audited(audit, () => run({ deps, userId, role: role!, locale, present }));
    await this.refused(audit, row.role, () => refuse(this.refusal(userId, row, row.role, locale), locale));
  }

  private async action(row: RowOf<'action'>, args: ActionArgs): Promise<void> {
    await args.ack();
    const { body } = args;
    await this.guard(
      row,
      body.user.id,
      (ctx) => row.handler(args, ctx),
      async (refusal, locale) => {
        if (body.response_url) {
          await args.respond({ response_type: 'ephemeral', replace_original: false, ...refusal });
        } else if (body.view?.type === 'modal') {
          await this.deps.slack.retried.views.update({
            view_id: body.view.id,
            view: messageModal(locale, messages(locale).common.notAllowedTitle, refusal),
          });
        } else {
          await this.deps.slack.retried.chat.postMessage({ channel: body.user.id, ...refusal });
        }
      },
    );
  }

  private async view(row: RowOf<'view'>, args: ViewArgs): Promise<void> {
    await this.guard(
      row,
      args.body.user.id,
      (ctx) => row.handler(args, ctx),
      (refusal) => args.ack({ response_action: 'errors', errors: { [row.errorBlock]: inlineErrorText(refusal.text) } }),
    );
  }

  private async shortcut(row: RowOf<'shortcut'>, args: ShortcutArgs): Promise<void> {
    await args.ack();
    await this.guard(
      row,
      args.body.user.id,
      (ctx) => row.handler(args, ctx),
      async (refusal) => {
        await args.respond({ response_type: 'ephemeral', replace_original: false, ...refusal });
      },
    );
  }

  /**
   * Options are the acknowledgement itself: within Slack's three seconds, and none when refused or
   * failed. The search reaches the Pix API on the user's behalf, so it is recorded like any entry point.
   */
  private async options(row: RowOf<'options'>, args: OptionsArgs): Promise<void> {
    const userId = args.body.user.id;
    const { role, locale, allowed, present } = await this.check(userId, row);
    const { deps, audit } = this.delivery(userId, role, row);
    if (!allowed) {
      await this.refused(audit, row.role, () => args.ack({ options: [] }));
      return;
    }
    let options: PlainTextOption[] = [];
    const arrived = args.context[RECEIVED_AT];
    const left = OPTIONS_DEADLINE_MS - (typeof arrived === 'number' ? Date.now() - arrived : 0);
    await this.audited(audit, async () => {
      // The checks took all the time: no search is started whose answer Slack would not wait for.
      if (left <= 0) throw new DeadlinePassedError('no time left to search before Slack stops waiting');
      options = await withDeadline(row.handler(args, { deps, userId, role: role!, locale, present }), left);
    }).catch((err: unknown) => {
      this.deps.logger.warn({ id: row.id, ...describeError(err) }, 'could not list options');
    });
    await args.ack({ options: options.slice(0, MAX_OPTIONS) });
  }

  private async event(row: RowOf<'event'>, args: HomeOpenedArgs): Promise<void> {
    const userId = args.event.user;
    const { role, locale, present } = await this.check(userId, row);
    const { deps, audit } = this.delivery(userId, role, row);
    await this.audited(audit, () => row.handler(args, { deps, userId, role, locale, present }));
  }

  /**
   * `/pix`: finds the subcommand, checks the caller's role before anything else happens, and answers
   * ephemerally. Refusals, usage and help are answered in the acknowledgement itself; the rest is
   * acknowledged at once (Slack waits three seconds) and answered through the response_url.
   */
  private async command({ command, ack, respond }: CommandArgs): Promise<void> {
    const words = tokenize(command.text ?? '');
    const match = words.length === 0 ? { kind: 'command' as const, command: this.help, args: [] } : matchCommand(this.commands, words);
    const row = match.kind === 'unknown' ? this.help : match.command;
    const { role, locale, allowed, present } = await this.check(command.user_id, row);
    const ephemeral = (m: SlackMessage) => ({ response_type: 'ephemeral' as const, ...present(m) });
    // An unknown subcommand is recorded as `/pix` alone: what was typed may be anything.
    const { deps, audit } = this.delivery(command.user_id, role, match.kind === 'unknown' ? undefined : row);

    if (match.kind === 'unknown') {
      const summaries = messages(locale).summaries;
      const usable = this.commands
        .filter((c) => roleAllows(role, c.role))
        .map((c) => ({ usage: usageOf(c), summary: summaries[c.summary] }));
      await ack(ephemeral(unknownCommandMessage(locale, match.word, usable)));
      await audit.finish({ outcome: 'usage' });
      return;
    }
    if (!allowed && row.role !== 'anyone') {
      const needed = row.role;
      await this.refused(audit, needed, () => ack({ response_type: 'ephemeral', ...this.refusal(command.user_id, row, needed, locale) }));
      return;
    }
    if (match.kind === 'bad_args') {
      await ack(ephemeral(usageMessage(locale, usageOf(row))));
      await audit.finish({ outcome: 'usage' });
      return;
    }

    const reply = async (message: SlackMessage) => {
      await respond({ ...ephemeral(message), replace_original: false });
    };
    const ctx = {
      deps,
      userId: command.user_id,
      channelId: command.channel_id,
      triggerId: command.trigger_id,
      responseUrl: command.response_url,
      args: match.args,
      role,
      locale,
      present,
      reply,
    };
    if (row.instant) {
      const { answer, outcome } = await this.answerOf(row, () => row.handler(ctx), locale);
      await ack(answer ? ephemeral(answer) : undefined);
      await audit.finish({ outcome });
      return;
    }
    await ack();
    const { answer, outcome } = await this.answerOf(row, () => row.handler(ctx), locale);
    if (answer) {
      await reply(answer).catch((err: unknown) => {
        deps.logger.error({ ...describeError(err) }, 'could not answer through response_url');
      });
    }
    await audit.finish({ outcome });
  }

  private async answerOf(
    cmd: CommandRow,
    run: () => Promise<SlackMessage | null>,
    locale: Locale,
  ): Promise<{ answer: SlackMessage | null; outcome: AuditOutcome }> {
    const { logger } = this.deps;
    const m = messages(locale);
    try {
      return { answer: await run(), outcome: 'ok' };
    } catch (err) {
      const outcome = outcomeOf(err);
      if (err instanceof UsageError) return { answer: usageMessage(locale, usageOf(cmd), err.message), outcome };
      if (err instanceof PixApiError) {
        logger.warn(describeError(err), 'Pix API call failed');
        return { answer: pixErrorMessage(locale, err, cmd.what), outcome };
      }
      if (err instanceof NoDefaultAccountError) return { answer: plain(m.common.noDefaultAccount), outcome };
      if (isStoreUnavailable(err)) {
        logger.warn({ ...describeError(err), command: usageOf(cmd) }, 'a command needed the store, which is unavailable');
        return { answer: plain(m.common.storeUnavailable), outcome };
      }
      logger.error({ ...describeError(err), command: usageOf(cmd) }, 'command failed');
      return { answer: plain(m.common.wentWrongNothingMore(m.actions[cmd.what])), outcome };
    }
  }
}

/** What a handler's failure says of its outcome. */
function outcomeOf(err: unknown): AuditOutcome {
  if (err instanceof UsageError) return 'usage';
  if (err instanceof PixApiError || err instanceof NoDefaultAccountError) return 'failed';
  return 'error';
}

interface CommandArgs {
  command: SlashCommand;
  ack(response?: unknown): Promise<void>;
  respond(message: unknown): Promise<unknown>;
}
