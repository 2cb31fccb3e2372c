import type KeyvSqlite from '@keyv/sqlite';

/** One statement on one connection of the sqlite file. */
export type Query = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

export const queryOf =
  (connection: KeyvSqlite): Query =>
  (sql, params) =>
    connection.query(sql, params) as Promise<Array<Record<string, unknown>>>;

/**
 * Tables made at first use, not at start: each statement is a commit, which the first answers would
 * wait behind (start-up time). A failure is tried again at the next use.
 */
export function madeAtFirstUse(query: Query, statements: readonly string[]): () => Promise<void> {
  let made: Promise<void> | undefined;
  return () => {
    made ??= (async () => {
      for (const sql of statements) await query(sql);
    })().catch((err: unknown) => {
      made = undefined;
      throw err;
    });
    return made;
  };
}
