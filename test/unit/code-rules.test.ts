import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The house rules the code keeps, read from the code itself: Slack is reached only through
// `deps.slack`, and bot code throws the PixOpsError family, each class named `…Error`.

const ROOT = path.resolve(__dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sources(file);
    return e.name.endsWith('.ts') ? [file] : [];
  });
}

const within = (file: string, folder: string) => file === folder || file.startsWith(`${folder}/`);
const code = ['src', 'commands', 'views'].flatMap(sources).map((file) => ({ file, text: readFileSync(path.join(ROOT, file), 'utf8') }));

/** What is in src/ but is not the bot: the sandbox Pix API, the Slack stand-in and the playground that drives them. */
const NOT_THE_BOT = ['src/sandbox', 'src/slack-standin', 'src/playground'];
const botCode = code.filter(({ file }) => !NOT_THE_BOT.some((folder) => within(file, folder)));

/** `file:line: text` of each match of `pattern` in the files. */
function found(files: typeof code, pattern: RegExp): string[] {
  return files.flatMap(({ file, text }) =>
    [...text.matchAll(pattern)].map((m) => `${file}:${text.slice(0, m.index).split('\n').length}: ${m[0].replace(/\s+/g, ' ')}`),
  );
}

describe('Slack is reached only through deps.slack', () => {
  test('reads the entry points (the rule below is not checked against nothing)', () => {
    expect(botCode.filter(({ file }) => within(file, 'commands')).length).toBeGreaterThan(10);
    expect(botCode.some(({ file }) => file === path.join('src', 'entry', 'router.ts'))).toBe(true);
  });

  test("no listener or middleware uses Bolt's per-delivery client (args.client, or a destructured client)", () => {
    const boltClient = [
      /\bargs\.client\b/g,
      // The arguments cast first: `(args as …).client`.
      /\)\s*\.client\b/g,
      // Destructured from a handler's arguments, as a parameter or from `args`.
      /\{[\w\s,:.]*\bclient\b[\w\s,:.]*\}\s*(?::[^=;{}()]*)?(?:\)|=\s*args\b)/g,
    ];
    expect(boltClient.flatMap((pattern) => found(botCode, pattern))).toEqual([]);
  });
});

describe('errors: the PixOpsError family, each class named …Error', () => {
  test('bot code throws no bare Error: a class of the family says what went wrong', () => {
    expect(botCode.length).toBeGreaterThan(100);
    expect(found(botCode, /(?<![\w.$])(?:new\s+)?Error\(/g)).toEqual([]);
  });

  test("bot code's error classes derive from PixOpsError, not from Error", () => {
    expect(found(botCode, /\bclass \w+ extends PixOpsError\b/g).length).toBeGreaterThan(10);
    const direct = botCode.flatMap(({ file, text }) => [...text.matchAll(/\bclass (\w+) extends Error\b/g)].map((m) => `${file}: ${m[1]}`));
    expect(direct).toEqual([`${path.join('src', 'errors.ts')}: PixOpsError`]);
  });

  test('every error class, anywhere in src/, commands/ and views/, has a name that ends in Error', () => {
    const classes = code.flatMap(({ file, text }) =>
      [...text.matchAll(/\bclass (\w+)(?:<[^>{]*>)? extends (\w+)/g)].map((m) => ({ file, name: m[1]!, base: m[2]! })),
    );
    const errorClasses = classes.filter((c) => c.base.endsWith('Error'));
    expect(errorClasses.length).toBeGreaterThan(20);
    expect(errorClasses.filter((c) => !c.name.endsWith('Error')).map((c) => `${c.file}: ${c.name} extends ${c.base}`)).toEqual([]);
  });

  test('one class for a lost claim, whichever claim it was', () => {
    const classes = code.flatMap(({ file, text }) => [...text.matchAll(/\bclass (\w*Claim\w*Lost\w*)/g)].map((m) => `${file}: ${m[1]}`));
    expect(classes).toEqual([`${path.join('src', 'errors.ts')}: ClaimLostError`]);
  });
});
