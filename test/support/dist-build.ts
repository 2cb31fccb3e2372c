import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
/** What tsconfig.build.json compiles into dist/ (the process-based suites run dist/src/main.js). */
const COMPILED = ['src', 'commands', 'views', 'bench'];
/** What the build copies into dist/ as it is (package.json's `build`): the Postgres migrations. */
const COPIED = ['src/store/postgres/migrations'];

function files(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return files(full, keep);
    return keep(e.name) ? [full] : [];
  });
}

/** The first source file whose compiled (or copied) file in dist/ is missing or older than it, if any (relative to the repository). */
export function staleSource(): string | undefined {
  const built = [
    ...COMPILED.flatMap((dir) => files(path.join(ROOT, dir), (name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))),
    ...COPIED.flatMap((dir) => files(path.join(ROOT, dir), () => true)),
  ];
  for (const source of built) {
    const rel = path.relative(ROOT, source);
    const out = path.join(ROOT, 'dist', rel.replace(/\.ts$/, '.js'));
    if (!existsSync(out) || statSync(out).mtimeMs < statSync(source).mtimeMs) return rel;
  }
  return undefined;
}

/** Refuses to run the compiled app when dist/ is older than its sources: a test would judge yesterday's code. */
export function assertFreshBuild(): void {
  const stale = staleSource();
  if (stale)
    throw new Error(`dist/ is stale (${stale} is newer than its build, or has none): run npm run build (npm test does it in pretest)`);
}

/** Rebuilds dist/ when it is stale (jest's globalSetup: once per run, before any worker starts). */
export function rebuildIfStale(): void {
  const stale = staleSource();
  if (!stale) return;
  process.stdout.write(`\ndist/ is stale (${stale}): rebuilding it (npm run build)\n`);
  try {
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json')], {
      cwd: ROOT,
      stdio: 'inherit',
    });
  } catch {
    // tsc writes its output despite type errors: the tests that do not run dist/ still run, and
    // those that do judge what was written (the errors are above, and `pretest` stops on them).
    process.stdout.write('npm run build reported type errors (see above)\n');
  }
  for (const dir of COPIED) cpSync(path.join(ROOT, dir), path.join(ROOT, 'dist', dir), { recursive: true });
}
