import type { ActionArgs, EntryContext } from '../src/entry/table';
import type { SlackMessage } from '../views/message';
import { claimOnce } from './account-shared';

// What the confirmations before an irreversible action share (a key's deletion, the withdraw key, a
// secret's rotation): the ask is an ephemeral message with Confirm and Cancel; only Confirm acts.

/** The value a button carries, when it carries one. */
export function buttonValue(action: ActionArgs['action']): string | undefined {
  return 'value' in action && typeof action.value === 'string' ? action.value : undefined;
}

/** An ephemeral answer to whoever clicked; `replace`: in place of the message they clicked on. */
export const say = (args: ActionArgs, ctx: EntryContext, message: SlackMessage, replace = false) =>
  args.respond({ response_type: 'ephemeral', replace_original: replace, ...ctx.present(message) });

/**
 * True the first time a confirmation message (by its ts) is confirmed, on any instance: a second
 * click before the message is replaced does not act again.
 */
export function confirmOnce(args: ActionArgs, ctx: EntryContext, what: string): Promise<boolean> {
  const ts = (args.body.container as { message_ts?: string } | undefined)?.message_ts ?? args.body.message?.ts;
  if (!ts) return Promise.resolve(true);
  return claimOnce(ctx.deps, `confirm:${what}:${args.body.channel?.id ?? ctx.userId}:${ts}`);
}
