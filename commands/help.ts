import { roleAllows } from '../src/access';
import { helpMessage } from '../views/help';
import { usageOf, type CommandDef } from './types';

/** `/pix help`: the usage of what the caller's role allows (built over the command table). */
export function helpCommand(commands: () => CommandDef[]): CommandDef {
  return {
    path: ['help'],
    argsUsage: '',
    summary: 'this list',
    action: 'show help',
    role: null,
    minArgs: 0,
    maxArgs: 0,
    instant: true,
    async run({ deps, userId, role }) {
      const entries = commands()
        .filter((c) => roleAllows(role, c.role))
        .map((c) => ({ usage: usageOf(c), summary: c.summary }));
      return helpMessage({ userId, role, accessConfigured: deps.access.configured || deps.sandboxMode, entries });
    },
  };
}
