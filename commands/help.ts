import { roleAllows } from '../src/entry/access';
import { messages } from '../src/i18n';
import { helpMessage } from '../views/help';
import { usageOf, type CommandDef } from './types';

/** `/pix help`: the usage of what the caller's role allows (built over the command table). */
export function helpCommand(commands: () => CommandDef[]): CommandDef {
  return {
    path: ['help'],
    argsUsage: '',
    summary: 'help',
    action: 'showHelp',
    role: null,
    minArgs: 0,
    maxArgs: 0,
    instant: true,
    async run({ deps, userId, role, locale }) {
      const summaries = messages(locale).summaries;
      const entries = commands()
        .filter((c) => roleAllows(role, c.role))
        .map((c) => ({ usage: usageOf(c), summary: summaries[c.summary] }));
      return helpMessage(locale, { userId, role, accessConfigured: deps.access.configured || deps.sandboxMode, entries });
    },
  };
}
