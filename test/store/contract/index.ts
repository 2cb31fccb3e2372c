import { accountAppsContract } from './account-apps';
import { approvalsContract } from './approvals';
import { auditTrailContract } from './audit-trail';
import type { BackendUnderTest } from './backend';
import { claimsContract } from './claims';
import { dayLimitContract } from './day-limit';
import { delegationsContract } from './delegations';
import { digestAndAlertsContract } from './digest-and-alerts';
import { filingIntentsContract } from './filing-intents';
import { lifecycleContract } from './lifecycle';
import { listingsContract } from './listings';
import { pixEventsContract } from './pix-events';
import { rateWindowContract } from './rate-window';
import { recordsContract } from './records';
import { sortedIndexContract } from './sorted-index';
import { trackedRequestsContract } from './tracked-requests';

export type { BackendUnderTest, Space } from './backend';
export { SECRET, spaceOf } from './backend';

/**
 * The store's contract, one block per repository, run on a backend: every backend's test file calls
 * this with its own factory (test/store/sqlite.test.ts, test/store/redis.test.ts, test/store/postgres.test.ts), and a new backend
 * is proven by one more such file.
 */
export function storeContract(backend: BackendUnderTest): void {
  lifecycleContract(backend);
  claimsContract(backend);
  sortedIndexContract(backend);
  trackedRequestsContract(backend);
  filingIntentsContract(backend);
  approvalsContract(backend);
  accountAppsContract(backend);
  auditTrailContract(backend);
  pixEventsContract(backend);
  recordsContract(backend);
  delegationsContract(backend);
  dayLimitContract(backend);
  digestAndAlertsContract(backend);
  rateWindowContract(backend);
  listingsContract(backend);
}
