import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import type { SandboxHandle } from '../../src/sandbox';
import type { SlackStandIn } from '../../src/slack-standin/web-api';
import { BOT_TOKEN } from './harness';

/** The environment of an app in Socket Mode against the stand-in and the sandbox, its sqlite file in `dir`; no poll. */
export function socketModeEnv(slack: SlackStandIn, sandbox: SandboxHandle, dir: string): Record<string, string> {
  return {
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_APP_TOKEN: 'xapp-1-test-app-token-0123456789',
    SLACK_API_URL: slack.apiUrl,
    PIX_API_URL: sandbox.url,
    PIX_APP_ID: sandbox.companies.main.mainAppId,
    STORE_URL: `sqlite://${path.join(dir, 's.sqlite')}`,
    POLL_SCHEDULE: '0 0 1 1 *',
  };
}

/**
 * Just enough of Slack's Socket Mode for the app to start: `apps.connections.open` hands out a
 * WebSocket URL on this server, which says `hello`, answers pings and close frames, and ignores the rest.
 */
export class FakeSocketMode {
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
      socket.write(
        ['HTTP/1.1 101 Switching Protocols', 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Accept: ${accept}`, '', ''].join(
          '\r\n',
        ),
      );
      socket.write(
        frame(
          0x1,
          Buffer.from(
            JSON.stringify({ type: 'hello', num_connections: 1, debug_info: { host: 'fake' }, connection_info: { app_id: 'A0PIXOPS' } }),
          ),
        ),
      );
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
  const head =
    payload.length < 126
      ? Buffer.from([0x80 | opcode, payload.length])
      : Buffer.from([0x80 | opcode, 126, payload.length >> 8, payload.length & 0xff]);
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
