import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { openStore, StoreRefusedError, StoreUnavailableError } from '../../src/store';
import { MAIN, startAppProcess } from '../support/app-process';
import { BOT_TOKEN, SIGNING_SECRET } from '../support/harness';
import { OwnRedis } from '../support/redis-server';
import { waitFor } from '../support/wait';

const SECRET = 'r'.repeat(40);

/**
 * Redis kept safe: a Redis that may evict keys is refused (the app exits 1 naming maxmemory-policy
 * and noeviction), one that keeps nothing on disk is used with a warning, and one that refuses
 * CONFIG GET is taken as it is, with a warning. Each on a redis-server of the test's own (never a
 * CONFIG SET on the shared one).
 */
describe('Redis kept safe', () => {
  const servers: OwnRedis[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });
  const redis = async (settings: string[]) => {
    const server = await OwnRedis.start(settings);
    servers.push(server);
    return server;
  };
  const warningsOf = async (url: string) => {
    const warnings: string[] = [];
    const store = await openStore({ url, secret: SECRET, namespace: 'safety', onWarning: (w) => warnings.push(w) });
    expect(await store.ping()).toBe(true);
    await store.close();
    return warnings;
  };

  test('an evicting policy is refused at start: the app exits 1 naming maxmemory-policy and noeviction, and the store is not opened', async () => {
    const evicting = await redis(['--maxmemory-policy', 'allkeys-lru']);
    await expect(openStore({ url: evicting.url, secret: SECRET })).rejects.toBeInstanceOf(StoreRefusedError);
    const child = spawn(process.execPath, [MAIN], {
      env: {
        PATH: process.env.PATH ?? '',
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        PORT: '0',
        STORE_URL: evicting.url,
        STORE_SECRET: SECRET,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stderr).toContain('STORE_URL');
    expect(stderr).toContain('maxmemory-policy is allkeys-lru');
    expect(stderr).toContain('noeviction');
  });

  test('reached only after start and found evicting: every operation refused from then on, the reason logged', async () => {
    const late = await redis(['--maxmemory-policy', 'volatile-lru']);
    await late.stop();
    const down: string[] = [];
    const store = await openStore({ url: late.url, secret: SECRET, connectWaitMs: 200, events: { onDown: (r) => down.push(r) } });
    try {
      await late.resume();
      await waitFor('the refusal', () => down.some((r) => r.includes('maxmemory-policy is volatile-lru')), 10_000);
      await expect(store.trackedRequests.get('x')).rejects.toThrow(/maxmemory-policy is volatile-lru/);
      await expect(store.trackedRequests.get('x')).rejects.toBeInstanceOf(StoreUnavailableError);
      expect(await store.ping()).toBe(false);
    } finally {
      await store.close();
    }
  });

  test('no persistence at all: used, with a warning naming it; AOF or save points: no warning', async () => {
    const bare = await redis(['--appendonly', 'no', '--save', '']);
    expect(await warningsOf(bare.url)).toEqual([
      expect.stringMatching(/keeps nothing on disk \(no persistence: appendonly no, no save points\)/),
    ]);
    const saving = await redis(['--appendonly', 'no', '--save', '900 1']);
    expect(await warningsOf(saving.url)).toEqual([]);
    // OwnRedis's default: an append-only file.
    const aof = await redis([]);
    expect(await warningsOf(aof.url)).toEqual([]);
  });

  test('a server that refuses CONFIG GET is taken as it is, with a warning in the log; the app starts', async () => {
    const managed = await redis(['--rename-command', 'CONFIG', '']);
    expect(await warningsOf(managed.url)).toEqual([
      expect.stringMatching(/^Redis refused CONFIG GET .*maxmemory-policy \(it must be noeviction\)/),
    ]);
    const app = await startAppProcess({ STORE_URL: managed.url, STORE_SECRET: SECRET, LOG_LEVEL: 'info' });
    try {
      expect(app.logs().some((l) => l.level === 40 && String(l.msg).startsWith('Redis refused CONFIG GET'))).toBe(true);
    } finally {
      await app.stop();
    }
  });
});
