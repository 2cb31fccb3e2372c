#!/usr/bin/env node
/*
 * CI, after the tests: what a team deploys, without the build tools. package.json, package-lock.json and
 * the built dist/ go into a fresh folder, `npm ci --omit=dev` installs there (the same command as the
 * Dockerfile's production stage), and the bot is started from that folder as `npm start` starts it:
 *   - HTTP mode on PostgreSQL (compose.yml's store; its migrations run at start), with the built-in
 *     sandbox and the product's own Slack stand-in (from that folder's dist/): /healthz, /readyz, a signed
 *     `/pix help` on /slack/events, then SIGTERM and exit 0;
 *   - Socket Mode on sqlite (the default store, sqlite3's native module): `/pix help` over a local Socket
 *     Mode server, /readyz and the Dockerfile's own HEALTHCHECK command, then SIGTERM and exit 0;
 *   - nothing set: the playground serves its page.
 * Every bare import in the compiled app is also resolved from that folder, the ones loaded only in a mode
 * no start here reaches (a Redis store) included. A runtime import of a development dependency fails it.
 *
 * Cost: about two minutes of CPU, nearly all of it `npm ci --omit=dev` building sqlite3 from source (where
 * no prebuilt binary can be downloaded); on 2 cores shared with other work (a load of 15 to 24) that took
 * 8 to 14 minutes. The starts take under a minute. Needs dist/ built (npm test builds it) and what .ci/run starts: PostgreSQL on
 * 127.0.0.1:5432 (trust, database `test`), or POSTGRES_URL.
 */
const { execFileSync, spawn } = require('node:child_process');
const { createHash } = require('node:crypto');
const { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const http = require('node:http');
const { builtinModules, createRequire } = require('node:module');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const POSTGRES_URL = process.env.POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';
/** A hang guard for each wait (a start, an answer, an exit), not a speed check. */
const DEADLINE_MS = 30_000;
const SIGNING_SECRET = 'production-install-signing-secret';
const STORE_SECRET = 'production-install-store-secret-0123456789';
const SCHEMA = `ci_production_${process.pid}`;

const started = Date.now();
const log = (line) => process.stdout.write(`[production-install ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);

class CheckFailed extends Error {}
function check(ok, what) {
  if (!ok) throw new CheckFailed(what);
}

async function waitFor(what, probe) {
  const until = Date.now() + DEADLINE_MS;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new CheckFailed(`${what} within ${DEADLINE_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The folder a team deploys, `dir`: the manifest, the lock and dist/, installed without the development dependencies. */
function productionInstall(dir) {
  check(existsSync(path.join(ROOT, 'dist', 'src', 'main.js')), 'dist/ is built (npm run build; npm test does it)');
  const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  check(/^RUN npm ci --omit=dev\b/m.test(dockerfile), "the Dockerfile's production stage runs the install checked here, npm ci --omit=dev");
  for (const file of ['package.json', 'package-lock.json']) cpSync(path.join(ROOT, file), path.join(dir, file));
  cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
  log(`npm ci --omit=dev in ${dir}`);
  try {
    execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit' });
  } catch {
    throw new CheckFailed('npm ci --omit=dev to succeed (its output is above)');
  }
  log('installed');
  const lock = JSON.parse(readFileSync(path.join(dir, 'package-lock.json'), 'utf8'));
  const devOnly = Object.entries(lock.packages).filter(([where, p]) => where && p.dev && existsSync(path.join(dir, where)));
  check(devOnly.length === 0, `no development dependency installed (found ${devOnly.map(([where]) => where).join(', ')})`);
}

/** Every package the compiled app requires (or resolves), resolved from the production folder. */
function resolveEveryImport(dir) {
  const builtins = new Set(builtinModules);
  const files = (d) =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(path.join(d, e.name)) : e.name.endsWith('.js') ? [path.join(d, e.name)] : [],
    );
  const missing = [];
  let count = 0;
  for (const part of ['src', 'commands', 'views']) {
    for (const file of files(path.join(dir, 'dist', part))) {
      const source = readFileSync(file, 'utf8');
      for (const [, spec] of source.matchAll(/\brequire(?:\.resolve)?\(\s*['"]([^'"]+)['"]/g)) {
        if (spec.startsWith('.') || spec.startsWith('node:') || builtins.has(spec)) continue;
        count++;
        try {
          createRequire(file).resolve(spec);
        } catch {
          missing.push(`${path.relative(dir, file)}: ${spec}`);
        }
      }
    }
  }
  check(
    missing.length === 0,
    `every import of the compiled app resolves without the development dependencies; missing:\n  ${missing.join('\n  ')}`,
  );
  log(`${count} package imports of dist/ resolve`);
}

/** `node dist/src/main.js` in the production folder, with only `env` (and PATH); its JSON log lines as they come. */
function startBot(dir, env) {
  const child = spawn(process.execPath, ['dist/src/main.js'], { cwd: dir, env: { PATH: process.env.PATH, ...env } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  child.stderr.on('data', (d) => {
    err += d;
  });
  const exit = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const lines = () =>
    out.split('\n').flatMap((l) => {
      try {
        return [JSON.parse(l)];
      } catch {
        return [];
      }
    });
  return {
    child,
    exit,
    output: () => `${out}${err}`,
    /** The first log line whose message starts with `text`, once it is written (or fails if the bot exits first). */
    logged: (text) =>
      waitFor(`the log line "${text}"`, () => {
        check(child.exitCode === null, `the bot is running (it exited ${child.exitCode}):\n${out}${err}`);
        return lines().find((l) => typeof l.msg === 'string' && l.msg.startsWith(text));
      }),
    async stop() {
      child.kill('SIGTERM');
      const code = await Promise.race([exit, new Promise((resolve) => setTimeout(() => resolve('still running'), DEADLINE_MS))]);
      child.kill('SIGKILL');
      check(code === 0, `the bot stops on SIGTERM with exit 0 (got ${code}):\n${err}`);
    },
  };
}

async function getJson(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(DEADLINE_MS) });
  return { status: res.status, body: await res.json() };
}

/** The product's Slack stand-in and its Slack-shaped helpers, loaded from the production folder's dist/. */
function standIn(dir) {
  const from = (file) => require(path.join(dir, 'dist', 'src', 'slack-standin', file));
  return {
    SlackStandIn: from('web-api.js').SlackStandIn,
    slashCommandBody: from('deliveries.js').slashCommandBody,
    slackSignatureHeaders: from('signing.js').slackSignatureHeaders,
  };
}

function helpCommand(slack, slashCommandBody, id) {
  return slashCommandBody({
    userId: 'U0CHECK',
    text: 'help',
    channelId: 'C0CHECK',
    responseUrl: slack.responseUrl(`check-${id}`),
    triggerId: `trigger-check-${id}`,
  });
}

async function checkHttpMode(dir) {
  const { SlackStandIn, slashCommandBody, slackSignatureHeaders } = standIn(dir);
  const slack = await new SlackStandIn().start();
  const bot = startBot(dir, {
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    HEALTH_PORT: '0',
    STORE_URL: POSTGRES_URL,
    STORE_SECRET,
    STORE_NAMESPACE: SCHEMA,
    // The receiver of the Pix service's webhooks, loaded only when set.
    PIX_EVENTS_CHANNEL: 'C0CHECK',
  });
  try {
    const { port } = await bot.logged('Pix Ops is running (HTTP');
    const health = (await bot.logged('health check on')).port;
    const healthz = await getJson(`http://127.0.0.1:${port}/healthz`);
    check(healthz.status === 200 && healthz.body.store === 'ok', `/healthz answers 200 with the store ok: ${JSON.stringify(healthz)}`);
    const readyz = await getJson(`http://127.0.0.1:${health}/readyz`);
    check(readyz.status === 200 && readyz.body.ready === true, `/readyz answers 200, ready: ${JSON.stringify(readyz)}`);
    const body = helpCommand(slack, slashCommandBody, 'http');
    const res = await fetch(`http://127.0.0.1:${port}/slack/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...slackSignatureHeaders(body, SIGNING_SECRET) },
      body,
      signal: AbortSignal.timeout(DEADLINE_MS),
    });
    const ack = await res.text();
    check(
      res.status === 200 && ack.includes('[SANDBOX]'),
      `a signed /pix help is answered with the help, in sandbox mode: ${res.status} ${ack}`,
    );
    slack.judgeAck(body, ack);
    check(slack.takeRefusals().length === 0, 'Slack would take the answer');
    await bot.stop();
    log('HTTP mode on PostgreSQL: /healthz, /readyz and a signed /pix help answered; stopped on SIGTERM');
  } finally {
    bot.child.kill('SIGKILL');
    await slack.close();
    await dropSchema(dir);
  }
}

async function dropSchema(dir) {
  const { Client, escapeIdentifier } = createRequire(path.join(dir, 'package.json'))('pg');
  const client = new Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${escapeIdentifier(SCHEMA)} CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * Just enough of Slack's Socket Mode (RFC 6455 by hand: the production install has no WebSocket server
 * library): `apps.connections.open` (the stand-in) hands out this server's URL, which says hello, sends the
 * one delivery given, answers pings and close frames; `answered` is the app's acknowledgement of it.
 */
async function socketModeServer(delivery) {
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  const sockets = new Set();
  let answer;
  server.on('upgrade', (req, socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    socket.write(frame(0x1, JSON.stringify({ type: 'hello', num_connections: 1, connection_info: { app_id: 'A0PIXOPS' } })));
    socket.write(frame(0x1, JSON.stringify(delivery)));
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (let parsed = readFrame(buffered); parsed; parsed = readFrame(buffered)) {
        buffered = buffered.subarray(parsed.length);
        if (parsed.opcode === 0x1) {
          const message = JSON.parse(parsed.payload.toString('utf8'));
          if (message.envelope_id === delivery.envelope_id) answer = message;
        }
        if (parsed.opcode === 0x9) socket.write(frame(0xa, parsed.payload));
        if (parsed.opcode === 0x8) socket.end(frame(0x8, parsed.payload));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${server.address().port}/link`,
    answered: () => waitFor('the acknowledgement over the socket', () => answer),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(resolve);
      }),
  };
}

/** A server's frame: unmasked, whole (FIN). */
function frame(opcode, data) {
  const payload = Buffer.from(data);
  const head =
    payload.length < 126
      ? Buffer.from([0x80 | opcode, payload.length])
      : Buffer.from([0x80 | opcode, 126, payload.length >> 8, payload.length & 0xff]);
  return Buffer.concat([head, payload]);
}

/** A client's frame (masked) at the start of `buf`, once it has all arrived. */
function readFrame(buf) {
  if (buf.length < 2) return undefined;
  const masked = (buf[1] & 0x80) !== 0;
  let length = buf[1] & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buf.length < 4) return undefined;
    length = buf.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buf.length < 10) return undefined;
    length = Number(buf.readBigUInt64BE(2));
    offset = 10;
  }
  const maskLength = masked ? 4 : 0;
  if (buf.length < offset + maskLength + length) return undefined;
  const mask = buf.subarray(offset, offset + maskLength);
  const payload = Buffer.from(buf.subarray(offset + maskLength, offset + maskLength + length));
  if (masked) for (let i = 0; i < payload.length; i++) payload[i] ^= mask[i % 4];
  return { opcode: buf[0] & 0x0f, payload, length: offset + maskLength + length };
}

/** The Dockerfile's HEALTHCHECK command, run as Docker runs it in the container (its exit code). */
function dockerHealthcheck(healthPort) {
  const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n\s*/g, ' ');
  const line = dockerfile.match(/^HEALTHCHECK\b.*?\bCMD (\[.*\])$/m);
  check(line, 'the Dockerfile has a HEALTHCHECK in the exec form, CMD ["node", …]');
  const [command, ...args] = JSON.parse(line[1]);
  check(command === 'node', 'the HEALTHCHECK runs node (the image has no curl)');
  try {
    execFileSync(process.execPath, args, { env: { HEALTH_PORT: String(healthPort) }, stdio: 'pipe', timeout: DEADLINE_MS });
    return 0;
  } catch (err) {
    return err.status ?? 1;
  }
}

async function checkSocketMode(dir) {
  const { SlackStandIn, slashCommandBody } = standIn(dir);
  const slack = await new SlackStandIn().start();
  const payload = Object.fromEntries(new URLSearchParams(helpCommand(slack, slashCommandBody, 'socket')));
  const socket = await socketModeServer({ envelope_id: 'check-1', type: 'slash_commands', accepts_response_payload: true, payload });
  slack.on('apps.connections.open', () => ({ ok: true, url: socket.url }));
  const data = mkdtempSync(path.join(os.tmpdir(), 'pix-ops-production-data-'));
  const bot = startBot(dir, {
    SLACK_BOT_TOKEN: slack.botToken,
    SLACK_APP_TOKEN: 'xapp-1-production-install-check',
    SLACK_API_URL: slack.apiUrl,
    HEALTH_PORT: '0',
    STORE_URL: `sqlite://${path.join(data, 'pix-ops.sqlite')}`,
  });
  try {
    await bot.logged('Pix Ops is running (Socket Mode)');
    const health = (await bot.logged('health check on')).port;
    const answer = await socket.answered();
    check(
      JSON.stringify(answer.payload ?? {}).includes('[SANDBOX]'),
      `/pix help over the socket is answered with the help: ${JSON.stringify(answer)}`,
    );
    const readyz = await getJson(`http://127.0.0.1:${health}/readyz`);
    check(
      readyz.status === 200 && readyz.body.ready === true,
      `/readyz answers 200 once the socket is connected: ${JSON.stringify(readyz)}`,
    );
    check(dockerHealthcheck(health) === 0, "the Dockerfile's HEALTHCHECK passes on a ready bot");
    await bot.stop();
    check(dockerHealthcheck(health) !== 0, "the Dockerfile's HEALTHCHECK fails when nothing answers");
    log("Socket Mode on sqlite: /pix help answered over the socket, /readyz and the Dockerfile's HEALTHCHECK pass; stopped on SIGTERM");
  } finally {
    bot.child.kill('SIGKILL');
    await socket.close();
    await slack.close();
    rmSync(data, { recursive: true, force: true });
  }
}

async function checkPlayground(dir) {
  const bot = startBot(dir, { PLAYGROUND_PORT: '0' });
  try {
    const url = await waitFor('the playground address', () => {
      check(bot.child.exitCode === null, `the playground is running:\n${bot.output()}`);
      return /playground: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(bot.output())?.[1];
    });
    const res = await fetch(url, { signal: AbortSignal.timeout(DEADLINE_MS) });
    check(res.status === 200 && (await res.text()).includes('Pix Ops playground'), `the playground serves its page: ${res.status}`);
    await bot.stop();
    log('the playground (nothing set) serves its page');
  } finally {
    bot.child.kill('SIGKILL');
  }
}

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pix-ops-production-'));
  try {
    productionInstall(dir);
    resolveEveryImport(dir);
    await checkHttpMode(dir);
    await checkSocketMode(dir);
    await checkPlayground(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  log('the production install starts and answers');
}

main().catch((err) => {
  process.stderr.write(
    `production install check failed: ${err instanceof CheckFailed ? `expected ${err.message}` : (err?.stack ?? err)}\n`,
  );
  process.exit(1);
});
