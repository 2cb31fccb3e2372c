import type { Entry } from '../src/entries';
import type { CommandDef } from './types';

export const statementCommands: CommandDef[] = [];
export const statementEntries: Entry[] = [];
