import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import KeyvSqlite from '@keyv/sqlite';
import { openStore } from '../../src/store';
import { MemoryClaims } from '../../src/store/claims';
import { sqliteBackend } from '../support/store-backends';
import { SECRET, storeContract } from './contract';
import { APP_ID } from './contract/account-apps';
import { auditEntry, minute, snapshotOf } from './contract/audit-trail';
import { pixEvent } from './contract/pix-events';

storeContract(sqliteBackend);

describe('sqlite: what is particular to the file', () => {
  let dir: string;
  let file: string;
  let url: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-sqlite-'));
    file = path.join(dir, 'data', 'pix-ops.sqlite');
    url = `sqlite://${file}`;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('AppIDs are in the file encrypted: the record is there, the AppID in clear is not', async () => {
    const store = await openStore({ url });
    await store.accountApps.save({ accountId: 'acc1', appId: APP_ID, clientId: 'client-1', name: 'Black Friday' });
    await store.close();
    const bytes = readFileSync(file);
    expect(bytes.includes(Buffer.from('client-1'))).toBe(true);
    expect(bytes.includes(Buffer.from(APP_ID))).toBe(false);
  });

  test('without STORE_SECRET a secret is generated once beside the file (mode 0600) and reused across restarts', async () => {
    const first = await openStore({ url });
    await first.accountApps.save({ accountId: 'acc1', appId: APP_ID });
    await first.close();
    const secretFile = path.join(path.dirname(file), 'store-secret');
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    const secret = readFileSync(secretFile, 'utf8');
    const second = await openStore({ url });
    expect((await second.accountApps.get('acc1'))?.appId).toBe(APP_ID);
    await second.close();
    expect(readFileSync(secretFile, 'utf8')).toBe(secret);
  });

  test('the audit trail is append-only in the database itself: it refuses to change or delete an entry', async () => {
    const store = await openStore({ url });
    await store.audit.append(auditEntry(1, minute(1)));
    await store.close();
    const raw = new KeyvSqlite({ uri: url });
    try {
      await expect(raw.query("UPDATE audit_trail SET outcome = 'refused'")).rejects.toThrow(/append-only/);
      await expect(raw.query('DELETE FROM audit_trail')).rejects.toThrow(/append-only/);
      expect(await raw.query('SELECT outcome FROM audit_trail')).toEqual([{ outcome: 'ok' }]);
    } finally {
      await raw.disconnect();
    }
  });

  test('namespaces on one file keep apart: trail, events, records, approvals, claims', async () => {
    const [a, b] = [await openStore({ url, namespace: 'a' }), await openStore({ url, namespace: 'b' })];
    try {
      await a.audit.append(auditEntry(1, minute(1)));
      await b.audit.append(auditEntry(2, minute(2)));
      expect((await a.audit.page({ since: new Date(minute(0)), limit: 10 })).map((e) => e.user)).toEqual(['U0USER0001']);
      expect((await snapshotOf(b, new Date(minute(0)), new Date(minute(10)), 10)).flat().map((e) => e.user)).toEqual(['U0USER0002']);
      await a.pixEvents.add(pixEvent('h1', minute(1)));
      expect(await b.pixEvents.pending()).toEqual([]);
      expect(await b.pixEvents.add(pixEvent('h1', minute(1)))).toBe(true);
      await a.records.set('mark', 'k', 'a');
      expect(await b.records.get('mark', 'k')).toBeUndefined();
      expect(await b.records.setIfAbsent('mark', 'k', 'b')).toBe(true);
      await a.approvals.create({
        id: 'x1',
        makerId: 'U1',
        makerLocale: 'en',
        channel: 'C1',
        payload: { action: 'account-create', name: 'n' },
        expiresAt: minute(30),
      });
      expect(await b.approvals.openCount()).toBe(0);
      expect(await a.claim('k', 60_000)).toBe(true);
      expect(await b.claim('k', 60_000)).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('claims live in the process: shared by the stores of one file, not by another file', async () => {
    const [a, b] = [await openStore({ url }), await openStore({ url })];
    const other = await openStore({ url: `sqlite://${path.join(dir, 'other.sqlite')}` });
    try {
      expect(await a.claim('k', 60_000)).toBe(true);
      expect(await b.claim('k', 60_000)).toBe(false);
      expect(await other.claim('k', 60_000)).toBe(true);
    } finally {
      for (const s of [a, b, other]) await s.close();
    }
  });

  test('MemoryClaims forgets lapsed keys', async () => {
    let now = 0;
    const claims = new MemoryClaims(`space-${Date.now()}`, 'me', () => now);
    expect(await claims.claim('a', 10)).toBe(true);
    expect(await claims.claim('c', 120_000)).toBe(true);
    now = 30_000;
    expect(await claims.claim('b', 10)).toBe(true); // no sweep yet: 'a' is still kept
    expect(claims.size).toBe(3);
    now = 61_000;
    expect(await claims.claim('d', 10)).toBe(true); // sweeps 'a' and 'b'
    expect(claims.size).toBe(2);
  });

  test('where a store writes: its keys and tables', async () => {
    const store = await openStore({ url, secret: SECRET });
    await store.trackedRequests.track({
      limitRequestId: 'r1',
      accountId: 'a',
      requesterId: 'U',
      channel: 'C',
      requested: {},
      documents: [],
      source: 'filed',
    });
    await store.filingIntents.record({
      intentId: 'i1',
      requesterId: 'U',
      channel: 'C',
      accountId: 'a',
      current: {},
      requested: {},
      documents: [],
      createdAt: minute(0),
    });
    await store.approvals.create({
      id: 'ap1',
      makerId: 'U',
      makerLocale: 'en',
      channel: 'C',
      payload: { action: 'account-create', name: 'n' },
      expiresAt: minute(30),
    });
    await store.accountApps.save({ accountId: 'acc', appId: APP_ID, clientId: 'cl' });
    await store.pixEvents.add(pixEvent('h1', minute(1)));
    await store.pixEvents.saveDispute({ endToEndId: 'E1', channel: 'C', closed: false, firstAt: minute(1), updatedAt: minute(1) });
    await store.audit.append(auditEntry(1, minute(1)));
    await store.records.set('mark', 'k', { v: 1 });
    await store.close();
    const raw = new KeyvSqlite({ uri: url });
    try {
      const keys = (await raw.query('SELECT key FROM keyv ORDER BY key')).map((r: { key: string }) => r.key);
      expect(keys).toEqual([
        'pix-ops-intents:i1',
        'pix-ops:account-app-client:cl',
        'pix-ops:account-app:acc',
        'pix-ops:approval:ap1',
        'pix-ops:tracked:r1',
      ]);
      const count = async (table: string) =>
        (
          await raw.query(
            `SELECT COUNT(*) AS n FROM ${table} WHERE ${table === 'pix_events' || table === 'pix_disputes' ? 'ns' : 'namespace'} = 'pix-ops'`,
          )
        )[0].n;
      expect(await count('approvals_due')).toBe(1);
      expect(await count('filing_intents_index')).toBe(1);
      expect(await count('tracked_polled')).toBe(1);
      expect(await count('pix_events')).toBe(1);
      expect(await count('pix_disputes')).toBe(1);
      expect(await count('audit_trail')).toBe(1);
      expect(await raw.query('SELECT kind, key, value, expires FROM records ORDER BY kind')).toEqual([
        { kind: 'mark', key: 'k', value: '{"v":1}', expires: null },
        { kind: 'store', key: 'identity', value: expect.stringMatching(/^\{"createdAt":"[^"]+","id":"[0-9a-f-]{36}"\}$/), expires: null },
      ]);
    } finally {
      await raw.disconnect();
    }
  });
});
