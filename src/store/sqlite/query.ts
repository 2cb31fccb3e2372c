import type KeyvSqlite from '@keyv/sqlite';

/** One statement on one connection of the sqlite file. */
export type Query = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

export const queryOf =
  (connection: KeyvSqlite): Query =>
  (sql, params) =>
    connection.query(sql, params) as Promise<Array<Record<string, unknown>>>;
