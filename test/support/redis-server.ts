import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from '@keyv/redis';

/** The Redis server every machine of this project has (never restarted by tests: use a prefix). */
export const SHARED_REDIS_URL = 'redis://127.0.0.1:6379';

/** A key prefix of one's own for a test run on the shared Redis. */
export function testNamespace(label: string): string {
  return `pix-ops-test-${label}-${process.pid}-${Date.now().toString(36)}`;
}

/** Every key of a prefix (SCAN, not KEYS: KEYS blocks the shared server while it walks all of it). */
export async function keysOf(url: string, prefix: string): Promise<string[]> {
  const client = createClient({ url });
  await client.connect();
  const found: string[] = [];
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) found.push(...keys);
  } finally {
    await client.close();
  }
  return found;
}

/** Deletes every key of a prefix (SCAN, not KEYS: the shared server may hold others' keys). */
export async function deleteKeys(url: string, prefix: string): Promise<number> {
  const client = createClient({ url });
  await client.connect();
  let deleted = 0;
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
      if (keys.length) deleted += await client.del(keys);
    }
  } finally {
    await client.close();
  }
  return deleted;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A Redis server of the test's own, on a free port, that can be stopped, restarted and paused (never
 * do that to the shared one). Its data is kept in an append-only file, so a restart keeps the state,
 * as a production Redis with persistence does.
 */
export class OwnRedis {
  private child: ChildProcess | undefined;
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-redis-'));

  private constructor(
    readonly port: number,
    private readonly settings: string[],
  ) {}

  /** `settings`: more of redis-server's arguments, after (and over) the defaults (`--maxmemory-policy allkeys-lru`). */
  static async start(settings: string[] = []): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort(), settings);
    await redis.resume();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts (again) on the same port and data folder; resolves when it accepts connections. */
  async resume(): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--dir',
        this.dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
        '--daemonize',
        'no',
        ...this.settings,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 10_000);
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}):\n${out}`));
      });
    });
    child.removeAllListeners('exit');
  }

  /** Shuts the server down (its data stays in the folder for `resume`). */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGCONT');
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  /** Freezes the server: connections stay open, nothing is answered (a hung Redis). */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  unpause(): void {
    this.child?.kill('SIGCONT');
  }

  async close(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
