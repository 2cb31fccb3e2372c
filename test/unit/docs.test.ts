import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ENTRY_TABLE } from '../../commands';
import type { CommandRow } from '../../src/entry/table';
import { CONFIG_VARIABLES } from '../../src/runtime/config';

// The docs as a newcomer reads them in a fresh clone, each held to the code it describes: the README's
// command table to the entry table, docs/configuration.md to the configuration's schemas,
// docs/architecture.md's import rules to the imports, docs/operations.md's metrics to the registry.

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const readme = read('README.md');
const commands = ENTRY_TABLE.filter((r): r is CommandRow => r.kind === 'command');

/** The copies of the shared specs: their text is the contract's, future features included. */
const CONTRACT_COPIES = [path.join('docs', 'product.md'), path.join('docs', 'pix-interface.md')];

/** Every Markdown document of the repository (not what npm or the build makes). */
function markdownFiles(dir = ''): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'data', '.git'].includes(entry.name) ? [] : markdownFiles(file);
    return entry.name.endsWith('.md') ? [file] : [];
  });
}
const docs = markdownFiles();
const ownDocs = docs.filter((d) => !CONTRACT_COPIES.includes(d));

/** Every text file of the repository a user gets. */
function repositoryFiles(dir = ''): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'data', '.git'].includes(entry.name) ? [] : repositoryFiles(file);
    return /\.(ts|js|md|yml|json|example)$|^\.env\.example$/.test(entry.name) && entry.name !== 'package-lock.json' ? [file] : [];
  });
}

/** The text of a `## title` section of a document, up to the next `## ` heading. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** A document's text without its fenced code blocks. */
const prose = (text: string) => text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as dashes. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = (text: string) => new Set([...prose(text).matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1]!)));

/** The first cells of a document's table rows: the names each row documents. */
const firstCells = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| -'))
    .map((line) => line.split(' | ')[0]!);

/** The keys of `const NAME = z.object({ … })` in a source file: a schema that is not exported. */
function schemaKeys(file: string, name: string): string[] {
  const source = read(file);
  const start = source.indexOf(`const ${name} = z.object({`);
  expect(start).toBeGreaterThanOrEqual(0);
  const body = source.slice(start, source.indexOf('\n});', start));
  return [...body.matchAll(/^ {2}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!);
}

/** Every variable the bot, the playground and the sandbox read. */
const VARIABLES = [
  ...new Set([
    ...CONFIG_VARIABLES,
    ...schemaKeys('src/runtime/config.ts', 'PlaygroundSchema'),
    ...schemaKeys('src/sandbox/cli.ts', 'SandboxEnv'),
  ]),
];

describe('the docs are there, and lead where they say', () => {
  test('each reader has a document, and the README links every one', () => {
    const expected = [
      'README.md',
      'CONTRIBUTING.md',
      'SECURITY.md',
      'CHANGELOG.md',
      'LICENSE',
      'bench/README.md',
      'docs/configuration.md',
      'docs/operations.md',
      'docs/architecture.md',
      'docs/product.md',
      'docs/pix-interface.md',
    ];
    expect(expected.filter((f) => !existsSync(path.join(ROOT, f)))).toEqual([]);
    expect(expected.filter((f) => f !== 'README.md' && !readme.includes(`](${f})`))).toEqual([]);
  });

  test('nothing points outside the repository: the Pix interface and the product contract are in docs/', () => {
    const outside = ['..', 'shared', 'spec'].join('/'); // spelled so, or this file would name it
    expect(repositoryFiles().filter((f) => read(f).includes(outside))).toEqual([]);
  });

  test('every relative link of every document leads to a file of the repository, and its anchor to a heading', () => {
    const broken = docs.flatMap((doc) =>
      [...prose(read(doc)).matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => {
          const [file, anchor] = target.split('#') as [string, string | undefined];
          const resolved = file === '' ? path.join(ROOT, doc) : path.resolve(ROOT, path.dirname(doc), file);
          if (!existsSync(resolved)) return true;
          return anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor);
        })
        .map((target) => `${doc} → ${target}`),
    );
    expect(broken).toEqual([]);
  });
});

describe('the README, for a newcomer', () => {
  test('is at most 250 lines, with one screenshot', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]!);
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(/^docs\/screenshots\/.+\.png$/);
  });

  test('shows the two commands, the test command being exactly what CI runs around its lint', () => {
    expect(readme).toContain('\nnpm ci && npm start\n');
    expect(readme).toContain('\nnpm ci && npm test\n');
    const ci = read('.ci/run')
      .split('\n')
      .filter((line) => line.startsWith('npm '));
    expect(ci).toEqual(['npm ci && npm run lint && npm test']);
  });

  test("says how to invite the bot to a channel, by the app's name in the manifest", () => {
    const manifest = parseYaml(read('manifest.yml')) as { display_information: { name: string } };
    expect(readme).toContain(`\`/invite @${manifest.display_information.name}\``);
  });

  test('the Commands table has a row for every subcommand, with the role of the entry table', () => {
    const rows = section(readme, 'Commands')
      .split('\n')
      .filter((line) => line.startsWith('| `/pix'))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    const roleOf = (c: CommandRow) => rows.find(([, first]) => new RegExp(`^\`/pix ${c.id}(?: [<\\[]|\`)`).test(first!))?.[2];
    expect(Object.fromEntries(commands.map((c) => [c.id, roleOf(c)]))).toEqual(Object.fromEntries(commands.map((c) => [c.id, c.role])));
    expect(rows).toHaveLength(commands.length);
  });

  test('repeats no passage of the product contract (one copy: docs/product.md) beyond the command table', () => {
    const words = (text: string) =>
      prose(text)
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .split(' ')
        .filter(Boolean);
    const contract = words(read('docs/product.md'));
    const span = 10;
    const passages = new Set(contract.slice(0, contract.length - span + 1).map((_, i) => contract.slice(i, i + span).join(' ')));
    const own = words(
      readme
        .split('\n')
        .filter((line) => !line.startsWith('| `/pix'))
        .join('\n'),
    );
    const repeated = own.slice(0, own.length - span + 1).flatMap((_, i) => {
      const passage = own.slice(i, i + span).join(' ');
      return passages.has(passage) ? [passage] : [];
    });
    expect(repeated).toEqual([]);
  });
});

describe('docs/configuration.md, against the configuration schemas', () => {
  const configuration = read('docs/configuration.md');

  test('documents every variable the bot, the playground and the sandbox read, in a table', () => {
    expect(VARIABLES).toEqual(expect.arrayContaining(['SLACK_BOT_TOKEN', 'STORE_URL', 'PLAYGROUND_PORT', 'SANDBOX_PORT', 'SANDBOX_SEED']));
    const documented = firstCells(configuration).join(' ');
    expect(VARIABLES.filter((v) => !documented.includes(`\`${v}\``))).toEqual([]);
  });

  test('documents no variable that is not read', () => {
    const documented = firstCells(configuration).flatMap((cell) => [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!));
    expect(documented.filter((v) => !VARIABLES.includes(v))).toEqual([]);
  });

  test('no other document names a variable of the app that does not exist', () => {
    const OURS =
      /^(?:SLACK|PIX|STORE|POLL|ACCESS|APPROVALS?|HEALTH|LOG|PLAYGROUND|SANDBOX|DIGEST|BALANCE)_[A-Z0-9_]+$|^(?:PORT|APPROVALS)$/;
    const unknown = ownDocs.flatMap((doc) =>
      [...read(doc).matchAll(/`([A-Z][A-Z0-9_]*)(?:=[^`]*)?`/g)]
        .map((m) => m[1]!)
        .filter((name) => OURS.test(name) && !VARIABLES.includes(name))
        .map((name) => `${doc}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});

describe('docs/architecture.md, against the imports', () => {
  interface Import {
    from: string;
    to: string;
    typeOnly: boolean;
  }

  function sources(dir: string): string[] {
    return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) return sources(file);
      return e.name.endsWith('.ts') ? [file] : [];
    });
  }

  /** Every import of the app's code: relative ones resolved to a path from the root, packages by name. */
  const imports: Import[] = ['src', 'commands', 'views'].flatMap(sources).flatMap((from) =>
    [...read(from).matchAll(/^(import type|import|export)\b[^;]*?\bfrom '([^']+)'|^import '([^']+)'|\brequire\('([^']+)'\)/gms)].map(
      (m) => {
        const spec = (m[2] ?? m[3] ?? m[4])!;
        const to = spec.startsWith('.') ? path.normalize(path.join(path.dirname(from), spec)) : spec;
        return { from, to, typeOnly: m[1] === 'import type' };
      },
    ),
  );
  const within = (file: string, room: string) => file === room || file.startsWith(`${room}/`);
  const show = (i: Import) => `${i.from} → ${i.to}`;

  test('reads every import of the code (the rules below are not checked against nothing)', () => {
    expect(imports.filter((i) => within(i.to, 'src/poller')).length).toBeGreaterThan(0);
    expect(imports.filter((i) => within(i.from, 'views')).length).toBeGreaterThan(10);
  });

  test('only the composition root imports commands/ and src/poller/', () => {
    const arrows = imports.filter(
      (i) => (within(i.to, 'commands') && !within(i.from, 'commands')) || (within(i.to, 'src/poller') && !within(i.from, 'src/poller')),
    );
    expect(arrows.filter((i) => i.from !== 'src/app.ts').map(show)).toEqual([]);
  });

  test('views/ does no I/O: values only from views/, src/domain/, src/i18n/, src/pix/ and zod', () => {
    const allowed = (to: string) => ['views', 'src/domain', 'src/i18n', 'src/pix'].some((room) => within(to, room)) || to === 'zod';
    expect(imports.filter((i) => within(i.from, 'views') && !i.typeOnly && !allowed(i.to)).map(show)).toEqual([]);
  });

  test('src/pix/ knows nothing of Slack', () => {
    const slackish = (to: string) =>
      to.startsWith('@slack/') || ['src/slack', 'src/entry', 'commands', 'views'].some((room) => within(to, room));
    expect(imports.filter((i) => within(i.from, 'src/pix') && slackish(i.to)).map(show)).toEqual([]);
  });

  test('the sandbox imports nothing of the bot but the error family and the Pix types', () => {
    const ours = (to: string) => within(to, 'src') || within(to, 'commands') || within(to, 'views');
    const allowed = (i: Import) => within(i.to, 'src/sandbox') || i.to === 'src/errors' || (i.typeOnly && within(i.to, 'src/pix'));
    expect(imports.filter((i) => within(i.from, 'src/sandbox') && ours(i.to) && !allowed(i)).map(show)).toEqual([]);
  });

  test('the Slack stand-in is imported only by the playground, and the playground only by src/main.ts', () => {
    const arrows = imports.filter(
      (i) =>
        (within(i.to, 'src/slack-standin') && !within(i.from, 'src/slack-standin') && !within(i.from, 'src/playground')) ||
        (within(i.to, 'src/playground') && !within(i.from, 'src/playground') && i.from !== 'src/main.ts'),
    );
    expect(arrows.map(show)).toEqual([]);
  });

  test('libraries as they are published: no path into a package build, no require.cache, no run-time V8 flag, no patch', () => {
    const TRICKS: Array<[RegExp, string]> = [
      [
        /(?:\bfrom\s+|\brequire(?:\.resolve)?\(\s*|\bimport\(\s*)['"`](?![./])[^'"`]*\/dist(?:\/[^'"`]*)?['"`]/,
        'a path into a package build',
      ],
      [/\brequire\.cache\b/, 'require.cache'],
      [/\bsetFlagsFromString\b|--expose[-_]gc/, 'a V8 flag set at run time'],
      [/\.prototype\.[\w$]+\s*=(?!=)|\bObject\.setPrototypeOf\(/, 'a prototype patched'],
    ];
    // Bolt's listener methods refused on the app's own App instance: the one property defined.
    const defines = /\b(?:Object|Reflect)\.define(?:Property|Properties)\(/;
    const found = ['src', 'commands', 'views'].flatMap(sources).flatMap((file) => {
      const text = read(file);
      const tricks = TRICKS.filter(([pattern]) => pattern.test(text)).map(([, what]) => `${file}: ${what}`);
      return defines.test(text) && file !== 'src/slack/bolt-app.ts' ? [...tricks, `${file}: a property defined`] : tricks;
    });
    expect(found).toEqual([]);
  });

  test('names every room of src/ that it describes, and every dependency of package.json', () => {
    const architecture = read('docs/architecture.md');
    const rooms = readdirSync(path.join(ROOT, 'src'), { withFileTypes: true }).map((e) =>
      e.isDirectory() ? `src/${e.name}/` : `src/${e.name}`,
    );
    expect(rooms.filter((room) => !architecture.includes(`\`${room}\``))).toEqual([]);
    const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const packages = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)].filter((p) => !p.startsWith('@types/'));
    const table = firstCells(section(architecture, 'Dependencies')).join(' ');
    expect(packages.filter((p) => !table.includes(`\`${p}\``))).toEqual([]);
  });
});

describe('docs/operations.md, against the metrics registry', () => {
  test('lists exactly the pixops_ metrics the app registers', () => {
    const registered = [...read('src/runtime/metrics.ts').matchAll(/'(pixops_[a-z_]+)'/g)].map((m) => m[1]!);
    const documented = [...read('docs/operations.md').matchAll(/`(pixops_[a-z_]+)/g)].map((m) => m[1]!);
    expect(registered.length).toBeGreaterThan(5);
    expect([...new Set(documented)].sort()).toEqual([...new Set(registered)].sort());
  });
});

describe('the license and the changelog', () => {
  test('MIT, in LICENSE and in package.json', () => {
    expect(read('LICENSE')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} Pix Ops for Slack contributors\n/);
    expect((JSON.parse(read('package.json')) as { license: string }).license).toBe('MIT');
  });

  test("the changelog keeps Keep a Changelog's shape, with a section for the package's version", () => {
    const changelog = read('CHANGELOG.md');
    const versions = [...changelog.matchAll(/^## \[(.+?)\](.*)$/gm)].map((m) => [m[1]!, m[2]!] as const);
    expect(versions[0]).toEqual(['Unreleased', '']);
    for (const [, date] of versions.slice(1)) expect(date).toMatch(/^ - \d{4}-\d{2}-\d{2}$/);
    expect(versions.map(([v]) => v)).toContain((JSON.parse(read('package.json')) as { version: string }).version);
    const kinds = [...changelog.matchAll(/^### (.+)$/gm)].map((m) => m[1]!);
    expect(kinds.filter((k) => !['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'].includes(k))).toEqual([]);
  });
});

describe('no document speaks of the machine the work was done on', () => {
  test('no VM, CPU model, core count or load average in the docs', () => {
    const MACHINE = /\b(?:VM|vCPU|EPYC|Xeon|load average|this machine|\d+ cores?)\b/i;
    expect(ownDocs.filter((doc) => MACHINE.test(prose(read(doc))))).toEqual([]);
  });
});
