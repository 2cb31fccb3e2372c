import { z } from 'zod';
import type { SecretBox } from './secret-box';

export const StoredAccountAppSchema = z.object({
  accountId: z.string(),
  sealedAppId: z.string(),
  clientId: z.string().optional(),
  name: z.string().optional(),
  savedAt: z.string(),
  staleSince: z.string().optional(),
  uncertainSince: z.string().optional(),
});
export type StoredAccountApp = z.infer<typeof StoredAccountAppSchema>;

export interface AccountApp {
  accountId: string;
  appId: string;
  clientId?: string;
  name?: string;
  savedAt: string;
  /** Set when a Pix call refused this AppID after its application's secret was rotated. */
  staleSince?: string;
  /**
   * For an account still waiting for its application: set (before it is sent) when a creation of its
   * application is under way or got no clear answer, so one may exist. Cleared by a clear refusal.
   */
  uncertainSince?: string;
}

/** What a backend keeps for the account AppIDs: each account's record, and which account an application's client id is. */
export interface AccountAppsStorage {
  get(accountId: string): Promise<unknown>;
  /** Writes the record and, when it names its application, the application's pointer to its account, together (else in that order). */
  put(record: StoredAccountApp): Promise<void>;
  /** The account last saved with the application `clientId`, if any. */
  accountOf(clientId: string): Promise<string | undefined>;
  /** Every record, in no particular order (what a copy of the store reads). */
  all(): AsyncGenerator<unknown>;
}

/** The AppID of each campaign account, encrypted at rest and bound to its account id. */
export class AccountAppsRepo {
  constructor(
    private readonly storage: AccountAppsStorage,
    private readonly box: SecretBox,
    private readonly onSecret?: (value: string) => void,
  ) {}

  /** Stores (or replaces: a new AppID is never stale) an account's AppID, or the pending mark of one. */
  async save(entry: Omit<AccountApp, 'savedAt' | 'staleSince'>): Promise<void> {
    await this.storage.put({
      accountId: entry.accountId,
      sealedAppId: this.box.seal(entry.appId, context(entry.accountId)),
      clientId: entry.clientId,
      name: entry.name,
      savedAt: new Date().toISOString(),
      ...(entry.uncertainSince ? { uncertainSince: entry.uncertainSince } : {}),
    });
  }

  /** The account whose stored AppID belongs to the application `clientId`, if the app stores one. */
  async findByClientId(clientId: string): Promise<AccountApp | undefined> {
    const accountId = await this.storage.accountOf(clientId);
    if (accountId === undefined) return undefined;
    const app = await this.get(accountId);
    return app?.clientId === clientId ? app : undefined;
  }

  /** Marks an AppID as refused since `at`: it is not used again until a new one is linked. */
  async markStale(accountId: string, at = new Date()): Promise<void> {
    const raw = await this.storage.get(accountId);
    if (raw === undefined) return;
    await this.storage.put({ ...StoredAccountAppSchema.parse(raw), staleSince: at.toISOString() });
  }

  async get(accountId: string): Promise<AccountApp | undefined> {
    const raw = await this.storage.get(accountId);
    if (raw === undefined) return undefined;
    const stored = StoredAccountAppSchema.parse(raw);
    const appId = this.box.open(stored.sealedAppId, context(accountId));
    this.onSecret?.(appId);
    return {
      accountId: stored.accountId,
      appId,
      clientId: stored.clientId,
      name: stored.name,
      savedAt: stored.savedAt,
      ...(stored.staleSince ? { staleSince: stored.staleSince } : {}),
      ...(stored.uncertainSince ? { uncertainSince: stored.uncertainSince } : {}),
    };
  }
}

/** The context each sealed AppID is bound to (as 0.1.0 sealed them: another, and nothing stored would open). */
const context = (accountId: string) => `account-app:${accountId}`;
