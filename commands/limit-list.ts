import type { Entry } from '../src/entries';
import type { CommandDef } from './types';

export const limitListCommand: CommandDef | undefined = undefined;
export const limitListEntries: Entry[] = [];
