import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ENTRY_TABLE } from '../../commands';
import type { CommandRow } from '../../src/entry/table';
import { PERSONAS } from '../../src/playground/personas';
import { CONFIG_VARIABLES, wantsPlayground } from '../../src/runtime/config';

// The docs as a newcomer reads them in a fresh clone, each held to the code it describes: the README's
// command table to the entry table, docs/configuration.md to the configuration's schemas,
// docs/architecture.md's import rules to the imports, docs/operations.md's metrics to the registry.

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const readme = read('README.md');
const commands = ENTRY_TABLE.filter((r): r is CommandRow => r.kind === 'command');

/** The Pix interface as the service describes it: its names are the service's (`PIX_KEY` is a payment type), not ours. */
const INTERFACE_COPIES = [path.join('docs', 'pix-interface.md'), path.join('docs', 'pix-money-out.md')];

/** Every Markdown document of the repository (not what npm or the build makes). */
function markdownFiles(dir = ''): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'data', '.git'].includes(entry.name) ? [] : markdownFiles(file);
    return entry.name.endsWith('.md') ? [file] : [];
  });
}
const docs = markdownFiles();
const ownDocs = docs.filter((d) => !INTERFACE_COPIES.includes(d));

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

  test('nothing points outside the repository: the Pix interface is in docs/', () => {
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

  test('repeats no passage of docs/product.md (what the app does has one home) beyond the command table', () => {
    const words = (text: string) =>
      prose(text)
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .split(' ')
        .filter(Boolean);
    const product = words(read('docs/product.md'));
    const span = 10;
    const passages = new Set(product.slice(0, product.length - span + 1).map((_, i) => product.slice(i, i + span).join(' ')));
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

describe('docs/product.md, for a person deciding whether to adopt the app', () => {
  const product = prose(read('docs/product.md'));

  test('names the Pix service it works with, and links its developer site', () => {
    expect(product).toMatch(/\bWoovi\b/);
    expect(product).toContain('https://developers.woovi.com');
  });

  test('says nothing to whoever builds the app: no duty, no API path, no Block Kit id', () => {
    const BUILDERS = [/\bmust\b/i, /\bcontract\b/i, /\/api\/v1\//, /\b(?:block|action|callback)_id\b/, /\bz\.infer\b|\bzod\b/];
    expect(BUILDERS.filter((words) => words.test(product)).map(String)).toEqual([]);
  });
});

const configuration = read('docs/configuration.md');

describe('docs/configuration.md, against the configuration schemas', () => {
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

describe('.env.example, after docs/configuration.md', () => {
  /** Each variable of docs/configuration.md's tables: its section's anchor, and its default when it is a value. */
  const documented = configuration.split(/\n(?=## )/).flatMap((part) => {
    const heading = /^## (.+)$/m.exec(part)?.[1];
    if (!heading) return [];
    const rows = part.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| -'));
    return rows.flatMap((row) => {
      const [names, defaultCell] = row.split(' | ') as [string, string];
      // A default that is a value: the cell is that value (`3000`), or names it after a word (Slack's own, `…`).
      const value = /^(?:[^`|]*, )?`([^`]+)`(?:,|$)/.exec(defaultCell.trim())?.[1];
      return [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => ({ name: m[1]!, section: heading, value }));
    });
  });
  // `npm run sandbox` reads the environment alone, never .env: its variables have no place in the file.
  const forEnvFile = documented.filter((v) => v.section !== 'Sandbox');
  const lines = read('.env.example').split('\n');
  const entries = lines.flatMap((line, i) => {
    const m = /^(# ?)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    return m ? [{ name: m[2]!, commented: m[1] !== undefined, value: m[3]!, line: i }] : [];
  });

  test('reads the documented variables (the check below is not made against nothing)', () => {
    expect(forEnvFile.length).toBeGreaterThan(30);
    expect(forEnvFile.find((v) => v.name === 'POLL_SCHEDULE')?.value).toBe('* * * * *');
    expect(forEnvFile.find((v) => v.name === 'SLACK_API_URL')?.value).toBe('https://slack.com/api/');
    expect(forEnvFile.find((v) => v.name === 'STORE_SECRET')?.value).toBeUndefined();
  });

  test('lists the same variables, each once', () => {
    expect(entries.map((e) => e.name).sort()).toEqual(forEnvFile.map((v) => v.name).sort());
  });

  test('shows each default as docs/configuration.md gives it, on a commented line', () => {
    const differ = forEnvFile.flatMap((v) => {
      const entry = entries.find((e) => e.name === v.name);
      if (v.value === undefined || !entry) return [];
      return entry.commented && entry.value === v.value ? [] : [`${v.name}: ${entry.value} (docs: ${v.value})`];
    });
    expect(differ).toEqual([]);
  });

  test('puts each variable under a comment that points at its section of docs/configuration.md', () => {
    const anchors = anchorsOf(configuration);
    const misplaced = entries.flatMap((e) => {
      const pointer = lines
        .slice(0, e.line)
        .reverse()
        .map((line) => /^#.*docs\/configuration\.md#([a-z0-9-]+)/.exec(line)?.[1])
        .find((anchor) => anchor !== undefined);
      const section = forEnvFile.find((v) => v.name === e.name)?.section;
      return section !== undefined && pointer === anchorOf(section) && anchors.has(pointer) ? [] : [`${e.name} (after #${pointer})`];
    });
    expect(misplaced).toEqual([]);
  });
});

describe('docs/playground.md, the one home of the personas and of when the playground opens', () => {
  const playground = read('docs/playground.md');

  test("its persona table is the playground's people: each name and Slack ID, and no other", () => {
    const rows = section(playground, 'Personas')
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| -') && !line.startsWith('| persona'))
      .map((line) => line.split('|').map((cell) => cell.trim()));
    const shown = rows.map(([, persona, id]) => `${persona!.replace(/ \(.*\)$/, '')} ${id!.replace(/`/g, '')}`);
    expect(shown).toEqual(PERSONAS.map((p) => `${p.name} ${p.id}`));
  });

  test('"When it opens" names exactly the variables that, set alone, keep the playground closed', () => {
    const named = [...section(playground, 'When it opens: never in production').matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!);
    const closing = VARIABLES.filter((v) => !wantsPlayground({ [v]: 'set' }));
    expect(closing).toEqual(expect.arrayContaining(['SLACK_BOT_TOKEN', 'PIX_API_URL', 'STORE_URL']));
    expect([...new Set(named)].sort()).toEqual(closing.sort());
    // A sqlite STORE_URL is the playground's own kind; any other is a deployment's.
    expect(wantsPlayground({ STORE_URL: 'sqlite://data/x.sqlite' })).toBe(true);
    expect(wantsPlayground({ STORE_URL: 'postgres://db/pixops' })).toBe(false);
  });

  test('the README does not copy the persona table: it links it', () => {
    expect(PERSONAS.filter((p) => readme.includes(p.name)).map((p) => p.name)).toEqual([]);
  });
});

describe('the Node version, as package.json requires it', () => {
  test('every "Node X.Y or newer" of the docs is the engines field', () => {
    const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    expect(engines).toMatch(/^>=\d+\.\d+$/);
    const said = ownDocs.flatMap((doc) => [...read(doc).matchAll(/\bNode (\d+\.\d+) or newer/g)].map((m) => `${doc}: ${m[1]}`));
    expect(said.length).toBeGreaterThan(0);
    expect(said.filter((s) => !s.endsWith(`: ${engines.slice(2)}`))).toEqual([]);
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

  /** Every import of the files under these folders: relative ones resolved to a path from the root, packages by name. */
  const importsOf = (folders: string[]): Import[] =>
    folders.flatMap(sources).flatMap((from) =>
      [...read(from).matchAll(/^(import type|import|export)\b[^;]*?\bfrom '([^']+)'|^import '([^']+)'|\brequire\('([^']+)'\)/gms)].map(
        (m) => {
          const spec = (m[2] ?? m[3] ?? m[4])!;
          const to = spec.startsWith('.') ? path.normalize(path.join(path.dirname(from), spec)) : spec;
          return { from, to, typeOnly: m[1] === 'import type' };
        },
      ),
    );
  /** The app's code. */
  const imports = importsOf(['src', 'commands', 'views']);
  const within = (file: string, folder: string) => file === folder || file.startsWith(`${folder}/`);
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
    const allowed = (to: string) => ['views', 'src/domain', 'src/i18n', 'src/pix'].some((folder) => within(to, folder)) || to === 'zod';
    expect(imports.filter((i) => within(i.from, 'views') && !i.typeOnly && !allowed(i.to)).map(show)).toEqual([]);
  });

  test('src/pix/ knows nothing of Slack', () => {
    const slackish = (to: string) =>
      to.startsWith('@slack/') || ['src/slack', 'src/entry', 'commands', 'views'].some((folder) => within(to, folder));
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

  /** What loading or measuring a library as it is published never needs. */
  const TRICKS: Array<[RegExp, string]> = [
    [
      /(?:\bfrom\s+|\brequire(?:\.resolve)?\(\s*|\bimport\(\s*)['"`](?![./])[^'"`]*\/dist(?:\/[^'"`]*)?['"`]/,
      'a path into a package build',
    ],
    [/\brequire\.cache\b/, 'require.cache'],
    [/\bsetFlagsFromString\b|--expose[-_]gc/, 'a V8 flag set at run time'],
    [/\.prototype\.[\w$]+\s*=(?!=)|\bObject\.setPrototypeOf\(/, 'a prototype patched'],
  ];

  test('libraries as they are published: no path into a package build, no require.cache, no run-time V8 flag, no patch', () => {
    // Bolt's listener methods refused on the app's own App instance: the one property defined.
    const defines = /\b(?:Object|Reflect)\.define(?:Property|Properties)\(/;
    const found = ['src', 'commands', 'views'].flatMap(sources).flatMap((file) => {
      const text = read(file);
      const tricks = TRICKS.filter(([pattern]) => pattern.test(text)).map(([, what]) => `${file}: ${what}`);
      return defines.test(text) && file !== 'src/slack/bolt-app.ts' ? [...tricks, `${file}: a property defined`] : tricks;
    });
    expect(found).toEqual([]);
  });

  test('the benchmarks measure from outside: no library patched, no require.cache, no path into a package build', () => {
    // Their `global.gc` comes from node's --expose-gc on their command line (package.json), not set at run time.
    const found = sources('bench').flatMap((file) =>
      TRICKS.filter(([pattern, what]) => what !== 'a V8 flag set at run time' && pattern.test(read(file))).map(
        ([, what]) => `${file}: ${what}`,
      ),
    );
    expect(found).toEqual([]);
  });

  test('the router meets the features only in src/deps.ts: src/entry/ imports no feature', () => {
    const features = ['commands', 'src/approvals', 'src/limit-requests', 'src/pix-events', 'src/digest', 'src/home'];
    expect(imports.filter((i) => within(i.from, 'src/entry') && features.some((f) => within(i.to, f))).map(show)).toEqual([]);
    expect(imports.some((i) => within(i.from, 'src/entry') && i.to === 'src/deps')).toBe(true);
  });

  const architecture = read('docs/architecture.md');
  /** The code's parts: each folder and file at the top of src/, and the folders beside it. */
  const parts = [
    ...readdirSync(path.join(ROOT, 'src'), { withFileTypes: true }).map((e) => (e.isDirectory() ? `src/${e.name}/` : `src/${e.name}`)),
    'commands/',
    'views/',
    'bench/',
    'test/',
  ];

  describe('its diagram', () => {
    const diagram = /^```mermaid\n([\s\S]*?)^```$/m.exec(architecture)?.[1] ?? '';
    /** Node id → the part it draws (the first line of its label), for the nodes that draw a part of the code. */
    const nodes = new Map(
      [...diagram.matchAll(/\b(\w+)\["([^"<]+)/g)].map((m) => [m[1]!, m[2]!.trim()] as const).filter(([, label]) => parts.includes(label)),
    );
    const lines = diagram.split('\n').map((line) => line.replace(/\["[^"]*"\]/g, '').trim());
    /** A subgraph's id → the nodes drawn in it: an arrow from (or to) a subgraph is an arrow from each of them. */
    const groups = new Map<string, Set<string>>();
    let group: Set<string> | undefined;
    for (const line of lines) {
      const opened = /^subgraph (\w+)/.exec(line)?.[1];
      if (opened) {
        group = new Set();
        groups.set(opened, group);
      } else if (line === 'end') group = undefined;
      else if (group) for (const id of line.split(/-->|&/)) group.add(id.trim());
    }
    const each = (id: string) => [...(groups.get(id) ?? [id])];
    /** Every arrow `a --> b` (and `a & b --> c & d`, each pair), declarations left out. */
    const arrows = lines
      .filter((line) => line.includes('-->'))
      .flatMap((line) => {
        const sides = line.split('-->').map((side) => side.split('&').flatMap((id) => each(id.trim())));
        return sides.slice(1).flatMap((to, i) => sides[i]!.flatMap((a) => to.map((b) => [a, b] as const)));
      });
    const allImports = importsOf(['src', 'commands', 'views', 'bench', 'test']);
    /** Whether a file (or an import's target, without its extension) belongs to a part. */
    const inPart = (file: string, part: string) =>
      part.endsWith('/') ? within(file, part.slice(0, -1)) : file.replace(/\.ts$/, '') === part.replace(/\.ts$/, '');

    test('draws parts of the code, and arrows between them (the checks below are not made against nothing)', () => {
      expect(nodes.size).toBeGreaterThan(20);
      expect(arrows.length).toBeGreaterThan(40);
    });

    test('shows every folder of the code, and every file at the top of src/', () => {
      const drawn = new Set(nodes.values());
      expect(parts.filter((part) => !drawn.has(part))).toEqual([]);
    });

    test('each arrow is an import of the code, in its direction', () => {
      const unknown = arrows.filter(([a, b]) => !nodes.has(a) || !nodes.has(b)).map(([a, b]) => `${a} → ${b}: not a part of the code`);
      const false_ = arrows
        .filter(([a, b]) => nodes.has(a) && nodes.has(b))
        .filter(([a, b]) => !allImports.some((i) => inPart(i.from, nodes.get(a)!) && inPart(i.to, nodes.get(b)!)))
        .map(([a, b]) => `${nodes.get(a)} → ${nodes.get(b)}: no such import`);
      expect([...unknown, ...false_]).toEqual([]);
    });

    test('every part has an arrow, and the entry table points at the router, which points at Deps', () => {
      const linked = new Set(arrows.flat());
      expect([...nodes].filter(([id]) => !linked.has(id)).map(([, part]) => part)).toEqual([]);
      const drawnArrows = arrows.map(([a, b]) => `${nodes.get(a)} → ${nodes.get(b)}`);
      expect(drawnArrows).toEqual(
        expect.arrayContaining(['commands/ → src/entry/', 'src/entry/ → src/deps.ts', 'commands/ → src/deps.ts']),
      );
    });
  });

  test('names every part of the code in its table, and every dependency of package.json', () => {
    const layout = firstCells(section(architecture, 'Where the code is')).join(' ');
    expect(parts.filter((part) => !layout.includes(`\`${part}\``))).toEqual([]);
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
