import type { Entry } from '../src/entries';
import type { CommandDef } from './types';

export const applicationCommands: CommandDef[] = [];
export const applicationEntries: Entry[] = [];
