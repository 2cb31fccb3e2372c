import type { Entry } from '../src/entries';
import type { CommandDef } from './types';

export const disputeEvidenceCommands: CommandDef[] = [];
export const disputeEvidenceEntries: Entry[] = [];
