import { NoStoreError, StoreUnavailableError } from '../../../src/store';
import { type BackendUnderTest, eachSpace } from './backend';

/**
 * What every store does whatever its backend: it keeps its identity from its creation, it answers a
 * ping, and once closed, every operation fails at once, plainly.
 */
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

    test('its identity, kept in the store from its creation: the same for every instance and after a restart, another for another store; a place with no store is refused when opened as it is, and stays empty', async () => {
      expect(await space().inspect()).toEqual({ version: 0, known: expect.any(Number), where: expect.any(String) });
      await expect(space().openBackend({ existing: true })).rejects.toBeInstanceOf(NoStoreError);
      expect((await space().inspect()).version).toBe(0);

      const identity = await (await space().openBackend()).backend.identity();
      expect(identity.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      await (await space().open()).close();
      expect(await (await space().openBackend()).backend.identity()).toEqual(identity);
      expect(await (await space().openBackend({ existing: true })).backend.identity()).toEqual(identity);
      const found = await space().inspect();
      expect(found).toEqual({ version: found.known, known: found.known, where: expect.any(String), identity });

      const other = await backend.space();
      try {
        expect((await (await other.openBackend()).backend.identity()).id).not.toBe(identity.id);
      } finally {
        await other.dispose();
      }
    });
  });
}
