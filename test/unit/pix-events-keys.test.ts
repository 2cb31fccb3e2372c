import { createPublicKey, createSign, generateKeyPairSync } from 'node:crypto';
import { MemoryRateWindow, PixBudget } from '../../src/pix/budget';
import { isListed, kindOf, mergedStatus } from '../../src/pix-events/kinds';
import { KEYS_TTL_MS, PublicKeys, REFRESH_FLOOR_MS, REFRESH_WAIT_MS } from '../../src/pix-events/public-keys';
import { createLogger, SecretRegistry } from '../../src/runtime/logger';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';

const quiet = createLogger({ level: 'silent', secrets: new SecretRegistry() });
const sign = (pem: string, body: Buffer) => createSign('RSA-SHA256').update(body).sign(pem, 'base64');

/** The keys against the sandbox's real route, with a clock the test moves. */
describe('the webhook public keys', () => {
  let sandbox: SandboxHandle;
  let now: number;
  let keys: PublicKeys;
  const fetches = () => sandbox.calls.filter((c) => c.path === '/api/v1/webhook/public-keys').length;
  const faults = (body: unknown, method = 'POST') =>
    fetch(`${sandbox.url}/sandbox/faults`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox.close());
  beforeEach(() => {
    now = 1_000_000;
    sandbox.calls.length = 0;
    keys = new PublicKeys({ baseUrl: sandbox.url, logger: quiet, now: () => now });
  });
  afterEach(() => faults({}, 'DELETE'));

  const body = Buffer.from('{"event":"OPENPIX:DISPUTE_CREATED"}');

  test('fetched once, then kept for an hour; fetched again after it', async () => {
    const pem = await sandbox.webhooks.currentPrivateKey();
    expect(await keys.verify(body, sign(pem, body))).toBe(true);
    expect(await keys.verify(body, sign(pem, body))).toBe(true);
    expect(fetches()).toBe(1);
    now += KEYS_TTL_MS;
    expect(await keys.verify(body, sign(pem, body))).toBe(true);
    expect(fetches()).toBe(2);
  });

  test('an unknown signature: one refresh, then none for a minute; a rotated key is picked up by it', async () => {
    const old = await sandbox.webhooks.currentPrivateKey();
    expect(await keys.verify(body, sign(old, body))).toBe(true);
    await sandbox.webhooks.rotate();
    const fresh = await sandbox.webhooks.currentPrivateKey();
    expect(await keys.verify(body, sign(fresh, body))).toBe(true);
    expect(fetches()).toBe(2);
    // Both keys valid during the rotation.
    expect(await keys.verify(body, sign(old, body))).toBe(true);
    await sandbox.webhooks.rotate();
    const newer = await sandbox.webhooks.currentPrivateKey();
    now += REFRESH_FLOOR_MS - 1;
    expect(await keys.verify(body, sign(newer, body))).toBe(false);
    expect(fetches()).toBe(2);
    now += 1;
    expect(await keys.verify(body, sign(newer, body))).toBe(true);
    expect(fetches()).toBe(3);
  });

  test('a failed refresh keeps the cached keys', async () => {
    const pem = await sandbox.webhooks.currentPrivateKey();
    expect(await keys.verify(body, sign(pem, body))).toBe(true);
    await faults({ fail: { status: 500, count: 10, pathPrefix: '/api/v1/webhook' } });
    now += KEYS_TTL_MS;
    expect(await keys.verify(body, sign(pem, body))).toBe(true); // the hour is over, the fetch fails: still verified
    expect(await keys.verify(body, Buffer.from('forged').toString('base64'))).toBe(false);
    expect(fetches()).toBe(2);
  });

  test('the Pix budget held back by a 429: a refresh waits at most REFRESH_WAIT_MS, then the cached keys decide', async () => {
    // The budget's own timers unref'd: its minute-long hold must not keep the test run open.
    const budget = new PixBudget({
      limit: 5,
      window: new MemoryRateWindow(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
    });
    keys = new PublicKeys({ baseUrl: sandbox.url, logger: quiet, now: () => now, acquire: (signal) => budget.acquire('people', signal) });
    const pem = await sandbox.webhooks.currentPrivateKey();
    expect(await keys.verify(body, sign(pem, body))).toBe(true);
    expect(fetches()).toBe(1);
    await budget.holdOff(65_000);
    // The hour is over: a refresh is due, but the budget has no place for it.
    now += KEYS_TTL_MS;
    let started = Date.now();
    expect(await keys.verify(body, sign(pem, body))).toBe(true);
    expect(Date.now() - started).toBeLessThan(REFRESH_WAIT_MS + 1_500);
    // A key the cache does not know (a rotation): refused at once, no refresh within the minute.
    await sandbox.webhooks.rotate();
    const fresh = await sandbox.webhooks.currentPrivateKey();
    now += REFRESH_FLOOR_MS - 1;
    started = Date.now();
    expect(await keys.verify(body, sign(fresh, body))).toBe(false);
    expect(Date.now() - started).toBeLessThan(REFRESH_WAIT_MS + 1_500);
    // The refreshes gave up their place: nothing was sent while the budget held.
    expect(fetches()).toBe(1);
  }, 15_000);

  test('garbage signatures are refused without throwing', async () => {
    expect(await keys.verify(body, '')).toBe(false);
    expect(await keys.verify(body, '!!!not base64!!!')).toBe(false);
  });
});

describe('1024-bit RSA keys (the size of the service’s published key)', () => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, webhookKeyBits: 1024 });
  });
  afterAll(() => sandbox.close());

  const body = Buffer.from('{"event":"OPENPIX:DISPUTE_ACCEPTED"}');

  test('the sandbox lists and signs with a 1024-bit key when asked; its signatures verify, a forger’s do not', async () => {
    const listed = await (await fetch(`${sandbox.url}/api/v1/webhook/public-keys`)).json();
    const { public_keys } = listed as { public_keys: Array<{ key: string }> };
    expect(public_keys.map((k) => createPublicKey(k.key).asymmetricKeyDetails?.modulusLength)).toEqual([1024]);
    const keys = new PublicKeys({ baseUrl: sandbox.url, logger: quiet });
    expect(await keys.verify(body, sign(await sandbox.webhooks.currentPrivateKey(), body))).toBe(true);
    const forger = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(await keys.verify(body, sign(forger, body))).toBe(false);
    expect(
      await keys.verify(Buffer.from('{"event":"OPENPIX:DISPUTE_REJECTED"}'), sign(await sandbox.webhooks.currentPrivateKey(), body)),
    ).toBe(false);
  });

  test('a 1024-bit key and a 2048-bit one listed together, as during a rotation: both verify', async () => {
    const old = await sandbox.webhooks.currentPrivateKey();
    await sandbox.webhooks.rotate(2048);
    const keys = new PublicKeys({ baseUrl: sandbox.url, logger: quiet });
    expect(await keys.verify(body, sign(old, body))).toBe(true);
    expect(await keys.verify(body, sign(await sandbox.webhooks.currentPrivateKey(), body))).toBe(true);
  });
});

describe('event kinds', () => {
  test('the part after the colon, any prefix', () => {
    expect(kindOf('OPENPIX:DISPUTE_CREATED')).toBe('DISPUTE_CREATED');
    expect(kindOf('woovi:charge_completed')).toBe('CHARGE_COMPLETED');
    expect(kindOf('DISPUTE_ACCEPTED')).toBe('DISPUTE_ACCEPTED');
  });

  test('PIX_EVENTS: exact kinds and suffix wildcards', () => {
    expect(isListed('DISPUTE_CREATED', ['DISPUTE_*'])).toBe(true);
    expect(isListed('CHARGE_COMPLETED', ['DISPUTE_*'])).toBe(false);
    expect(isListed('CHARGE_COMPLETED', ['DISPUTE_*', 'CHARGE_COMPLETED'])).toBe(true);
    expect(isListed('CHARGE_COMPLETED_NOT_SAME_CUSTOMER_PAYER', ['CHARGE_COMPLETED'])).toBe(false);
    expect(isListed('ANYTHING', ['*'])).toBe(true);
  });

  test('a final status is never undone by an opening that arrives late', () => {
    expect(mergedStatus(undefined, 'OPENED')).toBe('OPENED');
    expect(mergedStatus('OPENED', 'ACCEPTED')).toBe('ACCEPTED');
    expect(mergedStatus('ACCEPTED', 'OPENED')).toBe('ACCEPTED');
    expect(mergedStatus('ACCEPTED', 'CANCELED')).toBe('CANCELED');
  });
});
