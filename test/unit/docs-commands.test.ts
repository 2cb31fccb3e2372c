import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// Every command the docs show runs in a test. The commands are gathered from the docs' shell blocks and
// from their inline code that starts like a command (`npm …`, `npx …`, `node …`, maybe after
// `NAME=value`); each must be one this file knows, run by the file named here. A command added to the
// docs with no test that runs it fails this test until a test runs it and the map below says which.

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;

/**
 * Command (its words without `NAME=value` and without what follows `npm run X` or `npx jest`) → the
 * file that runs it, and what that file runs: the command itself, or the part of its package.json
 * script that the file runs (the suites run `dist/`, which jest's global setup builds). `.ci/run` is
 * what CI runs; `package.json` holds what `npm test` runs.
 */
const RUN_BY: Record<string, { file: string; runs: string }> = {
  'npm ci': { file: '.ci/run', runs: 'npm ci' },
  'npm test': { file: '.ci/run', runs: 'npm test' },
  'npm run lint': { file: '.ci/run', runs: 'npm run lint' },
  'npm run format': { file: 'test/unit/format-scripts.test.ts', runs: 'npm run format' },
  'npm start': { file: 'test/integration/startup.test.ts', runs: 'dist/src/main.js' },
  'node dist/src/main.js': { file: 'test/integration/startup.test.ts', runs: 'dist/src/main.js' },
  'npm run sandbox': { file: 'test/sandbox/cli.test.ts', runs: 'dist/src/sandbox/cli.js' },
  'npm run bench': { file: 'test/bench/run.test.ts', runs: 'dist/bench/run.js' },
  'npm run store:copy': { file: 'test/integration/store-move.test.ts', runs: 'dist/src/store/copy-cli.js' },
  'npx jest': { file: 'package.json', runs: '"test": "jest"' },
  'npx tsc --noEmit -p tsconfig.json': { file: 'package.json', runs: 'tsc --noEmit -p tsconfig.json' },
};

/** The docs a reader runs commands from: every Markdown file but the Pix interface as the service describes it. */
function docs(dir = ''): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'data', '.git'].includes(entry.name) ? [] : docs(file);
    return entry.name.endsWith('.md') && file !== path.join('docs', 'pix-interface.md') ? [file] : [];
  });
}

interface Shown {
  doc: string;
  text: string;
  env: string[];
  key: string;
  args: string[];
}

const ENV = /^[A-Z_][A-Z0-9_]*=\S*$/;

/** One command as shown: its `NAME=value` prefixes, the words that name it, and the arguments after. */
function parseCommand(doc: string, text: string): Shown {
  const words = text.trim().split(/\s+/);
  const env: string[] = [];
  while (words[0] && ENV.test(words[0])) env.push(words.shift()!.split('=')[0]!);
  const named =
    words[0] === 'npm' && words[1] === 'run' ? 3 : words[0] === 'npm' || (words[0] === 'npx' && words[1] === 'jest') ? 2 : words.length;
  return { doc, text, env, key: words.slice(0, named).join(' '), args: words.slice(named) };
}

/** Every command a document shows: each line of its shell blocks, and inline code that is a command. */
function commandsOf(doc: string): Shown[] {
  const text = read(doc);
  const lines: string[] = [];
  for (const [, lang, body] of text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    if (['sh', 'bash', 'shell', 'console'].includes(lang!)) lines.push(...body!.split('\n'));
  }
  const prose = text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
  for (const [, code] of prose.matchAll(/`([^`\n]+)`/g)) {
    if (/^(?:[A-Z_][A-Z0-9_]*=\S*\s+)*(?:npm|npx|node)\s/.test(code!)) lines.push(code!);
  }
  return lines
    .map((line) => line.replace(/^\$ /, '').replace(/\s+#.*$/, ''))
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'))
    .flatMap((line) => line.split('&&'))
    .map((part) => parseCommand(doc, part));
}

const shown = docs().flatMap(commandsOf);

describe('every command the docs show runs in a test', () => {
  test('the docs show commands (the README its two, at least)', () => {
    expect(shown.filter((c) => c.doc === 'README.md').map((c) => c.key)).toEqual(
      expect.arrayContaining(['npm ci', 'npm start', 'npm test']),
    );
  });

  test('each is a command a named test runs', () => {
    expect(shown.filter((c) => !RUN_BY[c.key]).map((c) => `${c.doc}: ${c.text.trim()}`)).toEqual([]);
  });

  test('the file named for each runs it', () => {
    const notRun = Object.entries(RUN_BY).filter(([, { file, runs }]) => !existsSync(path.join(ROOT, file)) || !read(file).includes(runs));
    expect(notRun.map(([command, { file }]) => `${command}: ${file}`)).toEqual([]);
  });

  test('each npm script shown is a script of package.json, and what its test runs is that script', () => {
    const problems = Object.entries(RUN_BY).flatMap(([command, { runs }]) => {
      const name = /^npm (?:run (\S+)|(start|test))$/.exec(command)?.slice(1).find(Boolean);
      if (!name) return [];
      if (scripts[name] === undefined) return [`${command}: no such script`];
      return runs === command || scripts[name].includes(runs) ? [] : [`${command}: ${scripts[name]} does not run ${runs}`];
    });
    expect(problems).toEqual([]);
  });

  test("a variable set before a command is one its test sets, and a command's files exist", () => {
    const problems = shown.flatMap((c) => {
      const files = c.args.filter((a) => !a.startsWith('-'));
      const missing = c.key === 'npx jest' ? files.filter((f) => !existsSync(path.join(ROOT, f))) : [];
      const where = [RUN_BY[c.key]?.file, ...files].filter((f): f is string => f !== undefined && existsSync(path.join(ROOT, f)));
      const unset = c.env.filter((name) => !where.some((f) => read(f).includes(name)));
      return [
        ...missing.map((f) => `${c.doc}: ${f} does not exist`),
        ...unset.map((name) => `${c.doc}: ${name} is set by no test of ${c.key}`),
      ];
    });
    expect(problems).toEqual([]);
  });

  test('the map names no command the docs do not show', () => {
    expect(Object.keys(RUN_BY).filter((command) => !shown.some((c) => c.key === command))).toEqual([]);
  });
});
