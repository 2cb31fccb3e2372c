import type { Entry } from '../src/entries';
import type { CommandDef } from './types';

export const accountCommands: CommandDef[] = [];
export const accountEntries: Entry[] = [];
