import type { RateWindow } from '../pix/budget';
import type { AccountAppsStorage } from './account-apps';
import type { ApprovalsStorage } from './approvals';
import type { AuditBackend } from './audit-trail';
import type { Claims } from './claims';
import type { FilingIntentsStorage } from './filing-intents';
import type { StoreIdentity } from './identity';
import type { PixEventsRepo } from './pix-events';
import type { RecordsStorage } from './records';
import type { TrackedRequestsStorage } from './tracked-requests';

export type StoreKind = 'sqlite' | 'redis' | 'postgres';

/**
 * What one backend (a folder of its own: sqlite/, redis/, postgres/) gives the store: its part of every
 * repository, behind the repository's own interface. `openStore` chooses one, guards every part, and
 * puts the repositories' common logic (parsing, sealing, due times) on top. A new backend implements
 * this and passes the contract suite (test/store/contract).
 */
export interface Backend {
  readonly kind: StoreKind;
  /** Its state is shared by several instances (Redis, Postgres): claims and the Pix budget's window are theirs together. */
  readonly shared: boolean;
  /** Time limit of one operation; undefined when the backend bounds its own waits (sqlite's busy timeout). */
  readonly timeoutMs: number | undefined;
  readonly claims: Claims;
  readonly accountApps: AccountAppsStorage;
  readonly trackedRequests: TrackedRequestsStorage;
  readonly filingIntents: FilingIntentsStorage;
  readonly approvals: ApprovalsStorage;
  readonly audit: AuditBackend;
  readonly pixEvents: PixEventsRepo;
  readonly records: RecordsStorage;
  /** The Pix budget's window shared by the instances; undefined: each process counts its own. */
  readonly rateWindow: RateWindow | undefined;
  /** What the store is (identity.ts), asked of it; NoStoreError when it holds none. */
  identity(): Promise<StoreIdentity>;
  /** One round trip (a failure or a hang is "down"). */
  ping(): Promise<unknown>;
  close(): Promise<void>;
}

/** What a place holds under a namespace, read without creating or changing anything there. */
export interface Inspection {
  /** The version of the store's format there (0: no store was ever made there). */
  version: number;
  /** The version this app writes. */
  known: number;
  /** Absent: no store under this namespace (a mistyped one, an empty file). */
  identity?: StoreIdentity;
  /** Names the store in a message (`the database schema "pix_ops"`). */
  where: string;
}
