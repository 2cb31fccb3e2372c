import http from 'node:http';
import net from 'node:net';
import { type Playground, startPlayground } from '../../src/playground';
import { MAX_KEPT_UPLOAD_BYTES, MAX_PAGE_CLIENTS } from '../../src/playground/server';
import { PDF } from '../support/limit-form';
import { waitFor } from '../support/wait';

/**
 * The playground's page drives a bot that holds AppIDs: it answers its own origin alone. No other web
 * page may drive it (a cross-site form or fetch) or read it (DNS rebinding: a foreign name resolved to
 * 127.0.0.1), its files are downloads (never a page of its origin), and what it keeps is bounded.
 */

let pg: Playground;
let port: number;
let host: string;
beforeAll(async () => {
  pg = await startPlayground({ port: 0, logLevel: 'silent' });
  host = new URL(pg.url).host;
  port = Number(new URL(pg.url).port);
});
afterAll(() => pg?.stop());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request with exactly these headers (a browser's, a forger's): fetch would not let a test set Host. */
function request(method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** What the page itself sends: its own origin, JSON. */
const own = (extra: Record<string, string> = {}) => ({ host, origin: `http://${host}`, 'content-type': 'application/json', ...extra });
const said = (text: string) => pg.slack.messages.filter((m) => m.text === text);
const commandsDelivered = () => pg.slack.responses.length + pg.slack.calls.length;

describe('only its own origin', () => {
  test('the page’s own requests work (127.0.0.1 and localhost)', async () => {
    const body = JSON.stringify({ user: 'U0ADMIN', channel: 'C0FINANCE', text: 'from the page' });
    expect((await request('POST', '/api/say', own(), body)).status).toBe(200);
    const local = `localhost:${port}`;
    expect((await request('POST', '/api/say', own({ host: local, origin: `http://${local}` }), body)).status).toBe(200);
    expect(said('from the page')).toHaveLength(2);
    expect((await request('GET', '/', { host })).status).toBe(200);
    expect((await request('GET', '/api/state?user=U0ADMIN', { host: local })).status).toBe(200);
  });

  test('a cross-site POST (text/plain, a form, or JSON from another origin) is refused and drives nothing', async () => {
    const before = commandsDelivered();
    const pixWrites = () => pg.sandbox.calls.filter((c) => c.method !== 'GET').length;
    const writesBefore = pixWrites();
    const command = JSON.stringify({ user: 'U0ADMIN', channel: 'C0FINANCE', text: 'account create' });
    const evil = { host, origin: 'http://evil.example' };
    const answers = await Promise.all([
      // What a cross-site fetch or form may send without asking first.
      request('POST', '/api/command', { ...evil, 'content-type': 'text/plain' }, command),
      request('POST', '/api/command', { ...evil, 'content-type': 'application/x-www-form-urlencoded' }, command),
      request('POST', '/api/command', { ...evil, 'content-type': 'application/json' }, command),
      request('POST', '/api/command', { host, origin: 'null', 'content-type': 'application/json' }, command),
      request('POST', '/api/command', { host, 'sec-fetch-site': 'cross-site', 'content-type': 'application/json' }, command),
      request('POST', '/api/sandbox/disputes', { ...evil, 'content-type': 'text/plain' }, '{}'),
      request('POST', '/api/upload?name=x.pdf', { ...evil, 'content-type': 'application/pdf' }, PDF),
    ]);
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403, 403, 403, 403]);
    expect(commandsDelivered()).toBe(before);
    expect(pixWrites()).toBe(writesBefore);
  });

  test('a POST of its own origin must be JSON (uploads: the file’s bytes, never a type a form can send)', async () => {
    const before = commandsDelivered();
    const command = JSON.stringify({ user: 'U0ADMIN', channel: 'C0FINANCE', text: 'help' });
    for (const type of [
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      expect((await request('POST', '/api/command', own({ 'content-type': type }), command)).status).toBe(415);
      expect((await request('POST', '/api/upload?name=a.pdf', own({ 'content-type': type }), PDF)).status).toBe(415);
    }
    const { 'content-type': _, ...untyped } = own();
    expect((await request('POST', '/api/command', untyped, command)).status).toBe(415);
    expect((await request('POST', '/api/upload?name=a.pdf', untyped, PDF)).status).toBe(415);
    expect(commandsDelivered()).toBe(before);
    expect((await request('POST', '/api/command', own({ 'content-type': 'application/json; charset=utf-8' }), command)).status).toBe(200);
  });

  test('another host name (DNS rebinding) reads nothing: the page, the state, the stream, files, the sandbox', async () => {
    const up = await request('POST', '/api/upload?name=proof.pdf', own({ 'content-type': 'application/pdf' }), PDF);
    const { id } = JSON.parse(up.body) as { id: string };
    for (const name of [
      `evil.example:${port}`,
      'evil.example',
      `127.0.0.1:${port + 1}`,
      `[::1]:${port}`,
      `localhost.evil.example:${port}`,
    ]) {
      for (const path of ['/', '/api/state?user=U0ADMIN', '/api/events?user=U0ADMIN', `/files/${id}/proof.pdf`, '/api/sandbox']) {
        const answer = await request('GET', path, { host: name });
        expect([path, answer.status]).toEqual([path, 403]);
        expect(answer.body).not.toContain('U0ADMIN');
      }
    }
    const post = await request('POST', '/api/say', own({ host: `evil.example:${port}`, origin: `http://evil.example:${port}` }), '{}');
    expect(post.status).toBe(403);
  });

  test('a link to the page followed from another site opens it, but never inside a frame', async () => {
    const visit = { host, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' };
    const opened = await request('GET', '/', { ...visit, 'sec-fetch-dest': 'document' });
    expect(opened.status).toBe(200);
    expect(opened.headers['x-frame-options']).toBe('DENY');
    expect(opened.headers['content-security-policy']).toBe("frame-ancestors 'none'");
    expect((await request('GET', '/', { ...visit, 'sec-fetch-dest': 'iframe' })).status).toBe(403);
    expect((await request('GET', '/api/state?user=U0ADMIN', { ...visit, 'sec-fetch-dest': 'document' })).status).toBe(403);
  });

  test('the live-update stream and the state refuse a foreign origin', async () => {
    expect((await request('GET', '/api/events?user=U0ADMIN', { host, origin: 'http://evil.example' })).status).toBe(403);
    expect((await request('GET', '/api/state?user=U0ADMIN', { host, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  });
});

describe('files served back', () => {
  const upload = async (name: string, type: string, bytes: Buffer | string, query = '') => {
    const res = await request('POST', `/api/upload?name=${encodeURIComponent(name)}${query}`, own({ 'content-type': type }), bytes);
    expect(res.status).toBe(200);
    return JSON.parse(res.body) as { id: string; file: { mimetype: string } };
  };

  test('a file is an attachment with nosniff, its type from the allow-list (never from the query string)', async () => {
    const html = '<html><script>alert(document.domain)</script></html>';
    const forged = await upload('page.html', 'application/octet-stream', html, '&type=text%2Fhtml');
    expect(forged.file.mimetype).toBe('application/octet-stream');
    const asHtml = await upload('page.html', 'text/html', html);
    expect(asHtml.file.mimetype).toBe('application/octet-stream');
    for (const { id } of [forged, asHtml]) {
      const served = await request('GET', `/files/${id}/page.html`, { host });
      expect(served.status).toBe(200);
      expect(served.headers['content-type']).toBe('application/octet-stream');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-disposition']).toMatch(/^attachment; filename=/);
    }
    const pdf = await upload('proof.pdf', 'application/pdf', PDF);
    expect(pdf.file.mimetype).toBe('application/pdf');
    const served = await request('GET', `/files/${pdf.id}/proof.pdf`, { host });
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toBe(`attachment; filename="proof.pdf"; filename*=UTF-8''proof.pdf`);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });

  test('a name with quotes or line breaks cannot break out of Content-Disposition', async () => {
    const { id } = await upload('a"b\r\nc.pdf', 'application/pdf', PDF);
    const served = await request('GET', `/files/${id}/x`, { host });
    expect(served.status).toBe(200);
    expect(served.headers['content-disposition']).toBe(`attachment; filename="a_b__c.pdf"; filename*=UTF-8''a%22b%0D%0Ac.pdf`);
  });
});

describe('what it keeps is bounded', () => {
  test('uploads: past the cap on kept bytes, the oldest are dropped', async () => {
    const size = 20 * 1024 * 1024;
    const ids: string[] = [];
    const count = Math.floor(MAX_KEPT_UPLOAD_BYTES / size) + 1;
    for (let i = 0; i < count; i++) {
      const bytes = Buffer.concat([PDF, Buffer.alloc(size - PDF.length, i)]);
      const res = await request('POST', `/api/upload?name=big-${i}.pdf`, own({ 'content-type': 'application/pdf' }), bytes);
      expect(res.status).toBe(200);
      ids.push((JSON.parse(res.body) as { id: string }).id);
    }
    expect((await request('GET', `/files/${ids[0]}/big-0.pdf`, { host })).status).toBe(404);
    expect(pg.slack.files.has(ids[0]!)).toBe(false);
    const last = await request('GET', `/files/${ids.at(-1)}/big.pdf`, { host });
    expect(last.status).toBe(200);
    let kept = 0;
    for (const f of pg.slack.files.values()) kept += f.bytes.length;
    expect(kept).toBeLessThanOrEqual(MAX_KEPT_UPLOAD_BYTES);
  });

  test('live-update streams: at most MAX_PAGE_CLIENTS at once; one more is refused, a closed one frees its place', async () => {
    const sockets: net.Socket[] = [];
    const open = () =>
      new Promise<{ socket: net.Socket; head: Promise<string> }>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => {
          socket.write(`GET /api/events?user=U0ADMIN HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
          const head = new Promise<string>((done) => {
            let text = '';
            socket.on('data', (d) => {
              text += d.toString('utf8');
              if (text.includes('\r\n')) done(text.split('\r\n')[0]!);
            });
          });
          resolve({ socket, head });
        });
        socket.on('error', reject);
        sockets.push(socket);
      });
    try {
      for (let i = 0; i < MAX_PAGE_CLIENTS; i++) expect(await (await open()).head).toBe('HTTP/1.1 200 OK');
      const refused = await open();
      expect(await refused.head).toBe('HTTP/1.1 503 Service Unavailable');
      sockets[0]!.destroy();
      await waitFor('a place freed', async () => (await (await open()).head) === 'HTTP/1.1 200 OK');
    } finally {
      for (const s of sockets) s.destroy();
    }
  });
});

describe('the bot behind the page, and errors', () => {
  test('the bot’s own listener is on loopback only (not reachable on another address of the machine)', async () => {
    const botPort = pg.app.port!;
    const reach = (address: string) =>
      new Promise<boolean>((resolve) => {
        const socket = net.connect(botPort, address, () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
    expect(await reach('127.0.0.1')).toBe(true);
    // Any address but 127.0.0.1 (127.0.0.2 is this machine too): reached only by a listener on every interface.
    expect(await reach('127.0.0.2')).toBe(false);
  });

  test('a failure is answered 500 with a fixed text, never the error’s own message', async () => {
    const other = await startPlayground({ port: 0, logLevel: 'silent' });
    try {
      // The bot gone: the delivery of a command fails inside the page server.
      await other.app.stop();
      const ownHost = new URL(other.url).host;
      const res = await fetch(new URL('/api/command', other.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: `http://${ownHost}` },
        body: JSON.stringify({ user: 'U0ADMIN', channel: 'C0FINANCE', text: 'help' }),
      });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: 'internal error' });
    } finally {
      await other.stop();
    }
  });
});
