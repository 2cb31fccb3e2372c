import { helpCommand } from './help';
import { limitsCommand } from './limits';
import type { CommandDef } from './types';

/** Every `/pix` subcommand, with the role it needs: the router checks it before anything runs. */
export const COMMANDS: CommandDef[] = [helpCommand(() => COMMANDS), limitsCommand];

export const HELP = COMMANDS[0]!;
