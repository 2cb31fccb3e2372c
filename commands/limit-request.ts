import type { Entry } from '../src/entries';
import type { CommandDef } from './types';

export const limitRequestCommand: CommandDef | undefined = undefined;
export const limitRequestEntries: Entry[] = [];
