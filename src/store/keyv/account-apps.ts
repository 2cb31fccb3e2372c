import type Keyv from 'keyv';
import type { AccountAppsStorage, StoredAccountApp } from '../account-apps';
import { prefixedRecords } from './open';

/** Records under `account-app:<account>` in the main namespace, and `account-app-client:<client id>` → account. */
export class KeyvAccountApps implements AccountAppsStorage {
  constructor(private readonly records: Keyv) {}

  get(accountId: string): Promise<unknown> {
    return this.records.get(`account-app:${accountId}`);
  }

  async put(record: StoredAccountApp): Promise<void> {
    await this.records.set(`account-app:${record.accountId}`, record);
    if (record.clientId) await this.records.set(`account-app-client:${record.clientId}`, record.accountId);
  }

  async accountOf(clientId: string): Promise<string | undefined> {
    const accountId = await this.records.get(`account-app-client:${clientId}`);
    return typeof accountId === 'string' ? accountId : undefined;
  }

  async *all(): AsyncGenerator<unknown> {
    for await (const { value } of prefixedRecords(this.records, 'account-app:')) yield value;
  }
}
