import { ENTRY_TABLE } from '../../commands';
import { matchCommand, tokenize } from '../../src/entry/command-words';
import type { CommandRow } from '../../src/entry/table';

const COMMANDS = ENTRY_TABLE.filter((r): r is CommandRow => r.kind === 'command');

const cmd = (path: string[], minArgs: number, maxArgs: number): CommandRow => ({
  kind: 'command',
  id: path.join(' '),
  argsUsage: '',
  summary: 'help',
  what: 'showHelp',
  role: 'viewer',
  minArgs,
  maxArgs,
  handler: async () => ({ text: '', blocks: [] }),
});

describe('tokenize', () => {
  test('splits on any whitespace and drops the empty words', () => {
    expect(tokenize('  limits \t 6840aeca23c0d1fe48c856a3  ')).toEqual(['limits', '6840aeca23c0d1fe48c856a3']);
    expect(tokenize('')).toEqual([]);
  });
  test('undoes the entities Slack escapes', () => {
    expect(tokenize('key add a&amp;b &lt;x&gt;')).toEqual(['key', 'add', 'a&b', '<x>']);
  });
});

describe('matchCommand', () => {
  const table = [cmd(['limit', 'request'], 0, 1), cmd(['limit', 'status'], 1, 1), cmd(['limits'], 0, 1)];

  test('the longest matching path wins, the rest are arguments', () => {
    const m = matchCommand(table, ['limit', 'request', 'acc1']);
    expect(m).toMatchObject({ kind: 'command', args: ['acc1'] });
    expect(m.kind === 'command' && m.command.id).toBe('limit request');
  });
  test('subcommand words are case-insensitive, arguments keep their case', () => {
    expect(matchCommand(table, ['LIMITS', 'AbC'])).toMatchObject({ kind: 'command', args: ['AbC'] });
  });
  test('too few or too many arguments is bad_args', () => {
    expect(matchCommand(table, ['limit', 'status'])).toMatchObject({ kind: 'bad_args' });
    expect(matchCommand(table, ['limits', 'a', 'b'])).toMatchObject({ kind: 'bad_args' });
  });
  test('an unknown word is unknown', () => {
    expect(matchCommand(table, ['frobnicate', 'x'])).toEqual({ kind: 'unknown', word: 'frobnicate x' });
    expect(matchCommand(table, ['limit'])).toMatchObject({ kind: 'unknown' });
  });
  test('the real table has help and limits, each with a role', () => {
    expect(matchCommand(COMMANDS, ['help'])).toMatchObject({ kind: 'command' });
    expect(matchCommand(COMMANDS, ['limits'])).toMatchObject({ kind: 'command' });
    const limits = matchCommand(COMMANDS, ['limits']);
    expect(limits.kind === 'command' && limits.command.role).toBe('viewer');
  });
});
