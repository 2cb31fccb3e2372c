import type { StoredAuditEntry } from '../../../src/audit/entry';
import type { Store } from '../../../src/store';
import { APP_ID } from './account-apps';
import { auditEntry, minute, snapshotOf } from './audit-trail';
import { pixEvent } from './pix-events';

const payload = { action: 'key-add' as const, accountId: '6840aeca23c0d1fe48c856a3', pixKey: 'sealed@example.com', type: 'EMAIL' };

export const AUDIT_ENTRIES = 450;

/**
 * A bit of everything a store keeps, in every state that matters when it is read back or moved: a
 * request polled and one closed, an intent, an approval pending (due later) and one settled, an
 * AppID, an event pending and one posted, a dispute open and one closed, records for good and with a
 * lifetime, and an audit trail longer than a batch, with every field and its own times.
 */
export async function fillEverything(store: Store): Promise<void> {
  const request = (id: string) => ({
    limitRequestId: id,
    accountId: 'acc1',
    requesterId: 'U0REQUEST1',
    channel: 'C0FINANCE1',
    rootTs: '1700000000.000100',
    requested: { pixDayLimit: 700_000 },
    documents: [{ fileName: 'proof.pdf', contentType: 'application/pdf' }],
    source: 'filed' as const,
    createdAt: minute(1),
  });
  await store.trackedRequests.track(request('in-review'));
  await store.trackedRequests.track(request('decided'));
  await store.trackedRequests.recordReply('decided', { ts: '1700000001.000200', status: 'APPROVED', approved: { pixDayLimit: 700_000 } });
  await store.trackedRequests.close('decided');
  await store.filingIntents.record({
    intentId: 'intent-1',
    requesterId: 'U0REQUEST1',
    channel: 'C0FINANCE1',
    accountId: 'acc2',
    current: { pixDayLimit: 1 },
    requested: { pixDayLimit: 2 },
    documents: [],
    createdAt: minute(2),
  });
  const later = new Date(Date.now() + 3_600_000).toISOString();
  await store.approvals.create({
    id: 'pending-1',
    makerId: 'U0MAKER01',
    makerLocale: 'en',
    channel: 'C0APPROVE',
    payload,
    expiresAt: later,
  });
  await store.approvals.update('pending-1', (r) => ({ ...r, rootTs: '1700000002.000300' }));
  await store.approvals.create({
    id: 'settled-1',
    makerId: 'U0MAKER01',
    makerLocale: 'pt-BR',
    channel: 'C0APPROVE',
    payload,
    expiresAt: later,
  });
  await store.approvals.update('settled-1', (r) => ({ ...r, rootTs: '1.2', state: 'rejected', checkerId: 'U0CHECK01', settled: true }));
  await store.accountApps.save({ accountId: 'acc3', appId: APP_ID, clientId: 'client-3', name: 'Campaign' });
  // Received lately: posted events are pruned once their retries are long over.
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
  await store.pixEvents.add(pixEvent('event-pending', ago(60_000)));
  await store.pixEvents.add(pixEvent('event-posted', ago(50_000)));
  await store.pixEvents.markPosted('event-posted');
  await store.pixEvents.saveDispute({
    endToEndId: 'E-open',
    channel: 'C0EVENTS',
    rootTs: '1.3',
    closed: false,
    firstAt: minute(3),
    updatedAt: minute(3),
  });
  await store.pixEvents.saveDispute({
    endToEndId: 'E-closed',
    channel: 'C0EVENTS',
    closed: true,
    firstAt: minute(4),
    updatedAt: minute(5),
  });
  await store.records.set('delegation', 'U0ABEL', { delegate: 'U0BRUNO', until: '2026-12-01' });
  await store.records.set('digest-slot', '2026-11-25T09:00:00.000Z', { by: 'a' }, 3_600_000);
  await store.audit.append(
    auditEntry(0, minute(0), {
      target: 'account:6840aeca23c0d1fe48c856a3 key:***.982.247-**',
      pixMethod: 'DELETE',
      pixPath: '/api/v1/pix-keys/***.982.247-**',
      pixStatus: 204,
      maker: 'U0MAKER',
      checker: 'U0CHECK',
      outcome: 'approved',
      detail: 'needs admin',
    }),
  );
  // Times not in the order of appends (an instance's clock behind another's): the order is the trail's, the times their own.
  // Appended at once: the trail writes them in batches, in the order they were appended.
  await Promise.all(
    Array.from({ length: AUDIT_ENTRIES - 1 }, (_, n) =>
      store.audit.append(auditEntry(n + 1, new Date(Date.parse(minute(10)) + (((n + 1) * 7) % 50) * 1000).toISOString())),
    ),
  );
}

/** The audit trail whole, oldest first, without the backend's ids. */
export async function auditOf(store: Store): Promise<Array<Omit<StoredAuditEntry, 'id'>>> {
  return (await snapshotOf(store, new Date(0), new Date('9999-12-31T00:00:00.000Z'), 100)).flat().map(({ id: _, ...e }) => e);
}

/** What a store gives back of `fillEverything`, through its repositories (the payloads and AppIDs opened). */
export async function readEverything(store: Store) {
  return {
    tracked: {
      open: (await store.trackedRequests.openIds()).sort(),
      records: await Promise.all(['in-review', 'decided'].map((id) => store.trackedRequests.get(id))),
    },
    intents: await store.filingIntents.list(),
    approvals: {
      open: await store.approvals.openIds(),
      due: await store.approvals.dueIds(Date.now() + 2 * 3_600_000),
      records: await Promise.all(['pending-1', 'settled-1'].map((id) => store.approvals.get(id))),
    },
    apps: { byAccount: await store.accountApps.get('acc3'), byClient: await store.accountApps.findByClientId('client-3') },
    events: {
      pending: await store.pixEvents.pending(),
      records: await Promise.all(['event-pending', 'event-posted'].map((h) => store.pixEvents.get(h))),
      open: (await store.pixEvents.openDisputes()).map((d) => d.endToEndId),
      disputes: await Promise.all(['E-open', 'E-closed'].map((e) => store.pixEvents.dispute(e))),
    },
    records: { delegation: await store.records.list('delegation', 10), slots: await store.records.list('digest-slot', 10) },
    audit: await auditOf(store),
  };
}
