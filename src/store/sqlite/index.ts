import path from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import type { KeyvStoreAdapter } from 'keyv';
import type { Backend } from '../backend';
import { MemoryClaims } from '../claims';
import { identityIn } from '../identity';
import { KeyvAccountApps } from '../keyv/account-apps';
import { KeyvApprovals } from '../keyv/approvals';
import { KeyvFilingIntents } from '../keyv/filing-intents';
import { openKeyv } from '../keyv/open';
import { KeyvTrackedRequests } from '../keyv/tracked-requests';
import { SqliteAuditBackend } from './audit-trail';
import { prepareSqliteFile } from './file';
import { SQLITE_WHERE } from './format';
import { SqlitePixEvents } from './pix-events';
import { queryOf } from './query';
import { SqliteRecords } from './records';
import { SqliteSortedIndex } from './sorted-index';

export { inspectSqliteFile } from './file';

/** Makes the file's folder and the store in the file, or brings it to this version: a wrong path is a StoreLocationError, before anything else. */
export function prepareFile(file: string, namespace: string): Promise<void> {
  return prepareSqliteFile(KeyvSqlite, file, namespace);
}

/**
 * One process on one file. Records through keyv (the `keyv` table, a namespace per kind of record);
 * the indexes, events, records and audit trail in tables of their own (format.ts); claims in this
 * process's memory. `existing`: a store opened as it is (a copy's source), every connection
 * read-only.
 */
export async function openSqliteBackend(options: {
  file: string;
  namespace: string;
  holder: string;
  existing?: boolean;
}): Promise<Backend> {
  const { file, namespace, holder } = options;
  const connections: KeyvSqlite[] = [];
  const connect = () => {
    const connection = new KeyvSqlite({ uri: `sqlite://${file}`, busyTimeout: 5_000, iterationLimit: 1_000 });
    connections.push(connection);
    return connection;
  };
  const main = connect();
  const keyv = openKeyv(main as KeyvStoreAdapter, namespace);
  const intents = openKeyv(connect() as KeyvStoreAdapter, `${namespace}-intents`);
  const indexes = connect();
  // A connection of its own: appends never wait behind the app's reads and writes.
  const audit = connect();
  if (options.existing) await Promise.all(connections.map((c) => c.query('PRAGMA query_only = ON')));
  // The events and records on the main connection: a second one would wait on the file's lock
  // (busy-timeout sleeps) whenever the other writes, and the webhook receiver's answer waits on its insert.
  const mainQuery = queryOf(main);
  const records = new SqliteRecords(mainQuery, namespace);
  return {
    kind: 'sqlite',
    shared: false,
    timeoutMs: undefined,
    claims: new MemoryClaims(`${path.resolve(file)}\n${namespace}`, holder),
    accountApps: new KeyvAccountApps(keyv),
    trackedRequests: new KeyvTrackedRequests(keyv, new SqliteSortedIndex(queryOf(indexes), namespace, 'tracked_polled')),
    filingIntents: new KeyvFilingIntents(intents, new SqliteSortedIndex(queryOf(indexes), namespace, 'filing_intents_index')),
    approvals: new KeyvApprovals(keyv, new SqliteSortedIndex(queryOf(indexes), namespace, 'approvals_due')),
    audit: new SqliteAuditBackend(queryOf(audit), namespace),
    pixEvents: new SqlitePixEvents(mainQuery, namespace),
    records,
    rateWindow: undefined,
    identity: () => identityIn(records, SQLITE_WHERE),
    ping: () => keyv.get('__ping__'),
    async close() {
      await Promise.all([keyv.disconnect(), intents.disconnect(), indexes.disconnect(), audit.disconnect()]);
    },
  };
}
