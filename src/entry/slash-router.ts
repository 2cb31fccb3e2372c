import type { App } from '@slack/bolt';
import { COMMANDS, HELP } from '../../commands';
import { matchCommand, tokenize } from '../../commands/parse';
import { UsageError, usageOf, type CommandDef } from '../../commands/types';
import { refusalMessage, unknownCommandMessage, usageMessage } from '../../views/help';
import { pixErrorMessage } from '../../views/errors';
import { plain, withSandboxBadge, type SlackMessage } from '../../views/message';
import { roleAllows } from './access';
import type { Deps } from '../runtime/deps';
import { NoDefaultAccountError } from '../pix/default-account';
import { messages, type Locale } from '../i18n';
import { userLocale } from '../i18n/locale';
import { PixApiError } from '../pix/errors';
import { isStoreUnavailable } from '../store/errors';
import { errorText } from '../runtime/error-text';

/**
 * `/pix`: finds the subcommand, checks the caller's role before anything else happens, and answers
 * ephemerally. Refusals, usage and help are answered in the acknowledgement itself; the rest is
 * acknowledged at once (Slack waits three seconds) and answered through the response_url.
 */
export function registerSlashCommand(app: App, deps: Deps): void {
  const present = (m: SlackMessage, locale: Locale) => (deps.sandboxMode ? withSandboxBadge(m, locale) : m);
  const ephemeral = (m: SlackMessage, locale: Locale) => ({ response_type: 'ephemeral' as const, ...present(m, locale) });

  app.command('/pix', async ({ command, ack, respond }) => {
    const words = tokenize(command.text ?? '');
    // Every answer is in the caller's language (their Slack locale, cached; pt-BR when unknown).
    const [role, locale] = await Promise.all([deps.access.roleOf(command.user_id), userLocale(deps, command.user_id)]);
    const m = messages(locale);
    const match = words.length === 0 ? { kind: 'command' as const, command: HELP, args: [] } : matchCommand(COMMANDS, words);

    if (match.kind === 'unknown') {
      const allowed = COMMANDS.filter((c) => roleAllows(role, c.role)).map((c) => ({ usage: usageOf(c), summary: m.summaries[c.summary] }));
      await ack(ephemeral(unknownCommandMessage(locale, match.word, allowed), locale));
      return;
    }
    const cmd = match.command;
    if (!roleAllows(role, cmd.role)) {
      deps.logger.info({ user: command.user_id, command: usageOf(cmd), role: role ?? 'none' }, 'refused');
      await ack(ephemeral(refusalMessage(locale, { userId: command.user_id, needed: cmd.role!, what: m.help.useCommand(cmd.path.join(' ')) }), locale));
      return;
    }
    if (match.kind === 'bad_args') {
      await ack(ephemeral(usageMessage(locale, usageOf(cmd)), locale));
      return;
    }

    const reply = async (message: SlackMessage) => {
      await respond({ ...ephemeral(message, locale), replace_original: false });
    };
    const ctx = { deps, userId: command.user_id, channelId: command.channel_id, triggerId: command.trigger_id, responseUrl: command.response_url, args: match.args, role, locale, reply };
    if (cmd.instant) {
      const answer = await answerOf(cmd, () => cmd.run(ctx), deps, locale);
      await ack(answer ? ephemeral(answer, locale) : undefined);
      return;
    }
    await ack();
    const answer = await answerOf(cmd, () => cmd.run(ctx), deps, locale);
    if (!answer) return;
    await reply(answer).catch((err: unknown) => {
      deps.logger.error({ err: errorText(err) }, 'could not answer through response_url');
    });
  });
}

async function answerOf(cmd: CommandDef, run: () => Promise<SlackMessage | null>, deps: Deps, locale: Locale): Promise<SlackMessage | null> {
  const m = messages(locale);
  try {
    return await run();
  } catch (err) {
    if (err instanceof UsageError) return usageMessage(locale, usageOf(cmd), err.message);
    if (err instanceof PixApiError) {
      deps.logger.warn({ operation: err.operation, status: err.status, kind: err.kind }, 'Pix API call failed');
      return pixErrorMessage(locale, err, cmd.action);
    }
    if (err instanceof NoDefaultAccountError) return plain(m.common.noDefaultAccount);
    if (isStoreUnavailable(err)) {
      deps.logger.warn({ err: err.message, command: usageOf(cmd) }, 'a command needed the store, which is unavailable');
      return plain(m.common.storeUnavailable);
    }
    deps.logger.error({ err, command: usageOf(cmd) }, 'command failed');
    return plain(m.common.wentWrongNothingMore(m.actions[cmd.action]));
  }
}
