import type { Entry } from '../src/entry/entries';
import { accountCommands, accountEntries } from './accounts';
import { applicationCommands, applicationEntries } from './applications';
import { disputeEvidenceCommands, disputeEvidenceEntries } from './dispute-evidence';
import { helpCommand } from './help';
import { limitListCommand, limitListEntries } from './limit-list';
import { limitRequestCommand, limitRequestEntries } from './limit-request';
import { limitStatusCommand, limitStatusEntries } from './limit-status';
import { limitsCommand } from './limits';
import { paymentBookCommands, paymentBookEntries } from './payment-book';
import { pixKeyCommands, pixKeyEntries } from './pix-keys';
import { statementCommands, statementEntries } from './statement';
import type { CommandDef } from './types';

/** Every `/pix` subcommand, with the role it needs: the router checks it before anything runs. */
export const COMMANDS: CommandDef[] = [
  helpCommand(() => COMMANDS),
  limitsCommand,
  limitRequestCommand,
  limitStatusCommand,
  limitListCommand,
  ...accountCommands,
  ...pixKeyCommands,
  ...applicationCommands,
  ...paymentBookCommands,
  ...disputeEvidenceCommands,
  ...statementCommands,
];

export const HELP = COMMANDS[0]!;

/** Every button, modal submission and shortcut, each with the role it needs (see src/entries.ts). */
export const ENTRIES: Entry[] = [
  ...limitRequestEntries,
  ...limitStatusEntries,
  ...limitListEntries,
  ...accountEntries,
  ...pixKeyEntries,
  ...applicationEntries,
  ...paymentBookEntries,
  ...disputeEvidenceEntries,
  ...statementEntries,
];
