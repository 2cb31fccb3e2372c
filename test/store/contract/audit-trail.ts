import type { AuditEntry, StoredAuditEntry } from '../../../src/audit/entry';
import type { Store } from '../../../src/store';
import { type BackendUnderTest, eachSpace } from './backend';

export const auditEntry = (i: number, time: string, extra: Partial<AuditEntry> = {}): AuditEntry => ({
  time,
  user: `U0USER${String(i).padStart(4, '0')}`,
  role: 'operator',
  action: '/pix limits',
  outcome: 'ok',
  ...extra,
});

export const minute = (m: number) => new Date(Date.UTC(2026, 2, 5, 12, m)).toISOString();

export async function snapshotOf(store: Store, from: Date, to: Date, batch: number): Promise<StoredAuditEntry[][]> {
  const out: StoredAuditEntry[][] = [];
  for await (const b of (await store.audit.snapshot(from, to, batch)).batches()) out.push(b);
  return out;
}

/** The audit trail: append, never update; pages both ways; a period's snapshot in batches, the same when read again. */
export function auditTrailContract(backend: BackendUnderTest): void {
  describe(`the audit trail on ${backend.name}`, () => {
    const space = eachSpace(backend);

    test('appends in order with every field and its own time, survives a restart, pages both ways, snapshots a period', async () => {
      const first = await space().open();
      const full = auditEntry(0, minute(0), {
        target: 'account:6840aeca23c0d1fe48c856a3 key:***.982.247-**',
        pixMethod: 'DELETE',
        pixPath: '/api/v1/pix-keys/***.982.247-**',
        pixStatus: 204,
        maker: 'U0MAKER',
        checker: 'U0CHECK',
        outcome: 'approved',
        detail: 'needs admin',
      });
      await first.audit.append(full);
      await Promise.all(Array.from({ length: 30 }, (_, i) => first.audit.append(auditEntry(i + 1, minute(i + 1)))));
      await first.close();

      const store = await space().open();
      const since = new Date(minute(0));
      const top = await store.audit.page({ since, limit: 10 });
      expect(top.map((e) => e.user)).toEqual(Array.from({ length: 10 }, (_, i) => `U0USER${String(30 - i).padStart(4, '0')}`));
      const next = await store.audit.page({ since, limit: 10, before: top[9]!.id });
      expect(next[0]!.user).toBe('U0USER0020');
      const back = await store.audit.page({ since, limit: 10, after: next[0]!.id, top: top[0]!.id });
      expect(back.map((e) => e.id)).toEqual(top.map((e) => e.id));
      const last = await store.audit.page({ since, limit: 10, before: (await store.audit.page({ since, limit: 30 }))[29]!.id });
      const { id: _id, ...roundTrip } = last[0]!;
      expect(roundTrip).toEqual(full);
      expect((await store.audit.page({ since: new Date(minute(25)), limit: 50 })).map((e) => e.user)).toHaveLength(6);
      expect(store.audit.isCursor(top[0]!.id)).toBe(true);
      expect(store.audit.isCursor('1; DROP TABLE audit_trail')).toBe(false);
      expect(store.audit.isCursor(42)).toBe(false);

      // A snapshot of [minute 5, minute 15): oldest first, in batches, the same when read again even
      // after more entries of that period are appended.
      const from = new Date(minute(5));
      const to = new Date(minute(15));
      const batches = await snapshotOf(store, from, to, 4);
      expect(batches.map((b) => b.length)).toEqual([4, 4, 2]);
      expect(batches.flat().map((e) => e.user)).toEqual(Array.from({ length: 10 }, (_, i) => `U0USER${String(i + 5).padStart(4, '0')}`));
      const snapshot = await store.audit.snapshot(from, to, 4);
      const firstRead: string[] = [];
      for await (const b of snapshot.batches()) firstRead.push(...b.map((e) => e.id));
      await store.audit.append(auditEntry(99, minute(10)));
      await store.audit.append(auditEntry(98, minute(40)));
      const secondRead: string[] = [];
      for await (const b of snapshot.batches()) secondRead.push(...b.map((e) => e.id));
      expect(secondRead).toEqual(firstRead);
      expect(await snapshotOf(store, new Date(minute(50)), new Date(minute(59)), 4)).toEqual([]);
    });

    test('two instances appending at once: nothing lost, each one’s entries in its own order', async () => {
      const [a, b] = [await space().open(), await space().open()];
      const now = Date.now();
      const time = (i: number) => new Date(now + Math.floor(i / 50)).toISOString();
      // Interleaved bursts, B's clock a little behind A's.
      await Promise.all([
        ...Array.from({ length: 500 }, (_, i) => a.audit.append(auditEntry(i, time(i), { action: 'A' }))),
        ...Array.from({ length: 500 }, (_, i) =>
          b.audit.append(auditEntry(i, new Date(Date.parse(time(i)) - 5).toISOString(), { action: 'B' })),
        ),
      ]);
      const all = (await snapshotOf(a, new Date(now - 1_000), new Date(now + 60_000), 100)).flat();
      expect(all).toHaveLength(1_000);
      expect(new Set(all.map((e) => e.id)).size).toBe(1_000);
      for (const who of ['A', 'B']) {
        expect(all.filter((e) => e.action === who).map((e) => e.user)).toEqual(
          Array.from({ length: 500 }, (_, i) => `U0USER${String(i).padStart(4, '0')}`),
        );
      }
    });
  });
}
