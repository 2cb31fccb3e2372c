import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openStore } from '../../src/store';
import { schemaOf } from '../../src/store/postgres/db';
import { auditEntry, minute } from '../store/contract/audit-trail';
import { trackedRequest } from '../store/contract/tracked-requests';
import { assertFreshBuild } from '../support/dist-build';
import { dropSchema, PG_URL, pgNamespace, pgQuery } from '../support/postgres';
import { deleteKeys, keysOf, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';

const COPY = path.resolve(__dirname, '../../dist/src/store/copy-cli.js');
const SECRET = 'c'.repeat(40);
const ENTRIES = 5;
/** The same servers, written another way. */
const PG_BY_NAME = PG_URL.replace('127.0.0.1', 'localhost');
const REDIS_BY_NAME = SHARED_REDIS_URL.replace('127.0.0.1', 'localhost');

/** `npm run store:copy -- …` as an operator runs it: its exit code and what it printed. */
async function copy(args: string[], env: Record<string, string> = { STORE_SECRET: SECRET }) {
  return promisify(execFile)(process.execPath, [COPY, ...args], { env: { PATH: process.env.PATH ?? '', ...env } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (err: { code: number; stdout: string; stderr: string }) => ({ code: err.code, stdout: err.stdout, stderr: err.stderr }),
  );
}

/** A store with a request in review and a short audit trail. */
async function fill(url: string, namespace?: string): Promise<void> {
  const store = await openStore({ url, namespace, secret: SECRET });
  try {
    await store.trackedRequests.track(trackedRequest('r1'));
    for (let i = 0; i < ENTRIES; i++) await store.audit.append(auditEntry(i, minute(i)));
  } finally {
    await store.close();
  }
}

const auditCount = async (namespace: string) =>
  Number((await pgQuery<{ n: string }>(`SELECT count(*) AS n FROM "${schemaOf(namespace)}".audit_log`))[0]!.n);
const schemaExists = async (namespace: string) =>
  (await pgQuery('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schemaOf(namespace)])).length === 1;

/**
 * What "the same store" is, the copy asks the stores themselves: however a URL or a namespace is
 * written, the audit trail is never doubled, and a source that holds no store is refused with
 * nothing made there.
 */
describe('store:copy asks the stores what they are', () => {
  let dir: string;
  const schemas: string[] = [];
  const prefixes: string[] = [];
  beforeAll(() => assertFreshBuild());
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-copy-'));
  });
  afterEach(async () => {
    rmSync(dir, { recursive: true, force: true });
    for (const s of schemas.splice(0)) await dropSchema(s);
    for (const p of prefixes.splice(0)) await deleteKeys(SHARED_REDIS_URL, p);
  });
  const pg = (label: string) => {
    const namespace = pgNamespace(label);
    schemas.push(namespace);
    return namespace;
  };

  test('x-a onto x_a on one Postgres (one schema) is refused: the trail is not doubled', async () => {
    const namespace = pg('onto');
    await fill(PG_URL, namespace);
    const run = await copy([PG_URL, PG_BY_NAME, '--from-namespace', namespace, '--to-namespace', namespace.replace(/-/g, '_')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('FROM_URL and TO_URL are the same store');
    expect(run.stderr).toContain(`test ${schemaOf(namespace)})`);
    expect(await auditCount(namespace)).toBe(ENTRIES);
  });

  test('run again with localhost for 127.0.0.1 and `_` for `-`: nothing copied twice (Postgres to sqlite)', async () => {
    const namespace = pg('again');
    await fill(PG_URL, namespace);
    const target = `sqlite://${path.join(dir, 'moved', 'pix-ops.sqlite')}`;
    const first = await copy([PG_URL, target, '--from-namespace', namespace]);
    expect(first.stdout).toContain(`audit trail: ${ENTRIES}`);
    const again = await copy([PG_BY_NAME, target, '--from-namespace', namespace.replace(/-/g, '_')]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('audit trail: 0');
    expect(again.stdout).toContain('tracked requests: 0 (1 already there)');
    const moved = await openStore({ url: target, secret: SECRET });
    try {
      expect(await moved.audit.page({ since: new Date(0), limit: 100 })).toHaveLength(ENTRIES);
    } finally {
      await moved.close();
    }
  });

  test('run again with localhost for 127.0.0.1: nothing copied twice (Redis to Postgres)', async () => {
    const from = testNamespace('copy-again');
    prefixes.push(from);
    const to = pg('again-redis');
    await fill(SHARED_REDIS_URL, from);
    const first = await copy([SHARED_REDIS_URL, PG_URL, '--from-namespace', from, '--to-namespace', to]);
    expect(first.stdout).toContain(`audit trail: ${ENTRIES}`);
    const again = await copy([REDIS_BY_NAME, PG_BY_NAME, '--from-namespace', from, '--to-namespace', to.replace(/-/g, '_')]);
    expect(again.stdout).toContain('audit trail: 0');
    expect(await auditCount(to)).toBe(ENTRIES);
  });

  test('a source that holds no store is refused, and nothing is made there: a mistyped namespace, an empty file, no file', async () => {
    const target = `sqlite://${path.join(dir, 'target', 'pix-ops.sqlite')}`;
    const mistyped = pg('mistyped');
    const onPostgres = await copy([PG_URL, target, '--from-namespace', mistyped]);
    expect(onPostgres.code).toBe(1);
    expect(onPostgres.stderr).toContain(`FROM_URL holds no store in the namespace ${mistyped}`);
    expect(onPostgres.stdout).toBe('');
    expect(await schemaExists(mistyped)).toBe(false);

    const onRedis = testNamespace('mistyped');
    expect((await copy([SHARED_REDIS_URL, target, '--from-namespace', onRedis])).stderr).toContain('FROM_URL holds no store');
    expect(await keysOf(SHARED_REDIS_URL, onRedis)).toEqual([]);

    mkdirSync(path.join(dir, 'empty'));
    const empty = path.join(dir, 'empty', 'pix-ops.sqlite');
    writeFileSync(empty, '');
    const fromEmpty = await copy([`sqlite://${empty}`, target]);
    expect(fromEmpty.stderr).toContain('FROM_URL holds no store');
    expect(readFileSync(empty)).toHaveLength(0);
    expect(readdirSync(path.join(dir, 'empty'))).toEqual(['pix-ops.sqlite']);

    const nowhere = path.join(dir, 'nowhere', 'pix-ops.sqlite');
    expect((await copy([`sqlite://${nowhere}`, target], {})).stderr).toContain('FROM_URL holds no store');
    expect(existsSync(path.join(dir, 'nowhere'))).toBe(false);
    // Nor anything on the target side.
    expect(existsSync(path.join(dir, 'target'))).toBe(false);
  });

  test('the source is left as it was, byte for byte (sqlite, its generated secret beside it)', async () => {
    const source = path.join(dir, 'source', 'pix-ops.sqlite');
    await openStore({ url: `sqlite://${source}` }).then(async (store) => {
      await store.trackedRequests.track(trackedRequest('r1'));
      await store.audit.append(auditEntry(1, minute(1)));
      await store.close();
    });
    const digest = () => createHash('sha256').update(readFileSync(source)).digest('hex');
    const before = { file: digest(), folder: readdirSync(path.dirname(source)).sort() };
    const run = await copy([`sqlite://${source}`, `sqlite://${path.join(dir, 'target', 'pix-ops.sqlite')}`], {});
    expect(run.stdout).toContain('audit trail: 1');
    expect({ file: digest(), folder: readdirSync(path.dirname(source)).sort() }).toEqual(before);
  });

  test('a namespace over 63 bytes is refused, naming the option: never cut to a schema another name has', async () => {
    const namespace = pg('long');
    const run = await copy([`sqlite://${path.join(dir, 'nowhere.sqlite')}`, PG_URL, '--to-namespace', `${namespace}-${'x'.repeat(63)}`]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--to-namespace: at most 63 characters');
    expect(await schemaExists(`${namespace}-${'x'.repeat(63)}`.slice(0, 63))).toBe(false);
  });
});
