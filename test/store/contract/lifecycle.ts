import { StoreUnavailableError } from '../../../src/store';
import { type BackendUnderTest, eachSpace } from './backend';

/** What every store does whatever its backend: it answers a ping, and once closed, every operation fails at once, plainly. */
export function lifecycleContract(backend: BackendUnderTest): void {
  describe(`a store's life on ${backend.name}`, () => {
    const space = eachSpace(backend);

    test('pings while open; closed (twice is fine): every operation fails with StoreUnavailableError, a listing included', async () => {
      const store = await space().open();
      expect(await store.ping()).toBe(true);
      await store.trackedRequests.track({
        limitRequestId: 'r1',
        accountId: 'acc1',
        requesterId: 'U1',
        channel: 'C1',
        requested: {},
        documents: [],
        source: 'filed',
      });
      await store.close();
      await store.close();
      expect(await store.ping()).toBe(false);
      for (const operation of [
        () => store.trackedRequests.get('r1'),
        () => store.trackedRequests.openIds(),
        () => store.claim('k', 1_000),
        () => store.release('k'),
        () => store.filingIntents.list(),
        () => store.approvals.dueIds(),
        () => store.accountApps.get('acc1'),
        () => store.pixEvents.pending(),
        () => store.records.get('mark', 'k'),
        () => store.audit.page({ since: new Date(0), limit: 1 }),
        () => store.audit.append({ time: new Date().toISOString(), user: 'U1', role: 'viewer', action: 'x', outcome: 'ok' }),
      ]) {
        await expect(operation()).rejects.toBeInstanceOf(StoreUnavailableError);
      }
      // Still there for the next instance.
      expect((await (await space().open()).trackedRequests.get('r1'))?.limitRequestId).toBe('r1');
    });
  });
}
