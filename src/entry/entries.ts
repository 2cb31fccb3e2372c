import type {
  AllMiddlewareArgs,
  App,
  BlockAction,
  MessageShortcut,
  SlackActionMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { refusalMessage } from '../../views/help';
import { messageModal } from '../../views/modal';
import { withSandboxBadge, type SlackMessage } from '../../views/message';
import { roleAllows, type Role } from './access';
import type { Deps } from '../runtime/deps';
import { messages, type ActionKey, type Locale } from '../i18n';
import { userLocale } from '../i18n/locale';

export type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;
export type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
export type ShortcutArgs = SlackShortcutMiddlewareArgs<MessageShortcut> & AllMiddlewareArgs;
export type HomeOpenedArgs = SlackEventMiddlewareArgs<'app_home_opened'> & AllMiddlewareArgs;

export interface EntryContext {
  deps: Deps;
  userId: string;
  role: Role;
  /**
   * The acting user's language (their Slack locale, cached; pt-BR when unknown). Messages posted for
   * the whole channel because of what they did (thread roots, audit records) use it too.
   */
  locale: Locale;
  /** Adds what every message carries (the SANDBOX badge in sandbox mode). */
  present(message: SlackMessage): SlackMessage;
}

interface EntryBase {
  role: Role;
  /** What it does, for the refusal: "You need the operator role to <what>" (`messages(locale).actions`). */
  what: ActionKey;
}

/** A button or select. Acknowledged before the role check (Slack waits three seconds). */
export interface ActionEntry extends EntryBase {
  kind: 'action';
  actionId: string | RegExp;
  handle(args: ActionArgs, ctx: EntryContext): Promise<void>;
}

/** A modal submission. The handler acknowledges (it alone can answer with `response_action`). */
export interface ViewEntry extends EntryBase {
  kind: 'view';
  callbackId: string;
  /** The block that shows a refusal inline. */
  errorBlock: string;
  handle(args: ViewArgs, ctx: EntryContext): Promise<void>;
}

/** A message shortcut. Acknowledged before the role check. */
export interface ShortcutEntry extends EntryBase {
  kind: 'shortcut';
  callbackId: string;
  handle(args: ShortcutArgs, ctx: EntryContext): Promise<void>;
}

/**
 * An Events API event (the Home tab). Whoever opens it gets an answer, so there is no role to refuse
 * with: the user's role (undefined: none) is resolved here and given to the handler, which shows an
 * unauthorized user only how to get access and reaches nothing else.
 */
export interface EventEntry {
  kind: 'event';
  event: 'app_home_opened';
  what: ActionKey;
  handle(args: HomeOpenedArgs, ctx: Omit<EntryContext, 'role'> & { role: Role | undefined }): Promise<void>;
}

export type Entry = ActionEntry | ViewEntry | ShortcutEntry | EventEntry;

/**
 * Registers buttons, modal submissions and shortcuts, each behind the same role check as `/pix`: the
 * role is resolved and checked before the handler runs, so a handler cannot forget it, and a refused
 * user's action never reaches the Pix API.
 */
export function registerEntries(app: App, deps: Deps, entries: Entry[]): void {
  const presenter = (locale: Locale) => (m: SlackMessage) => (deps.sandboxMode ? withSandboxBadge(m, locale) : m);
  const check = async (userId: string, entry: Exclude<Entry, EventEntry>) => {
    const [role, locale] = await Promise.all([deps.access.roleOf(userId), userLocale(deps, userId)]);
    const present = presenter(locale);
    if (roleAllows(role, entry.role)) return { ok: true as const, ctx: { deps, userId, role: role!, locale, present } };
    deps.logger.info({ user: userId, entry: entry.kind, what: entry.what, role: role ?? 'none' }, 'refused');
    const refusal = present(refusalMessage(locale, { userId, needed: entry.role, what: messages(locale).actions[entry.what] }));
    return { ok: false as const, locale, refusal };
  };

  for (const entry of entries) {
    switch (entry.kind) {
      case 'action':
        app.action<BlockAction>(entry.actionId, async (args) => {
          await args.ack();
          const result = await check(args.body.user.id, entry);
          if (result.ok) return entry.handle(args, result.ctx);
          if (args.body.response_url) {
            await args.respond({ response_type: 'ephemeral', replace_original: false, ...result.refusal });
          } else if (args.body.view?.type === 'modal') {
            await args.client.views.update({ view_id: args.body.view.id, view: messageModal(result.locale, messages(result.locale).common.notAllowedTitle, result.refusal) });
          } else {
            await args.client.chat.postMessage({ channel: args.body.user.id, ...result.refusal });
          }
        });
        break;
      case 'view':
        app.view<ViewSubmitAction>(entry.callbackId, async (args) => {
          const result = await check(args.body.user.id, entry);
          if (result.ok) return entry.handle(args, result.ctx);
          // Inline errors are plain text: drop the mrkdwn emphasis.
          await args.ack({ response_action: 'errors', errors: { [entry.errorBlock]: result.refusal.text.replace(/\*/g, '') } });
        });
        break;
      case 'shortcut':
        app.shortcut<MessageShortcut>(entry.callbackId, async (args) => {
          await args.ack();
          const result = await check(args.body.user.id, entry);
          if (result.ok) return entry.handle(args, result.ctx);
          await args.respond({ response_type: 'ephemeral', replace_original: false, ...result.refusal });
        });
        break;
      case 'event':
        app.event(entry.event, async (args) => {
          const userId = args.event.user;
          const [role, locale] = await Promise.all([deps.access.roleOf(userId), userLocale(deps, userId)]);
          return entry.handle(args, { deps, userId, role, locale, present: presenter(locale) });
        });
        break;
    }
  }
}
