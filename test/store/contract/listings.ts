import type { StoredRecord } from '../../../src/store/records';
import { type BackendUnderTest, eachSpace } from './backend';
import { fillEverything } from './everything';

async function all<T>(listing: AsyncGenerator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of listing) out.push(item);
  return out;
}

/** Every repository's listing of everything (what a copy of the store reads), in every state the copy must keep. */
export function listingsContract(backend: BackendUnderTest): void {
  describe(`listings of everything on ${backend.name}`, () => {
    const space = eachSpace(backend);

    test('each record once, with what goes with it: polled or not, its place in the index, posted or pending, the lifetime left', async () => {
      await fillEverything(await space().open());
      const { backend: parts } = await space().openBackend();
      const byId = <T>(items: T[], id: (t: T) => string) => Object.fromEntries(items.map((t) => [id(t), t]));

      const tracked = byId(await all(parts.trackedRequests.all()), (t) => (t.record as { limitRequestId: string }).limitRequestId);
      expect(Object.keys(tracked).sort()).toEqual(['decided', 'in-review']);
      expect(tracked['in-review']).toMatchObject({ polled: true, record: { closed: false } });
      expect(tracked.decided).toMatchObject({ polled: false, record: { closed: true, reply: { status: 'APPROVED' } } });

      expect((await all(parts.filingIntents.all())).map((i) => (i as { intentId: string }).intentId)).toEqual(['intent-1']);

      const approvals = byId(await all(parts.approvals.all()), (a) => (a.record as { id: string }).id);
      expect(Object.keys(approvals).sort()).toEqual(['pending-1', 'settled-1']);
      expect(approvals['pending-1']!.due).toBeGreaterThan(Date.now());
      expect(approvals['settled-1']!.due).toBeUndefined();

      expect((await all(parts.accountApps.all())).map((a) => (a as { clientId: string }).clientId)).toEqual(['client-3']);

      const events = byId(await all(parts.pixEvents.events()), (e) => e.hash);
      expect(Object.keys(events).sort()).toEqual(['event-pending', 'event-posted']);
      expect(events['event-pending']!.postedAt).toBeUndefined();
      expect(events['event-posted']!.postedAt).toEqual(expect.any(String));
      const disputes = byId(await all(parts.pixEvents.disputes()), (d) => d.endToEndId);
      expect(Object.keys(disputes).sort()).toEqual(['E-closed', 'E-open']);
      expect(disputes['E-closed']!.closed).toBe(true);

      const records = byId(await all(parts.records.all()), (r: StoredRecord) => `${r.kind}/${r.key}`);
      // The store's identity is one of its records, kept for good.
      expect(Object.keys(records).sort()).toEqual(['delegation/U0ABEL', 'digest-slot/2026-11-25T09:00:00.000Z', 'store/identity']);
      expect(records['store/identity']!.ttlMs).toBeUndefined();
      expect(records['delegation/U0ABEL']).toEqual({
        kind: 'delegation',
        key: 'U0ABEL',
        text: '{"delegate":"U0BRUNO","until":"2026-12-01"}',
      });
      expect(records['digest-slot/2026-11-25T09:00:00.000Z']!.ttlMs).toBeGreaterThan(3_500_000);
      expect(records['digest-slot/2026-11-25T09:00:00.000Z']!.ttlMs).toBeLessThanOrEqual(3_600_000);
    });
  });
}
