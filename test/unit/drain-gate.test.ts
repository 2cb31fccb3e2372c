import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { drainGate } from '../../src/runtime/drain-gate';
import { waitFor } from '../support/wait';

interface Answer {
  status: number;
  connection: string | undefined;
  text: string;
}

/** A request on `agent`; resolves with the answer, `onHead` called once its head has come. */
function send(agent: http.Agent, url: string, onHead?: () => void): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent }, (res) => {
      onHead?.();
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A server with the gate in front: `/` answers at once; `/head-first` sends its head at once and its
 * body when released; `/later` answers only when released.
 */
async function gatedServer() {
  const served: string[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((req, res) => {
    served.push(req.url!);
    if (req.url === '/head-first') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.flushHeaders();
      void released.then(() => res.end('done'));
    } else if (req.url === '/later') void released.then(() => res.writeHead(200).end('done'));
    else res.writeHead(200).end('ok');
  });
  const gate = drainGate(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const connections = () => new Promise<number>((resolve) => server.getConnections((_e, n) => resolve(n)));
  return {
    served,
    release,
    gate,
    url,
    agent,
    connections,
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('the drain gate of a graceful stop', () => {
  test('a kept-alive connection idle at the start of the drain is closed', async () => {
    const s = await gatedServer();
    try {
      expect(await send(s.agent, `${s.url}/`)).toMatchObject({ status: 200, connection: 'keep-alive' });
      expect(await s.connections()).toBe(1);
      s.gate.close();
      await waitFor('the idle connection closed', async () => (await s.connections()) === 0, 2_000);
    } finally {
      await s.close();
    }
  });

  test('an answer still being made ends its connection (Connection: close)', async () => {
    const s = await gatedServer();
    try {
      const pending = send(s.agent, `${s.url}/later`);
      await waitFor('the request in its handler', () => s.served.length === 1, 2_000);
      s.gate.close();
      s.release();
      expect(await pending).toMatchObject({ status: 200, connection: 'close', text: 'done' });
      await waitFor('its connection closed', async () => (await s.connections()) === 0, 2_000);
    } finally {
      await s.close();
    }
  });

  test('a request that arrives after the start on a connection kept alive from before: 503, Connection: close, not served', async () => {
    const s = await gatedServer();
    try {
      // Its head was sent before the drain began, so it could not say Connection: close.
      const first = send(s.agent, `${s.url}/head-first`, () => {
        s.gate.close();
        s.release();
      });
      expect(await first).toMatchObject({ status: 200, connection: 'keep-alive', text: 'done' });
      const after = await send(s.agent, `${s.url}/`);
      expect(after.status).toBe(503);
      expect(after.connection).toBe('close');
      expect(JSON.parse(after.text)).toEqual({ error: expect.stringContaining('stopping') });
      expect(s.served).toEqual(['/head-first']);
    } finally {
      await s.close();
    }
  });
});
