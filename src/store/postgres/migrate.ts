import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ClientConfig } from 'pg';
import { BrokenMigrationsError, StoreVersionError } from '../errors';
import { IDENTITY_RECORD, newIdentityText } from '../identity';
import { postgresWhere } from './inspect';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Where the numbered SQL files are: beside this module (the build copies them into dist/). */
const MIGRATIONS_DIR = path.join(__dirname, 'migrations');

const FILE = /^(\d{3})_([a-z0-9_]+)\.sql$/;

/** The migrations kept in the repository (`001_initial.sql`, …), in order; their numbers run 1, 2, 3 without a gap. */
export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const migrations = readdirSync(dir)
    .flatMap((file) => {
      const match = FILE.exec(file);
      return match ? [{ version: Number(match[1]), name: match[2]!, sql: readFileSync(path.join(dir, file), 'utf8') }] : [];
    })
    .sort((a, b) => a.version - b.version);
  migrations.forEach((m, i) => {
    if (m.version !== i + 1)
      throw new BrokenMigrationsError(`The Postgres migrations in ${dir} skip or repeat a number at ${m.name} (${m.version})`);
  });
  if (migrations.length === 0) throw new BrokenMigrationsError(`No Postgres migrations in ${dir}`);
  return migrations;
}

/** How long the migrations may take, the wait for another instance's included (far past the store's time limit of one query). */
const MIGRATION_TIMEOUT_MS = 5 * 60_000;

/**
 * Brings the schema up to the last migration, on a connection of its own, in one transaction under
 * a lock of the database (several instances starting at once: one migrates, the others wait, then
 * find nothing left to do). Each migration applied is a row of `<schema>.schema_migrations`; the
 * store's identity is written once, with its first migrations. A schema at a version newer than the
 * last known is left as it is (StoreVersionError). Answers the versions applied.
 */
export async function migrate(config: ClientConfig, schema: string, migrations: readonly Migration[]): Promise<number[]> {
  const { Client, escapeIdentifier } = require('pg') as typeof import('pg');
  const client = new Client({ ...config, statement_timeout: MIGRATION_TIMEOUT_MS, query_timeout: MIGRATION_TIMEOUT_MS });
  client.on('error', () => undefined);
  await client.connect();
  const s = escapeIdentifier(schema);
  const known = migrations.length;
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`pix-ops migrations ${schema}`]);
    const [table] = (await client.query('SELECT to_regclass($1) AS found', [`${s}.schema_migrations`])).rows as Array<{ found: unknown }>;
    let applied = new Set<number>();
    if (table?.found) {
      const rows = (await client.query(`SELECT version FROM ${s}.schema_migrations`)).rows as Array<{ version: number }>;
      applied = new Set(rows.map((r) => Number(r.version)));
      const newest = Math.max(0, ...applied);
      if (newest > known) throw new StoreVersionError(postgresWhere(schema), newest, known);
    } else {
      // Made only when missing: CREATE SCHEMA IF NOT EXISTS would still need the right to create
      // schemas, which a user given a schema made by its DBA may not have.
      const [exists] = (await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).rows;
      if (!exists) await client.query(`CREATE SCHEMA ${s}`);
      await client.query(
        `CREATE TABLE ${s}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
    }
    const done: number[] = [];
    for (const m of migrations) {
      if (applied.has(m.version)) continue;
      await client.query(`SET LOCAL search_path TO ${s}`);
      await client.query(m.sql);
      await client.query(`INSERT INTO ${s}.schema_migrations (version, name) VALUES ($1, $2)`, [m.version, m.name]);
      done.push(m.version);
    }
    // Made with the store, kept for good (a copy asks it what the store is).
    await client.query(`INSERT INTO ${s}.records (kind, key, value) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
      IDENTITY_RECORD.kind,
      IDENTITY_RECORD.key,
      newIdentityText(),
    ]);
    await client.query('COMMIT');
    return done;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}
