import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors';

/**
 * STORE_SECRET when given; for sqlite without one, a secret generated once beside the database
 * (mode 0600) and read back on every later start, so the stored AppIDs stay readable. `create: false`
 * (a store opened as it is): only read, never made.
 */
export function resolveStoreSecret(store: { url: string; secret?: string }, { create = true } = {}): string {
  if (store.secret) return store.secret;
  const sqlitePath = sqlitePathOf(store.url);
  if (!sqlitePath) throw new ConfigError('STORE_SECRET: required for this STORE_URL');
  const file = path.join(path.dirname(sqlitePath), 'store-secret');
  if (create) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    try {
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  } else if (!existsSync(file)) {
    throw new ConfigError(`STORE_SECRET: required (there is no secret generated beside the sqlite file, in ${file})`);
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) throw new ConfigError(`The store secret in ${file} is damaged; restore it or set STORE_SECRET`);
  return secret;
}

/** `postgres://…` or `postgresql://…`: the Postgres store (anything else but sqlite is Redis). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export function sqlitePathOf(url: string): string | undefined {
  return url.startsWith('sqlite://') ? url.slice('sqlite://'.length) : undefined;
}
