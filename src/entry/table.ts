import type {
  AllMiddlewareArgs,
  BlockAction,
  MessageShortcut,
  SlackActionMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { PlainTextOption } from '@slack/types';
import type { SlackMessage } from '../../views/message';
import type { Deps } from '../deps';
import type { Role } from '../domain/roles';
import { PixOpsError } from '../errors';
import type { ActionKey, Locale, SummaryKey } from '../i18n';

export type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
export type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
export type ShortcutArgs = SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs;
export type HomeOpenedArgs = SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs;
export type OptionsArgs = SlackOptionsMiddlewareArgs<'block_suggestion'> & AllMiddlewareArgs;

/**
 * Who may use an entry point: a role (and the roles above it), or anyone. Only `/pix help` and the
 * Home tab are for anyone: they show an unauthorized user how to get access and reach nothing else.
 */
export type Needed = Role | 'anyone';

/** What every handler is given, once the router has checked the role. */
export interface EntryContext {
  deps: Deps;
  userId: string;
  role: Role;
  /**
   * The acting user's language (their Slack locale, cached; pt-BR when unknown). Messages posted for
   * the whole channel because of what they did (thread roots, announcements) use it too.
   */
  locale: Locale;
  /** Adds what every message carries (the SANDBOX badge in sandbox mode). */
  present(message: SlackMessage): SlackMessage;
}

/** The context of an entry point open to anyone: the user may have no role. */
export type OpenContext = Omit<EntryContext, 'role'> & { role: Role | undefined };

export interface CommandContext extends OpenContext {
  channelId: string;
  triggerId: string;
  responseUrl: string;
  /** The words after the subcommand. */
  args: string[];
  /** An ephemeral answer to the caller (through the command's response_url). */
  reply(message: SlackMessage): Promise<void>;
}

interface RowBase {
  /** What it does: for the refusal ("You need the operator role to …") and "Could not …" (`messages(locale).actions`). */
  what: ActionKey;
}

/** A `/pix` subcommand. */
export interface CommandRow extends RowBase {
  kind: 'command';
  /** The subcommand's words, e.g. `limit request`. */
  id: string;
  role: Needed;
  /** Its arguments as shown in help, e.g. `[accountId]`. */
  argsUsage: string;
  /** Its line in `/pix help` (`messages(locale).summaries`). */
  summary: SummaryKey;
  minArgs: number;
  maxArgs: number;
  /**
   * Instant commands answer in the acknowledgement itself (no I/O beyond the role); the others are
   * acknowledged at once and answer through `reply`.
   */
  instant?: boolean;
  /**
   * The answer to the caller (null when the command answers otherwise, e.g. with a modal); thrown
   * `UsageError`s and `PixApiError`s are answered by the router.
   */
  handler(ctx: CommandContext): Promise<SlackMessage | null>;
}

/** A button or select, by `action_id`. Acknowledged before the role check (Slack waits three seconds). */
export interface ActionRow extends RowBase {
  kind: 'action';
  id: string;
  role: Role;
  handler(args: ActionArgs, ctx: EntryContext): Promise<void>;
}

/** A modal submission, by `callback_id`. The handler acknowledges (it alone can answer with `response_action`). */
export interface ViewRow extends RowBase {
  kind: 'view';
  id: string;
  role: Role;
  /** The input block that shows a refusal inline. */
  errorBlock: string;
  handler(args: ViewArgs, ctx: EntryContext): Promise<void>;
}

/** A message shortcut, by `callback_id`. Acknowledged before the role check. */
export interface ShortcutRow extends RowBase {
  kind: 'shortcut';
  id: string;
  role: Role;
  handler(args: ShortcutArgs, ctx: EntryContext): Promise<void>;
}

/**
 * The options of an external select (a `block_suggestion`, sent to the manifest's options load URL),
 * by `action_id`. The router answers in the acknowledgement: the options the handler returns, or none
 * for a user without the role (Slack waits three seconds, and shows no error text for options).
 */
export interface OptionsRow extends RowBase {
  kind: 'options';
  id: string;
  role: Role;
  /** At most 100 options (Slack's limit), for what the user typed (`args.payload.value`). */
  handler(args: OptionsArgs, ctx: EntryContext): Promise<PlainTextOption[]>;
}

/** An Events API event (the Home tab). Whoever opens it gets an answer fit for their role, or none. */
export interface EventRow extends RowBase {
  kind: 'event';
  id: 'app_home_opened';
  role: 'anyone';
  handler(args: HomeOpenedArgs, ctx: OpenContext): Promise<void>;
}

/** One entry point: `{ kind, id, role, handler }`. A row without a role does not compile. */
export type EntryRow = CommandRow | ActionRow | ViewRow | ShortcutRow | OptionsRow | EventRow;

/** Wrong arguments: its message (already in the caller's language) goes before the usage line. */
export class UsageError extends PixOpsError {
  readonly code = 'pixops_usage';
}

/** The entry table cannot be routed (two rows answer to one id, or no help): the app does not start. */
export class InvalidEntryTableError extends PixOpsError {
  readonly code = 'pixops_entry_table_invalid';
}

export const usageOf = (cmd: CommandRow) => [cmd.id, cmd.argsUsage].filter(Boolean).join(' ');
