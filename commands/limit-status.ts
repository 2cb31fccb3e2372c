import type { Entry } from '../src/entries';
import type { CommandDef } from './types';

export const limitStatusCommand: CommandDef | undefined = undefined;
export const limitStatusEntries: Entry[] = [];
