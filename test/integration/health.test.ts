import { networkInterfaces } from 'node:os';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { startPixOps, type RunningApp } from '../../src/app';
import { loadConfig } from '../../src/runtime/config';
import { HealthCheck } from '../../src/runtime/health';
import { createLogger, SecretRegistry } from '../../src/runtime/logger';
import { startSandbox, type SandboxHandle } from '../../src/sandbox';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { BOT_TOKEN, startHarness, type Harness } from '../support/harness';
import { freePort } from '../support/redis-server';
import { waitFor } from '../support/wait';

const getJson = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('GET /healthz in HTTP mode (same port as /slack/events)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ POLL_SCHEDULE: '0 0 1 1 *' });
  });
  afterAll(() => h.close());

  test('200 with the store and the Pix API reachable; the probe is a scope-free read', async () => {
    const since = h.sandbox.calls.length;
    const res = await getJson(`http://127.0.0.1:${h.app.port}/healthz`);
    expect(res).toEqual({ status: 200, body: { ok: true, store: 'ok', pixApi: 'ok', mode: 'http', sandbox: false } });
    const probes = h.sandbox.calls.slice(since);
    expect(probes.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/v1/application/scopes']);

    // Cached: health checks in a burst do not reach the Pix API again.
    await Promise.all(Array.from({ length: 20 }, () => fetch(`http://127.0.0.1:${h.app.port}/healthz`).then((r) => r.arrayBuffer())));
    expect(h.sandbox.calls.length).toBe(since + 1);
  });

  test('503 when the Pix API cannot be reached (and at once: no retries, a short time limit)', async () => {
    const slack = await new SlackStandIn().start();
    const deadPort = await freePort();
    const result = loadConfig({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: 'health-signing-secret',
      PORT: '0',
      SLACK_API_URL: slack.apiUrl,
      PIX_API_URL: `http://127.0.0.1:${deadPort}`,
      PIX_APP_ID: 'app-id-for-a-dead-api',
      STORE_URL: `sqlite://${path.join(h.dataDir, 'dead-pix.sqlite')}`,
      POLL_SCHEDULE: '0 0 1 1 *',
    });
    if (!result.ok) throw new Error(result.problems.join('; '));
    const secrets = new SecretRegistry();
    const app = await startPixOps(result.config, { logger: createLogger({ level: 'silent', secrets }), secrets });
    try {
      const started = Date.now();
      const res = await getJson(`http://127.0.0.1:${app.port}/healthz`);
      expect(res).toEqual({ status: 503, body: { ok: false, store: 'ok', pixApi: 'down', mode: 'http', sandbox: false } });
      expect(Date.now() - started).toBeLessThan(2_500);
    } finally {
      await app.stop();
      await slack.close();
    }
  });
});

describe('HealthCheck', () => {
  let sandbox: SandboxHandle;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
  });
  afterAll(() => sandbox.close());

  test('caches each probe for a while, shares one probe between concurrent checks, and times out a slow API', async () => {
    let pings = 0;
    const check = new HealthCheck({
      ping: async () => (++pings, true),
      pixBaseUrl: sandbox.url,
      mainAppId: sandbox.companies.main.mainAppId,
      mode: 'socket',
      sandbox: true,
      pixTimeoutMs: 300,
      pixCacheMs: 400,
      storeCacheMs: 400,
    });
    const probes = () => sandbox.calls.filter((c) => c.path === '/api/v1/application/scopes').length;
    const reports = await Promise.all(Array.from({ length: 5 }, () => check.report()));
    expect(reports.every((r) => r.ok)).toBe(true);
    expect([probes(), pings]).toEqual([1, 1]);

    await fetch(`${sandbox.url}/sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ latencyMs: 1_000 }) });
    expect((await check.report()).pixApi).toBe('ok'); // still the cached answer
    await new Promise((r) => setTimeout(r, 450));
    const started = Date.now();
    expect(await check.report()).toEqual({ ok: false, store: 'ok', pixApi: 'down', mode: 'socket', sandbox: true });
    expect(Date.now() - started).toBeLessThan(900);
    await fetch(`${sandbox.url}/sandbox/faults`, { method: 'DELETE' });
  });
});

/**
 * Just enough of Slack's Socket Mode for the app to start: `apps.connections.open` hands out a
 * WebSocket URL on this server, which says `hello`, answers pings and close frames, and ignores the rest.
 */
class FakeSocketMode {
  private readonly server = http.createServer((_req, res) => res.writeHead(404).end());
  private readonly sockets = new Set<Socket>();
  connections = 0;

  async start(): Promise<string> {
    this.server.on('upgrade', (req, socket: Socket) => {
      this.connections++;
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
      const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      socket.write(['HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${accept}`, '', ''].join('\r\n'));
      socket.write(frame(0x1, Buffer.from(JSON.stringify({ type: 'hello', num_connections: 1, debug_info: { host: 'fake' }, connection_info: { app_id: 'A0PIXOPS' } }))));
      let buffered = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        for (;;) {
          const parsed = readFrame(buffered);
          if (!parsed) break;
          buffered = buffered.subarray(parsed.length);
          if (parsed.opcode === 0x9) socket.write(frame(0xa, parsed.payload));
          if (parsed.opcode === 0x8) {
            socket.end(frame(0x8, parsed.payload));
          }
        }
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}/link`;
  }

  /** Cuts every open socket, as a network would. */
  drop(): void {
    for (const s of this.sockets) s.destroy();
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function frame(opcode: number, payload: Buffer): Buffer {
  const head = payload.length < 126 ? Buffer.from([0x80 | opcode, payload.length]) : Buffer.from([0x80 | opcode, 126, payload.length >> 8, payload.length & 0xff]);
  return Buffer.concat([head, payload]);
}

function readFrame(buf: Buffer): { opcode: number; payload: Buffer; length: number } | undefined {
  if (buf.length < 2) return undefined;
  const opcode = buf[0]! & 0x0f;
  const masked = (buf[1]! & 0x80) !== 0;
  let len = buf[1]! & 0x7f;
  let offset = 2;
  if (len === 126) {
    if (buf.length < 4) return undefined;
    len = buf.readUInt16BE(2);
    offset = 4;
  } else if (len === 127) {
    if (buf.length < 10) return undefined;
    len = Number(buf.readBigUInt64BE(2));
    offset = 10;
  }
  const maskBytes = masked ? 4 : 0;
  if (buf.length < offset + maskBytes + len) return undefined;
  const mask = buf.subarray(offset, offset + maskBytes);
  const payload = Buffer.from(buf.subarray(offset + maskBytes, offset + maskBytes + len));
  if (masked) for (let i = 0; i < payload.length; i++) payload[i]! ^= mask[i % 4]!;
  return { opcode, payload, length: offset + maskBytes + len };
}

describe('GET /healthz in Socket Mode (HEALTH_PORT)', () => {
  test('served on HEALTH_PORT, with mode socket; closed when the app stops', async () => {
    const slack = await new SlackStandIn().start();
    const socketMode = new FakeSocketMode();
    const wsUrl = await socketMode.start();
    let slackDown = false;
    slack.on('apps.connections.open', () => (slackDown ? { ok: false, error: 'internal_error' } : { ok: true, url: wsUrl }));
    const sandbox = await startSandbox({ port: 0 });
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-health-'));
    const result = loadConfig({
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_APP_TOKEN: 'xapp-1-test-app-token-0123456789',
      SLACK_API_URL: slack.apiUrl,
      PIX_API_URL: sandbox.url,
      PIX_APP_ID: sandbox.companies.main.mainAppId,
      STORE_URL: `sqlite://${path.join(dir, 's.sqlite')}`,
      POLL_SCHEDULE: '0 0 1 1 *',
      HEALTH_PORT: '0',
    });
    if (!result.ok) throw new Error(result.problems.join('; '));
    const secrets = new SecretRegistry();
    let app: RunningApp | undefined;
    try {
      app = await startPixOps(result.config, { logger: createLogger({ level: 'silent', secrets }), secrets });
      expect(socketMode.connections).toBe(1);
      expect(app.port).toBeUndefined();
      expect(app.healthPort).toEqual(expect.any(Number));
      const res = await getJson(`http://127.0.0.1:${app.healthPort}/healthz`);
      expect(res).toEqual({ status: 200, body: { ok: true, store: 'ok', pixApi: 'ok', mode: 'socket', sandbox: false } });
      expect((await fetch(`http://127.0.0.1:${app.healthPort}/other`)).status).toBe(404);
      // /readyz follows the socket: ready when connected, not while it is down, ready again once back.
      const ready = () => fetch(`http://127.0.0.1:${app!.healthPort}/readyz`).then(async (r) => ({ status: r.status, body: await r.json() }));
      expect(await ready()).toEqual({ status: 200, body: { ready: true, store: 'ok', slack: 'ok', stopping: false } });
      slackDown = true;
      socketMode.drop();
      await waitFor('not ready while the socket is down', async () => (await ready()).status === 503, 10_000);
      expect(await ready()).toMatchObject({ body: { ready: false, slack: 'down', stopping: false } });
      slackDown = false;
      await waitFor('ready again once reconnected', async () => (await ready()).status === 200, 20_000);
      // Loopback only, unless HEALTH_HOST says otherwise: the machine's other addresses do not answer.
      expect(app.healthAddress).toBe('127.0.0.1');
      const outside = Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === 'IPv4');
      if (outside) await expect(fetch(`http://${outside.address}:${app.healthPort}/healthz`)).rejects.toThrow();
      const port = app.healthPort!;
      await app.stop();
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    } finally {
      await app?.stop();
      await socketMode.close();
      await sandbox.close();
      await slack.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
