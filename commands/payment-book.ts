import type { Entry } from '../src/entries';
import type { CommandDef } from './types';

export const paymentBookCommands: CommandDef[] = [];
export const paymentBookEntries: Entry[] = [];
