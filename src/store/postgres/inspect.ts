import type { ClientConfig } from 'pg';
import type { Inspection } from '../backend';
import { NoStoreError } from '../errors';
import { identityIn, type StoreIdentity } from '../identity';
import type { Query } from './db';

/** Names the schema's store in a message. */
export const postgresWhere = (schema: string) => `the database schema "${schema}"`;

/**
 * Where the schema is: the server's `system_identifier` (the same for a server and its replicas, and
 * never the same for two clusters), the database and the schema. Undefined when the server does not
 * tell its identifier (a user not allowed pg_control_system()): the id kept in the store still says.
 */
async function placeOf(query: Query, schema: string): Promise<string | undefined> {
  try {
    const [row] = await query('SELECT (SELECT system_identifier::text FROM pg_control_system()) AS system, current_database() AS database');
    return `postgres ${String(row?.system)} ${String(row?.database)} ${schema}`;
  } catch {
    return undefined;
  }
}

/** The schema's store: the id it keeps (NoStoreError when none), and where it is. */
export async function postgresIdentity(query: Query, s: string, schema: string): Promise<StoreIdentity> {
  const records = {
    get: async (kind: string, key: string) => {
      const [row] = await query(`SELECT value FROM ${s}.records WHERE kind = $1 AND key = $2`, [kind, key]);
      return row === undefined ? undefined : String(row.value);
    },
  };
  const { id } = await identityIn(records, postgresWhere(schema));
  const place = await placeOf(query, schema);
  return { id, ...(place === undefined ? {} : { place }) };
}

/** What the schema holds, read in a read-only session, creating nothing (not even the schema). */
export async function inspectPostgres(config: ClientConfig, schema: string, known: number): Promise<Inspection> {
  const { Client, escapeIdentifier } = require('pg') as typeof import('pg');
  const client = new Client({ ...config, options: '-c default_transaction_read_only=on' });
  client.on('error', () => undefined);
  await client.connect();
  const query: Query = async (sql, params) => (await client.query(sql, params as unknown[] | undefined)).rows;
  const s = escapeIdentifier(schema);
  const nothing: Inspection = { version: 0, known, where: postgresWhere(schema) };
  try {
    const [found] = await query('SELECT to_regclass($1) AS migrations, to_regclass($2) AS records', [
      `${s}.schema_migrations`,
      `${s}.records`,
    ]);
    if (!found?.migrations) return nothing;
    const [row] = await query(`SELECT coalesce(max(version), 0) AS version FROM ${s}.schema_migrations`);
    const version = Number(row?.version ?? 0);
    if (!found.records) return { ...nothing, version };
    try {
      return { ...nothing, version, identity: await postgresIdentity(query, s, schema) };
    } catch (err) {
      if (err instanceof NoStoreError) return { ...nothing, version };
      throw err;
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}
