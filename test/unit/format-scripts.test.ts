import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// `npm run format` and `npm run lint` as CONTRIBUTING.md shows them: the repository's own scripts and
// Biome configuration, run in a scratch project (never on the tree itself, which format would rewrite).

const ROOT = path.resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const biome = JSON.parse(readFileSync(path.join(ROOT, 'biome.json'), 'utf8')) as Record<string, unknown>;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-format-'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(
    path.join(dir, 'package.json'),
    `${JSON.stringify({ name: 'scratch', private: true, scripts: { format: pkg.scripts.format, lint: pkg.scripts.lint } }, null, 2)}\n`,
  );
  // The scratch project is no git repository: Biome's VCS integration (the .gitignore) is left out.
  const { vcs: _vcs, ...config } = biome;
  writeFileSync(path.join(dir, 'biome.json'), `${JSON.stringify(config, null, 2)}\n`);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (script: 'format' | 'lint') => spawnSync('npm', ['run', '--silent', script], { cwd: dir, encoding: 'utf8' });

describe('npm run format and npm run lint', () => {
  test('npm run format mends what npm run lint refuses, and lint passes after it', () => {
    const file = path.join(dir, 'money.ts');
    writeFileSync(file, 'export const cents = {amount:123456, currency:"BRL"}\n');
    expect(run('lint').status).not.toBe(0);
    const formatted = run('format');
    expect(formatted.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe("export const cents = { amount: 123456, currency: 'BRL' };\n");
    const linted = run('lint');
    expect(linted.stderr + linted.stdout).not.toMatch(/error|warn/i);
    expect(linted.status).toBe(0);
  });
});
