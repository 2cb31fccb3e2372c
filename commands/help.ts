import { roleAllows } from '../src/domain/roles';
import { type CommandRow, usageOf } from '../src/entry/table';
import { messages } from '../src/i18n';
import { helpMessage } from '../views/help';
import type { SlackMessage } from '../views/message';

/** `/pix help`: the usage of what the caller's role allows (built over the command table). */
export function helpCommand(commands: () => CommandRow[]): CommandRow {
  // The help of a role is the same for everyone with it (the table is fixed at start): built once per
  // language and role, since it is what answers the most frequent command, in the acknowledgement.
  const built = new Map<string, SlackMessage>();
  return {
    kind: 'command',
    id: 'help',
    argsUsage: '',
    summary: 'help',
    what: 'showHelp',
    role: 'anyone',
    minArgs: 0,
    maxArgs: 0,
    instant: true,
    async handler({ deps, userId, role, locale }) {
      const accessConfigured = deps.access.configured || deps.sandboxMode;
      // Without a role the help names the caller's user ID: never shared.
      const key = role ? `${locale}|${role}|${accessConfigured}` : undefined;
      const known = key ? built.get(key) : undefined;
      if (known) return known;
      const summaries = messages(locale).summaries;
      const entries = commands()
        .filter((c) => roleAllows(role, c.role))
        .map((c) => ({ usage: usageOf(c), summary: summaries[c.summary] }));
      const message = helpMessage(locale, { userId, role, accessConfigured, entries });
      if (key) built.set(key, message);
      return message;
    },
  };
}
