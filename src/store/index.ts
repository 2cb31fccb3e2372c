import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Keyv from 'keyv';
import KeyvSqlite from '@keyv/sqlite';
import KeyvRedis from '@keyv/redis';
import { AccountAppsRepo } from './account-apps';
import { TrackedRequestsRepo } from './tracked-requests';
import { SecretBox } from './secret-box';
import { resolveStoreSecret, sqlitePathOf } from './store-secret';

export interface Store {
  accountApps: AccountAppsRepo;
  trackedRequests: TrackedRequestsRepo;
  /** True when a round trip to the backing store works. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface StoreOptions {
  url: string;
  secret?: string;
  /** Prefix of every key: lets several deployments (or test runs) share one Redis. */
  namespace?: string;
  /** Called with every secret the store reveals, so the logger can keep it out of the logs. */
  onSecret?: (value: string) => void;
}

export async function openStore(options: StoreOptions): Promise<Store> {
  const box = new SecretBox(resolveStoreSecret(options));
  const namespace = options.namespace ?? 'pix-ops';
  const keyv = openKeyv(options.url, namespace);
  const pollSet = openKeyv(options.url, `${namespace}-poll`);
  return {
    accountApps: new AccountAppsRepo(keyv, box, options.onSecret),
    trackedRequests: new TrackedRequestsRepo(keyv, pollSet),
    async ping() {
      try {
        await keyv.get('__ping__');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await Promise.all([keyv.disconnect(), pollSet.disconnect()]);
    },
  };
}

function openKeyv(url: string, namespace: string): Keyv {
  const keyv = new Keyv({ store: createAdapter(url), namespace });
  keyv.on('error', () => {
    // Errors reach the caller through the rejected operation; this listener keeps them from
    // becoming unhandled 'error' events that would end the process.
  });
  return keyv;
}

function createAdapter(url: string) {
  const file = sqlitePathOf(url);
  if (file !== undefined) {
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    return new KeyvSqlite({ uri: `sqlite://${file}`, busyTimeout: 5_000, iterationLimit: 1_000 });
  }
  return new KeyvRedis(url);
}
