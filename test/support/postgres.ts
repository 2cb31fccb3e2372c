import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { schemaOf } from '../../src/store/postgres/db';

/** The PostgreSQL server every machine of this project has (trust auth on 127.0.0.1; `.ci/run` sees to it). */
export const PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** A namespace (a schema) of one's own for a test on the shared database; `schemaOf` gives the schema's name. */
export function pgNamespace(label: string): string {
  return `pixops-test-${label}-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** One statement on a connection of its own (as another client of the database would: a DBA, an attacker). */
export async function pgQuery<R = Record<string, unknown>>(sql: string, params: unknown[] = [], url = PG_URL): Promise<R[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as R[];
  } finally {
    await client.end();
  }
}

/** Drops a test's schema and everything in it. */
export async function dropSchema(namespace: string): Promise<void> {
  await pgQuery(`DROP SCHEMA IF EXISTS "${schemaOf(namespace)}" CASCADE`);
}
