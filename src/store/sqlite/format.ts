import { StoreVersionError } from '../errors';
import { IDENTITY_RECORD, newIdentityText } from '../identity';
import type { Query } from './query';

/** The tables of one sorted index (its score in the column `due`, as the first of them named it). */
export const sortedIndexTables = (table: string) => [
  `CREATE TABLE IF NOT EXISTS ${table} (namespace TEXT NOT NULL, id TEXT NOT NULL, due INTEGER NOT NULL, PRIMARY KEY (namespace, id))`,
  `CREATE INDEX IF NOT EXISTS ${table}_due ON ${table} (namespace, due)`,
];

/**
 * The file as 0.1.0 made it (format version 1): every namespace in the same tables. Never edited once
 * released: a change of format is a step of UPGRADES (as a Postgres change is a new migration).
 */
const VERSION_1 = [
  // Records through keyv, one namespace per kind of record (the table as @keyv/sqlite makes it).
  'CREATE TABLE IF NOT EXISTS keyv(key VARCHAR(255) PRIMARY KEY, value TEXT )',
  ...sortedIndexTables('tracked_polled'),
  ...sortedIndexTables('filing_intents_index'),
  ...sortedIndexTables('approvals_due'),
  `CREATE TABLE IF NOT EXISTS audit_trail (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    namespace TEXT NOT NULL,
    time TEXT NOT NULL,
    user_id TEXT NOT NULL,
    role TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT,
    pix_method TEXT,
    pix_path TEXT,
    pix_status INTEGER,
    maker TEXT,
    checker TEXT,
    outcome TEXT NOT NULL,
    detail TEXT
  )`,
  'CREATE INDEX IF NOT EXISTS audit_trail_time ON audit_trail (namespace, time)',
  // Append, never update: the database itself refuses to change or remove an entry.
  `CREATE TRIGGER IF NOT EXISTS audit_trail_no_update BEFORE UPDATE ON audit_trail BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END`,
  `CREATE TRIGGER IF NOT EXISTS audit_trail_no_delete BEFORE DELETE ON audit_trail BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END`,
  'CREATE TABLE IF NOT EXISTS pix_events (ns TEXT NOT NULL, hash TEXT NOT NULL, received_at TEXT NOT NULL, posted INTEGER NOT NULL DEFAULT 0, json TEXT NOT NULL, PRIMARY KEY (ns, hash))',
  'CREATE INDEX IF NOT EXISTS pix_events_pending ON pix_events (ns, posted, received_at)',
  'CREATE TABLE IF NOT EXISTS pix_disputes (ns TEXT NOT NULL, e2e TEXT NOT NULL, open INTEGER NOT NULL, json TEXT NOT NULL, PRIMARY KEY (ns, e2e))',
  'CREATE INDEX IF NOT EXISTS pix_disputes_open ON pix_disputes (ns, open)',
  'CREATE TABLE IF NOT EXISTS records (namespace TEXT NOT NULL, kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, expires INTEGER, PRIMARY KEY (namespace, kind, key))',
];

/**
 * How a file is brought from one version to the next: `UPGRADES[0]` takes a 0.1.0 file (version 1) to
 * version 2, and so on. Each runs in the transaction that records the version it reaches, over every
 * namespace of the file. A change of the stored format adds its step here, and its case to
 * test/store/upgrade-0.1.0.test.ts.
 */
export type SqliteUpgrade = (query: Query) => Promise<void>;

const UPGRADES: readonly SqliteUpgrade[] = [
  // 2: Pix events are kept for as long as a replay of one could be accepted, until their keptUntil (none:
  // for good, as the rows 0.1.0 wrote: nothing tells which had a time of their own). What the pruning
  // looks for gets its index; a posted event keeps what tells a repeat of it, not its summary (kept for
  // good now, it would keep the customer's name with it), as PostgreSQL's migration 3 does.
  async (query) => {
    await query(`CREATE INDEX IF NOT EXISTS pix_events_kept ON pix_events (ns, json_extract(json, '$.keptUntil')) WHERE posted = 1`);
    await query(`UPDATE pix_events SET json = json_remove(json, '$.dispute', '$.other') WHERE posted = 1`);
  },
];

/** The format version this app writes (the file's `PRAGMA user_version`; 0: no store was ever made in it). */
export const SQLITE_FORMAT = 1 + UPGRADES.length;

/** Names the store in a message (never the path: start-up names STORE_URL). */
export const SQLITE_WHERE = 'the store in the sqlite file';

/**
 * Makes the store in the file, or brings it to this app's version, in one transaction on `query`'s
 * connection: a new file gets the 0.1.0 tables and the upgrades since; a file at a newer version is
 * refused (StoreVersionError), unchanged. A namespace opened for the first time gets its identity. A
 * store as this app writes it is only read (no commit: a restart does not wait on the disk).
 */
export async function makeOrUpgrade(query: Query, namespace: string, upgrades = UPGRADES): Promise<void> {
  const known = 1 + upgrades.length;
  const version = async () => Number((await query('PRAGMA user_version'))[0]?.user_version ?? 0);
  const identity = [namespace, IDENTITY_RECORD.kind, IDENTITY_RECORD.key];
  const found = await version();
  if (found > known) throw new StoreVersionError(SQLITE_WHERE, found, known);
  if (found === known && (await query('SELECT 1 FROM records WHERE namespace = ? AND kind = ? AND key = ?', identity)).length > 0) return;
  await query('BEGIN IMMEDIATE');
  try {
    // Read again in the transaction: another process may have just done it.
    const from = await version();
    if (from > known) throw new StoreVersionError(SQLITE_WHERE, from, known);
    if (from === 0) for (const sql of VERSION_1) await query(sql);
    for (let v = Math.max(from, 1); v < known; v++) await upgrades[v - 1]!(query);
    if (from !== known) await query(`PRAGMA user_version = ${known}`);
    await query('INSERT INTO records (namespace, kind, key, value) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING', [
      ...identity,
      newIdentityText(),
    ]);
    await query('COMMIT');
  } catch (err) {
    await query('ROLLBACK').catch(() => undefined);
    throw err;
  }
}
