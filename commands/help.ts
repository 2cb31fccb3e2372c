import { roleAllows } from '../src/domain/roles';
import { messages } from '../src/i18n';
import { helpMessage } from '../views/help';
import { usageOf, type CommandRow } from '../src/entry/table';

/** `/pix help`: the usage of what the caller's role allows (built over the command table). */
export function helpCommand(commands: () => CommandRow[]): CommandRow {
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
      const summaries = messages(locale).summaries;
      const entries = commands()
        .filter((c) => roleAllows(role, c.role))
        .map((c) => ({ usage: usageOf(c), summary: summaries[c.summary] }));
      return helpMessage(locale, { userId, role, accessConfigured: deps.access.configured || deps.sandboxMode, entries });
    },
  };
}
