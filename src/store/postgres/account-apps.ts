import type { AccountAppsStorage, StoredAccountApp } from '../account-apps';
import { pages, type Query } from './db';

/** A row per account: its record (the AppID sealed) and its application's client id, indexed to find the account by it. */
export class PostgresAccountApps implements AccountAppsStorage {
  constructor(
    private readonly query: Query,
    private readonly s: string,
  ) {}

  async get(accountId: string): Promise<unknown> {
    const [row] = await this.query(`SELECT record FROM ${this.s}.account_apps WHERE account_id = $1`, [accountId]);
    return row?.record;
  }

  async put(record: StoredAccountApp): Promise<void> {
    await this.query(
      `INSERT INTO ${this.s}.account_apps (account_id, client_id, record) VALUES ($1, $2, $3)
       ON CONFLICT (account_id) DO UPDATE SET client_id = excluded.client_id, record = excluded.record, saved_at = clock_timestamp()`,
      [record.accountId, record.clientId ?? null, JSON.stringify(record)],
    );
  }

  async accountOf(clientId: string): Promise<string | undefined> {
    const [row] = await this.query(
      `SELECT account_id FROM ${this.s}.account_apps WHERE client_id = $1 ORDER BY saved_at DESC, account_id LIMIT 1`,
      [clientId],
    );
    return row === undefined ? undefined : String(row.account_id);
  }

  async *all(): AsyncGenerator<unknown> {
    const sql = `SELECT account_id, record FROM ${this.s}.account_apps WHERE $1::text IS NULL OR account_id > $1 ORDER BY account_id LIMIT $2`;
    for await (const row of pages(this.query, sql, 'account_id')) yield row.record;
  }
}
