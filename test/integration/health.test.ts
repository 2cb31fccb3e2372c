import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RunningApp, startPixOps } from '../../src/app';
import { loadConfig } from '../../src/runtime/config';
import { HealthCheck } from '../../src/runtime/health';
import { createLogger, SecretRegistry } from '../../src/runtime/logger';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { BOT_TOKEN, type Harness, harnessEnv, startHarness } from '../support/harness';
import { FakeSocketMode, socketModeEnv } from '../support/socket-mode';
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

  test('503 when the Pix API cannot be reached (and at once: no retries)', async () => {
    const slack = await new SlackStandIn().start();
    // A Pix API that drops every connection: it counts the attempts.
    let attempts = 0;
    const dead = net.createServer((socket) => {
      attempts++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const deadPort = (dead.address() as AddressInfo).port;
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
      const res = await getJson(`http://127.0.0.1:${app.port}/healthz`);
      expect(res).toEqual({ status: 503, body: { ok: false, store: 'ok', pixApi: 'down', mode: 'http', sandbox: false } });
      expect(attempts).toBe(1);
    } finally {
      await app.stop();
      await slack.close();
      await new Promise((resolve) => dead.close(resolve));
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
    let now = 0;
    const check = new HealthCheck({
      now: () => now,
      ping: async () => {
        ++pings;
        return true;
      },
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

    await fetch(`${sandbox.url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 1_000 }),
    });
    now = 399;
    expect((await check.report()).pixApi).toBe('ok'); // still the cached answer
    expect([probes(), pings]).toEqual([1, 1]);
    now = 400;
    // Down, not the API's late "ok": the probe gave up at its time limit (300 ms) before the answer (1 s).
    expect(await check.report()).toEqual({ ok: false, store: 'ok', pixApi: 'down', mode: 'socket', sandbox: true });
    expect([probes(), pings]).toEqual([2, 2]);
    await fetch(`${sandbox.url}/sandbox/faults`, { method: 'DELETE' });
  });
});

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
      ...socketModeEnv(slack, sandbox, dir),
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
      const ready = () =>
        fetch(`http://127.0.0.1:${app!.healthPort}/readyz`).then(async (r) => ({ status: r.status, body: await r.json() }));
      expect(await ready()).toEqual({ status: 200, body: { ready: true, store: 'ok', slack: 'ok', stopping: false } });
      slackDown = true;
      socketMode.drop();
      await waitFor('not ready while the socket is down', async () => (await ready()).status === 503, 10_000);
      expect(await ready()).toMatchObject({ body: { ready: false, slack: 'down', stopping: false } });
      slackDown = false;
      await waitFor('ready again once reconnected', async () => (await ready()).status === 200, 20_000);
      // Loopback only, unless HEALTH_HOST says otherwise: the machine's other addresses do not answer.
      expect(app.healthAddress).toBe('127.0.0.1');
      // Linux answers all of 127.0.0.0/8 on loopback: another of its addresses reaches a server bound
      // to every address (shown first, so that the refusal below is the binding's doing).
      const everywhere = http.createServer((_req, res) => res.end('ok'));
      await new Promise<void>((resolve) => everywhere.listen(0, '0.0.0.0', resolve));
      try {
        expect((await fetch(`http://127.0.0.2:${(everywhere.address() as AddressInfo).port}/`)).status).toBe(200);
      } finally {
        await new Promise((resolve) => everywhere.close(resolve));
      }
      await expect(fetch(`http://127.0.0.2:${app.healthPort}/healthz`)).rejects.toThrow();
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

describe('a start that fails late (HEALTH_PORT taken)', () => {
  test('is refused, and what it had opened is closed: the Slack port is free again and the sandbox it started answers no more', async () => {
    const slack = await new SlackStandIn().start();
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-late-failure-'));
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const free = net.createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const slackPort = (free.address() as AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    // Sandbox mode (no PIX_API_URL): the start opens the sandbox, the store and Bolt's server before the health listener.
    const { PIX_API_URL: _url, PIX_APP_ID: _app, ...env } = harnessEnv({ slack, dataDir: dir });
    const result = loadConfig({ ...env, PORT: String(slackPort), HEALTH_PORT: String((taken.address() as AddressInfo).port) });
    if (!result.ok) throw new Error(result.problems.join('; '));
    const secrets = new SecretRegistry();
    const logs: string[] = [];
    const logger = createLogger({ level: 'info', secrets, destination: { write: (line: string) => void logs.push(line) } });
    try {
      await expect(startPixOps(result.config, { logger, secrets })).rejects.toThrow(/EADDRINUSE/);
      // Bolt's server had been listening on PORT (its log says so): it is closed.
      expect(logs.some((l) => l.includes(`"port":${slackPort}`))).toBe(true);
      const again = net.createServer();
      await new Promise<void>((resolve, reject) => again.once('error', reject).listen(slackPort, '127.0.0.1', resolve));
      await new Promise((resolve) => again.close(resolve));
      const sandboxUrl = logs.map((l) => /"pixApiUrl":"([^"]+)"/.exec(l)?.[1]).find(Boolean);
      expect(sandboxUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await expect(fetch(`${sandboxUrl}/sandbox/info`)).rejects.toThrow();
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      await slack.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
