import { z } from 'zod';
import type { CommandDef } from './types';

/** The words of a `/pix` text. Slack escapes &, < and > in command text; undo it. */
export function tokenize(text: string): string[] {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
}

export type Match =
  | { kind: 'command'; command: CommandDef; args: string[] }
  | { kind: 'bad_args'; command: CommandDef; args: string[] }
  | { kind: 'unknown'; word: string };

/** The command whose words start the text (the longest such), and the remaining words as arguments. */
export function matchCommand(commands: CommandDef[], words: string[]): Match {
  const lowered = words.map((w) => w.toLowerCase());
  let best: CommandDef | undefined;
  for (const cmd of commands) {
    if (cmd.path.every((w, i) => lowered[i] === w) && (!best || cmd.path.length > best.path.length)) best = cmd;
  }
  if (!best) return { kind: 'unknown', word: words.slice(0, 2).join(' ') };
  const args = words.slice(best.path.length);
  if (args.length < best.minArgs || args.length > best.maxArgs) return { kind: 'bad_args', command: best, args };
  return { kind: 'command', command: best, args };
}

/** Identifiers of the Pix API (accounts, requests): object ids in practice; never path syntax. */
export const PixIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
