import { type BackendUnderTest, eachSpace } from './backend';

export const APP_ID = 'Q2xpZW50X0lkX3NlY3JldC1hcHAtaWQtZm9yLXRlc3Q=';

/** The accounts' AppIDs: sealed at rest and bound to their account, found by their application. */
export function accountAppsContract(backend: BackendUnderTest): void {
  describe(`account AppIDs on ${backend.name}`, () => {
    const space = eachSpace(backend);

    test('saved and read back (the reveal reported), sealed at rest; the wrong secret cannot read them', async () => {
      const revealed: string[] = [];
      const store = await space().open({ onSecret: (v) => revealed.push(v) });
      await store.accountApps.save({ accountId: 'acc1', appId: APP_ID, clientId: 'client-1', name: 'Black Friday' });
      const read = await (await space().open()).accountApps.get('acc1');
      expect(read).toEqual({ accountId: 'acc1', appId: APP_ID, clientId: 'client-1', name: 'Black Friday', savedAt: expect.any(String) });
      expect(await store.accountApps.get('acc1')).toEqual(read);
      expect(revealed).toEqual([APP_ID]);
      expect(await store.accountApps.get('nope')).toBeUndefined();
      const { backend: parts } = await space().openBackend();
      const raw = JSON.stringify(await parts.accountApps.get('acc1'));
      expect(raw).toContain('client-1'); // the record is really there…
      expect(raw).not.toContain(APP_ID); // …but not the AppID in clear
      const stranger = await space().open({ secret: 'w'.repeat(40) });
      await expect(stranger.accountApps.get('acc1')).rejects.toThrow();
    });

    test('stale until a new AppID is saved; the pending mark of an application; found by client id, never a former one', async () => {
      const store = await space().open();
      await store.accountApps.save({ accountId: 'acc1', appId: APP_ID, clientId: 'client-1' });
      await store.accountApps.markStale('acc1', new Date('2026-11-25T10:00:00.000Z'));
      await store.accountApps.markStale('nope');
      expect(await store.accountApps.get('nope')).toBeUndefined();
      expect(await store.accountApps.get('acc1')).toMatchObject({ appId: APP_ID, staleSince: '2026-11-25T10:00:00.000Z' });
      expect(await store.accountApps.findByClientId('client-1')).toMatchObject({ accountId: 'acc1', staleSince: expect.any(String) });

      await store.accountApps.save({
        accountId: 'acc1',
        appId: 'NEW-APP-ID',
        clientId: 'client-2',
        uncertainSince: '2026-11-25T11:00:00.000Z',
      });
      const renewed = await store.accountApps.get('acc1');
      expect(renewed).toMatchObject({ appId: 'NEW-APP-ID', clientId: 'client-2', uncertainSince: '2026-11-25T11:00:00.000Z' });
      expect(renewed?.staleSince).toBeUndefined();
      expect(await store.accountApps.findByClientId('client-2')).toMatchObject({ accountId: 'acc1', appId: 'NEW-APP-ID' });
      // The former application no longer leads to the account.
      expect(await store.accountApps.findByClientId('client-1')).toBeUndefined();
      expect(await store.accountApps.findByClientId('client-9')).toBeUndefined();
    });
  });
}
