import type { App } from '@slack/bolt';
import { COMMANDS, HELP } from '../commands';
import { matchCommand, tokenize } from '../commands/parse';
import { UsageError, usageOf, type CommandDef } from '../commands/types';
import { refusalMessage, unknownCommandMessage, usageMessage } from '../views/help';
import { pixErrorMessage } from '../views/errors';
import { plain, withSandboxBadge, type SlackMessage } from '../views/message';
import { roleAllows } from './access';
import type { Deps } from './deps';
import { NoDefaultAccountError } from './default-account';
import { PixApiError } from './pix/errors';

/**
 * `/pix`: finds the subcommand, checks the caller's role before anything else happens, and answers
 * ephemerally. Refusals, usage and help are answered in the acknowledgement itself; the rest is
 * acknowledged at once (Slack waits three seconds) and answered through the response_url.
 */
export function registerSlashCommand(app: App, deps: Deps): void {
  const present = (m: SlackMessage) => (deps.sandboxMode ? withSandboxBadge(m) : m);
  const ephemeral = (m: SlackMessage) => ({ response_type: 'ephemeral' as const, ...present(m) });

  app.command('/pix', async ({ command, ack, respond }) => {
    const words = tokenize(command.text ?? '');
    const role = await deps.access.roleOf(command.user_id);
    const match = words.length === 0 ? { kind: 'command' as const, command: HELP, args: [] } : matchCommand(COMMANDS, words);

    if (match.kind === 'unknown') {
      const allowed = COMMANDS.filter((c) => roleAllows(role, c.role)).map((c) => ({ usage: usageOf(c), summary: c.summary }));
      await ack(ephemeral(unknownCommandMessage(match.word, allowed)));
      return;
    }
    const cmd = match.command;
    if (!roleAllows(role, cmd.role)) {
      deps.logger.info({ user: command.user_id, command: usageOf(cmd), role: role ?? 'none' }, 'refused');
      await ack(ephemeral(refusalMessage({ userId: command.user_id, needed: cmd.role!, what: `use \`/pix ${cmd.path.join(' ')}\`` })));
      return;
    }
    if (match.kind === 'bad_args') {
      await ack(ephemeral(usageMessage(usageOf(cmd))));
      return;
    }

    const reply = async (m: SlackMessage) => {
      await respond({ ...ephemeral(m), replace_original: false });
    };
    const ctx = { deps, userId: command.user_id, channelId: command.channel_id, triggerId: command.trigger_id, responseUrl: command.response_url, args: match.args, role, reply };
    if (cmd.instant) {
      const answer = await answerOf(cmd, () => cmd.run(ctx), deps);
      await ack(answer ? ephemeral(answer) : undefined);
      return;
    }
    await ack();
    const answer = await answerOf(cmd, () => cmd.run(ctx), deps);
    if (!answer) return;
    await reply(answer).catch((err: unknown) => {
      deps.logger.error({ err: err instanceof Error ? err.message : String(err) }, 'could not answer through response_url');
    });
  });
}

async function answerOf(cmd: CommandDef, run: () => Promise<SlackMessage | null>, deps: Deps): Promise<SlackMessage | null> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof UsageError) return usageMessage(usageOf(cmd), err.message);
    if (err instanceof PixApiError) {
      deps.logger.warn({ operation: err.operation, status: err.status, kind: err.kind }, 'Pix API call failed');
      return pixErrorMessage(err, cmd.action);
    }
    if (err instanceof NoDefaultAccountError) return plain(err.message);
    deps.logger.error({ err, command: usageOf(cmd) }, 'command failed');
    return plain(`Something went wrong while trying to ${cmd.action}. Nothing more was done.`);
  }
}
