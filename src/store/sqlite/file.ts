import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type KeyvSqlite from '@keyv/sqlite';
import { StoreLocationError } from '../errors';

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
 * Makes the sqlite file's folder and opens the file once, before the store's connections do: each
 * of those fails on its own, later, as an unhandled rejection (a crash with a stack trace and no
 * word of STORE_URL) when the path is wrong.
 */
export async function checkSqliteFile(Sqlite: typeof KeyvSqlite, file: string): Promise<void> {
  try {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  } catch (err) {
    throw located(err);
  }
  const probe = new Sqlite({ uri: `sqlite://${file}`, busyTimeout: 5_000 });
  // An EventEmitter: its 'error' event would throw without a listener; the query's rejection says it.
  probe.on('error', () => undefined);
  try {
    await probe.query('SELECT count(*) FROM sqlite_master');
  } catch (err) {
    throw located(err);
  }
  await probe.disconnect();
}
