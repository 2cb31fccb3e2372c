import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type KeyvSqlite from '@keyv/sqlite';
import { Database, OPEN_READONLY } from 'sqlite3';
import { PixOpsError } from '../../errors';
import type { Inspection } from '../backend';
import { StoreLocationError } from '../errors';
import { IDENTITY_RECORD, identityIdOf } from '../identity';
import { makeOrUpgrade, SQLITE_FORMAT, SQLITE_WHERE } from './format';
import { queryOf } from './query';

const REASONS: Record<string, string> = {
  EEXIST: 'a part of the path to the sqlite file is a file, not a folder',
  ENOTDIR: 'a part of the path to the sqlite file is a file, not a folder',
  EACCES: 'permission denied where the sqlite file goes',
  EPERM: 'permission denied where the sqlite file goes',
  EROFS: 'the sqlite file would be on a read-only file system',
  ENOSPC: 'no space left where the sqlite file goes',
  SQLITE_CANTOPEN: 'the sqlite file cannot be opened (is the path a folder?)',
  SQLITE_NOTADB: 'the file at that path is not a sqlite database',
  SQLITE_READONLY: 'the sqlite file is read-only',
};

function located(err: unknown): StoreLocationError {
  const code = (err as { code?: unknown } | undefined)?.code;
  const reason =
    typeof code === 'string' ? (REASONS[code] ?? `the sqlite file cannot be used (${code})`) : 'the sqlite file cannot be used';
  return new StoreLocationError(reason);
}

/**
 * Makes the sqlite file's folder, opens the file once, before the store's connections do (each of
 * those fails on its own, later, as an unhandled rejection, a crash with a stack trace and no word of
 * STORE_URL, when the path is wrong), and makes the store in it or brings it to this app's version
 * (format.ts).
 */
export async function prepareSqliteFile(Sqlite: typeof KeyvSqlite, file: string, namespace: string): Promise<void> {
  try {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  } catch (err) {
    throw located(err);
  }
  const probe = new Sqlite({ uri: `sqlite://${file}`, busyTimeout: 5_000 });
  // An EventEmitter: its 'error' event would throw without a listener; the query's rejection says it.
  probe.on('error', () => undefined);
  try {
    await makeOrUpgrade(queryOf(probe), namespace);
  } catch (err) {
    throw err instanceof PixOpsError ? err : located(err);
  } finally {
    await probe.disconnect().catch(() => undefined);
  }
}

/** What the file holds under `namespace`, read without creating or changing anything (the file itself included). */
export async function inspectSqliteFile(file: string, namespace: string): Promise<Inspection> {
  const nothing: Inspection = { version: 0, known: SQLITE_FORMAT, where: SQLITE_WHERE };
  if (!existsSync(file)) return nothing;
  const db = await new Promise<Database>((resolve, reject) => {
    const opened: Database = new Database(file, OPEN_READONLY, (err) => (err ? reject(located(err)) : resolve(opened)));
  });
  const all = (sql: string, params: unknown[] = []) =>
    new Promise<Array<Record<string, unknown>>>((resolve, reject) =>
      db.all(sql, params, (err, rows: Array<Record<string, unknown>>) => (err ? reject(located(err)) : resolve(rows))),
    );
  try {
    const version = Number((await all('PRAGMA user_version'))[0]?.user_version ?? 0);
    if (version === 0) return nothing;
    const [row] = await all('SELECT value FROM records WHERE namespace = ? AND kind = ? AND key = ?', [
      namespace,
      IDENTITY_RECORD.kind,
      IDENTITY_RECORD.key,
    ]);
    const id = identityIdOf(row === undefined ? undefined : String(row.value));
    return { ...nothing, version, ...(id === undefined ? {} : { identity: { id } }) };
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}
