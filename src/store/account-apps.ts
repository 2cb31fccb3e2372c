import type Keyv from 'keyv';
import { z } from 'zod';
import type { SecretBox } from './secret-box';

const StoredAccountAppSchema = z.object({
  accountId: z.string(),
  sealedAppId: z.string(),
  clientId: z.string().optional(),
  name: z.string().optional(),
  savedAt: z.string(),
});

export interface AccountApp {
  accountId: string;
  appId: string;
  clientId?: string;
  name?: string;
  savedAt: string;
}

/** The AppID of each campaign account, encrypted at rest and bound to its account id. */
export class AccountAppsRepo {
  constructor(
    private readonly keyv: Keyv,
    private readonly box: SecretBox,
    private readonly onSecret?: (value: string) => void,
  ) {}

  async save(entry: Omit<AccountApp, 'savedAt'>): Promise<void> {
    const stored: z.infer<typeof StoredAccountAppSchema> = {
      accountId: entry.accountId,
      sealedAppId: this.box.seal(entry.appId, key(entry.accountId)),
      clientId: entry.clientId,
      name: entry.name,
      savedAt: new Date().toISOString(),
    };
    await this.keyv.set(key(entry.accountId), stored);
  }

  async get(accountId: string): Promise<AccountApp | undefined> {
    const raw = await this.keyv.get(key(accountId));
    if (raw === undefined) return undefined;
    const stored = StoredAccountAppSchema.parse(raw);
    const appId = this.box.open(stored.sealedAppId, key(accountId));
    this.onSecret?.(appId);
    return { accountId: stored.accountId, appId, clientId: stored.clientId, name: stored.name, savedAt: stored.savedAt };
  }
}

const key = (accountId: string) => `account-app:${accountId}`;
