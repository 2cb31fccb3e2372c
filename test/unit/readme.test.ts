import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ENTRY_TABLE } from '../../commands';
import type { CommandRow } from '../../src/entry/table';
import { CONFIG_VARIABLES } from '../../src/runtime/config';

// The README and docs/ as a new user reads them in a fresh clone: in step with the code, and whole.

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const readme = read('README.md');
const commands = ENTRY_TABLE.filter((r): r is CommandRow => r.kind === 'command');

/** The text of a `## title` section, up to the next `## ` heading. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** Every text file of the repository a user gets (not what npm or the build makes). */
function repositoryFiles(dir = ''): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'data', '.git'].includes(entry.name) ? [] : repositoryFiles(file);
    return /\.(ts|js|md|yml|json|example)$|^\.env\.example$/.test(entry.name) && entry.name !== 'package-lock.json' ? [file] : [];
  });
}

describe('the project documents itself', () => {
  test('nothing points outside the repository: the Pix interface and the product contract are in docs/', () => {
    const outside = ['..', 'shared', 'spec'].join('/'); // spelled so, or this file would name it
    const files = repositoryFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', path.join('docs', 'pix-interface.md'), path.join('docs', 'product.md')]));
    expect(files.filter((f) => read(f).includes(outside))).toEqual([]);
    expect(readme).toContain('](docs/pix-interface.md)');
    expect(readme).toContain('](docs/product.md)');
  });

  test('every relative link of the README and of docs/ leads to a file of the repository', () => {
    const docs = [
      'README.md',
      ...readdirSync(path.join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => path.join('docs', f)),
    ];
    const broken = docs.flatMap((doc) =>
      [...read(doc).matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(path.resolve(ROOT, path.dirname(doc), target)))
        .map((target) => `${doc} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  test('the Roles section lists every subcommand under the role the entry table gives it, and none under another', () => {
    const roles = section('Roles');
    const listed = new Map<string, string>();
    for (const [, role, text] of roles.matchAll(/^- \*\*(\w+)\*\*:([\s\S]*?)(?=^- \*\*|^$)/gm)) {
      for (const [, word] of text!.matchAll(/`(?:\/pix )?([a-z -]+)`/g)) if (commands.some((c) => c.id === word)) listed.set(word!, role!);
    }
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(commands.map((c) => [c.id, c.role])));
  });

  test('the Commands table has a row for every subcommand, with the role of the entry table', () => {
    const rows = section('Commands')
      .split('\n')
      .filter((line) => line.startsWith('| `/pix'))
      .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| /, '')));
    const roleOf = (c: CommandRow) => rows.find(([first]) => new RegExp(`^\`/pix ${c.id}(?: [<\\[]|\`)`).test(first!))?.[1];
    expect(Object.fromEntries(commands.map((c) => [c.id, roleOf(c)]))).toEqual(Object.fromEntries(commands.map((c) => [c.id, c.role])));
  });

  test('every variable the bot and the sandbox read is in a table of the README', () => {
    const variables = [...CONFIG_VARIABLES, 'SANDBOX_PORT', 'SANDBOX_SEED'];
    expect(variables).toEqual(expect.arrayContaining(['SLACK_BOT_TOKEN', 'STORE_URL', 'POLL_SCHEDULE']));
    const tableRows = readme.split('\n').filter((line) => line.startsWith('| `'));
    expect(variables.filter((v) => !tableRows.some((row) => row.split(' | ')[0]!.includes(`\`${v}\``)))).toEqual([]);
  });
});
