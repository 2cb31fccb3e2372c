import type { CommandRow } from './table';

/** The words of a `/pix` text. Slack escapes &, < and > in command text; undo it. */
export function tokenize(text: string): string[] {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&').trim().split(/\s+/).filter(Boolean);
}

export type Match =
  | { kind: 'command'; command: CommandRow; args: string[] }
  | { kind: 'bad_args'; command: CommandRow; args: string[] }
  | { kind: 'unknown'; word: string };

/** The command whose words start the text (the longest such), and the remaining words as arguments. */
export function matchCommand(commands: CommandRow[], words: string[]): Match {
  const lowered = words.map((w) => w.toLowerCase());
  let best: { row: CommandRow; length: number } | undefined;
  for (const row of commands) {
    const path = row.id.split(' ');
    if (path.every((w, i) => lowered[i] === w) && (!best || path.length > best.length)) best = { row, length: path.length };
  }
  if (!best) return { kind: 'unknown', word: words.slice(0, 2).join(' ') };
  const args = words.slice(best.length);
  if (args.length < best.row.minArgs || args.length > best.row.maxArgs) return { kind: 'bad_args', command: best.row, args };
  return { kind: 'command', command: best.row, args };
}
