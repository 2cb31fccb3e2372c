import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@keyv/redis';
import { openStore } from '../../src/store';
import { SecretBox } from '../../src/store/secret-box';
import { deleteKeys, keysOf, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';

const APP_ID = 'Q2xpZW50X0lkX3NlY3JldC1hcHAtaWQtZm9yLXRlc3Q=';

describe('store on sqlite (the embedded default)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-store-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('AppIDs are stored encrypted, readable back, and absent from the file bytes', async () => {
    const url = `sqlite://${path.join(dir, 'data', 'pix-ops.sqlite')}`;
    const revealed: string[] = [];
    const store = await openStore({ url, onSecret: (v) => revealed.push(v) });
    await store.accountApps.save({ accountId: 'acc1', appId: APP_ID, clientId: 'client-1', name: 'Black Friday' });
    expect(await store.accountApps.get('acc1')).toMatchObject({
      accountId: 'acc1',
      appId: APP_ID,
      clientId: 'client-1',
      name: 'Black Friday',
    });
    expect(await store.accountApps.get('nope')).toBeUndefined();
    expect(revealed).toEqual([APP_ID]);
    await store.close();

    const bytes = readFileSync(path.join(dir, 'data', 'pix-ops.sqlite'));
    expect(bytes.includes(Buffer.from('client-1'))).toBe(true); // the file really holds the record…
    expect(bytes.includes(Buffer.from(APP_ID))).toBe(false); // …but not the AppID in clear
  });

  test('without STORE_SECRET a secret is generated once (mode 0600) and reused across restarts', async () => {
    const url = `sqlite://${path.join(dir, 'pix-ops.sqlite')}`;
    const first = await openStore({ url });
    await first.accountApps.save({ accountId: 'acc1', appId: APP_ID });
    await first.close();
    const secretFile = path.join(dir, 'store-secret');
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    const secret = readFileSync(secretFile, 'utf8');

    const second = await openStore({ url });
    expect((await second.accountApps.get('acc1'))?.appId).toBe(APP_ID);
    await second.close();
    expect(readFileSync(secretFile, 'utf8')).toBe(secret);
  });

  test('tracked requests: the poll set holds exactly the open ones, across restarts', async () => {
    const url = `sqlite://${path.join(dir, 'pix-ops.sqlite')}`;
    const store = await openStore({ url });
    await exerciseTracking(store);
    await store.close();
    const again = await openStore({ url });
    expect((await again.trackedRequests.openIds()).sort()).toEqual(['r1', 'r3']);
    await again.close();
  });

  test('the wrong secret cannot read the AppIDs', async () => {
    const url = `sqlite://${path.join(dir, 'pix-ops.sqlite')}`;
    const a = await openStore({ url, secret: 'a'.repeat(40) });
    await a.accountApps.save({ accountId: 'acc1', appId: APP_ID });
    await a.close();
    const b = await openStore({ url, secret: 'b'.repeat(40) });
    await expect(b.accountApps.get('acc1')).rejects.toThrow();
    await b.close();
  });
});

async function exerciseTracking(store: Awaited<ReturnType<typeof openStore>>) {
  const base = {
    accountId: 'acc1',
    requesterId: 'U1',
    channel: 'C1',
    requested: { pixDayLimit: 1 },
    documents: [],
    source: 'filed' as const,
  };
  for (const id of ['r1', 'r2', 'r3']) await store.trackedRequests.track({ ...base, limitRequestId: id, rootTs: `1.${id}` });
  await store.trackedRequests.recordReply('r2', { ts: '9.9', status: 'REJECTED' });
  await store.trackedRequests.close('r2');
  expect((await store.trackedRequests.openIds()).sort()).toEqual(['r1', 'r3']);
  expect(await store.trackedRequests.get('r2')).toMatchObject({ closed: true, reply: { ts: '9.9', status: 'REJECTED' }, rootTs: '1.r2' });
}

describe('SecretBox', () => {
  test('a sealed value is bound to its record', () => {
    const box = new SecretBox('x'.repeat(32));
    const sealed = box.seal(APP_ID, 'account-app:acc1');
    expect(sealed).not.toContain(APP_ID);
    expect(box.open(sealed, 'account-app:acc1')).toBe(APP_ID);
    expect(() => box.open(sealed, 'account-app:acc2')).toThrow();
    expect(box.seal(APP_ID, 'c')).not.toBe(box.seal(APP_ID, 'c'));
  });

  test('a truncated tag is refused: a 4-byte tag would be a forgery away (authTagLength 16)', () => {
    const box = new SecretBox('x'.repeat(32));
    const [version, iv, tag, data] = box.seal(APP_ID, 'ctx').split(':') as [string, string, string, string];
    const short = Buffer.from(tag, 'base64').subarray(0, 4).toString('base64');
    expect(() => box.open([version, iv, short, data].join(':'), 'ctx')).toThrow();
  });

  test('an IV of any length but 12 bytes is refused, even when the value is otherwise genuine', () => {
    const secret = 'x'.repeat(32);
    // The same key the box derives, to seal a value exactly as it would but with a 16-byte IV.
    const key = Buffer.from(hkdfSync('sha256', secret, 'pix-ops-slack', 'store-values-v1', 32));
    const iv = randomBytes(16);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from('ctx'));
    const data = Buffer.concat([cipher.update(APP_ID, 'utf8'), cipher.final()]);
    const sealed = ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
    expect(() => new SecretBox(secret).open(sealed, 'ctx')).toThrow('Unreadable sealed value');
  });
});

// Needs the Redis server on 127.0.0.1:6379 (present on every machine of this project, CI included).
// The same cases as on sqlite, each under a key prefix of its own (the server is shared).
describe('store on Redis (127.0.0.1:6379)', () => {
  let namespace: string;
  beforeEach(() => {
    namespace = testNamespace('store');
  });
  afterEach(() => deleteKeys(SHARED_REDIS_URL, namespace));
  const open = (secret = 's'.repeat(40)) => openStore({ url: SHARED_REDIS_URL, secret, namespace });

  test('keeps AppIDs encrypted under its own key prefix', async () => {
    const store = await open();
    const raw = createClient({ url: SHARED_REDIS_URL });
    await raw.connect();
    try {
      await store.accountApps.save({ accountId: 'acc1', appId: APP_ID, clientId: 'client-1' });
      expect((await store.accountApps.get('acc1'))?.appId).toBe(APP_ID);
      const keys = await keysOf(SHARED_REDIS_URL, namespace);
      expect(keys.length).toBeGreaterThan(0);
      const values = await Promise.all(keys.map(async (key) => String(await raw.get(key))));
      expect(values.some((v) => v.includes('client-1'))).toBe(true); // Redis really holds the record…
      for (const v of values) expect(v).not.toContain(APP_ID); // …but not the AppID in clear
      expect(await store.ping()).toBe(true);
    } finally {
      await raw.close();
      await store.close();
    }
  });

  test('tracked requests: the poll set holds exactly the open ones, across restarts', async () => {
    const store = await open();
    await exerciseTracking(store);
    await store.accountApps.save({ accountId: 'acc1', appId: APP_ID });
    await store.close();
    const again = await open();
    expect((await again.trackedRequests.openIds()).sort()).toEqual(['r1', 'r3']);
    expect((await again.accountApps.get('acc1'))?.appId).toBe(APP_ID);
    await again.close();
  });

  test('the wrong secret cannot read the AppIDs', async () => {
    const a = await open('a'.repeat(40));
    await a.accountApps.save({ accountId: 'acc1', appId: APP_ID });
    await a.close();
    const b = await open('b'.repeat(40));
    await expect(b.accountApps.get('acc1')).rejects.toThrow();
    await b.close();
  });
});
