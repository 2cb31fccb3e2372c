import type { Entry } from '../src/entries';
import type { CommandDef } from './types';

export const pixKeyCommands: CommandDef[] = [];
export const pixKeyEntries: Entry[] = [];
