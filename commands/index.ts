import type { Entry } from '../src/entries';
import { helpCommand } from './help';
import { limitListCommand, limitListEntries } from './limit-list';
import { limitRequestCommand, limitRequestEntries } from './limit-request';
import { limitStatusCommand, limitStatusEntries } from './limit-status';
import { limitsCommand } from './limits';
import type { CommandDef } from './types';

const defined = <T>(items: Array<T | undefined>): T[] => items.filter((i): i is T => i !== undefined);

/** Every `/pix` subcommand, with the role it needs: the router checks it before anything runs. */
export const COMMANDS: CommandDef[] = defined([
  helpCommand(() => COMMANDS),
  limitsCommand,
  limitRequestCommand,
  limitStatusCommand,
  limitListCommand,
]);

export const HELP = COMMANDS[0]!;

/** Every button, modal submission and shortcut, each with the role it needs (see src/entries.ts). */
export const ENTRIES: Entry[] = [...limitRequestEntries, ...limitStatusEntries, ...limitListEntries];
