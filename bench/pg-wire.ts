import net from 'node:net';

/** One statement as it crossed the wire: its SQL (from the Parse that named it), and the database's time to answer it. */
export interface WireStatement {
  sql: string;
  /** Its parameters as sent (text format; a binary one as hex, a null as null). */
  params: Array<string | null>;
  /** From the statement's Sync (or simple Query) reaching the proxy to the database's ReadyForQuery. */
  ms: number;
}

/**
 * A TCP proxy between the app and PostgreSQL that reads the frontend/backend protocol as it passes
 * (https://www.postgresql.org/docs/current/protocol-message-formats.html) and records each statement
 * run: an Execute of the extended protocol, or a simple Query. It counts from outside the app and its
 * driver, as the database sees them: no client patched, nothing of node-postgres used. A connection
 * that asks for TLS is passed through unread (the bench's database is on loopback, without TLS).
 */
export class PgWireCounter {
  readonly statements: WireStatement[] = [];
  private readonly sockets = new Set<net.Socket>();

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<PgWireCounter> {
    let counter: PgWireCounter | undefined;
    const server = net.createServer((client) => counter!.accept(client, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    counter = new PgWireCounter(server, (server.address() as net.AddressInfo).port);
    return counter;
  }

  /** `url` (a postgres:// URL) reaching the database through this proxy. */
  through(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  private accept(client: net.Socket, target: { host: string; port: number }): void {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    const connection = new Connection(this.statements);
    client.on('data', (chunk: Buffer) => connection.fromClient(chunk));
    upstream.on('data', (chunk: Buffer) => connection.fromServer(chunk));
    client.pipe(upstream);
    upstream.pipe(client);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The protocol's version 3.0, and the requests that come instead of a startup message (no type byte either). */
const PROTOCOL_3 = 196_608;
const SSL_REQUEST = 80_877_103;
const GSSENC_REQUEST = 80_877_104;

/** One connection's protocol, read on both sides: the statements it prepares, binds, runs and is answered. */
class Connection {
  private fromClientBuffer = Buffer.alloc(0);
  private fromServerBuffer = Buffer.alloc(0);
  /** Until the startup message, the client's messages have no type byte. */
  private started = false;
  /** TLS asked for: nothing after it can be read. */
  private opaque = false;
  private readonly prepared = new Map<string, string>();
  /** The statement the last Bind named, and its parameters, which the next Execute runs. */
  private bound: { name: string; params: Array<string | null> } = { name: '', params: [] };
  /** Statements sent and not yet answered (Sync or Query sent, ReadyForQuery not yet back), oldest first. */
  private readonly waiting: Array<{ statements: Array<Omit<WireStatement, 'ms'>>; from: number }> = [];
  private batch: Array<Omit<WireStatement, 'ms'>> = [];

  constructor(private readonly out: WireStatement[]) {}

  fromClient(chunk: Buffer): void {
    if (this.opaque) return;
    this.fromClientBuffer = Buffer.concat([this.fromClientBuffer, chunk]);
    for (;;) {
      const b = this.fromClientBuffer;
      if (!this.started) {
        if (b.length < 8) return;
        const length = b.readInt32BE(0);
        if (b.length < length) return;
        const code = b.readInt32BE(4);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
          this.opaque = true;
          return;
        }
        if (code === PROTOCOL_3) this.started = true;
        this.fromClientBuffer = b.subarray(length);
        continue;
      }
      if (b.length < 5) return;
      const length = b.readInt32BE(1);
      if (b.length < 1 + length) return;
      this.clientMessage(String.fromCharCode(b[0]!), b.subarray(5, 1 + length));
      this.fromClientBuffer = b.subarray(1 + length);
    }
  }

  private clientMessage(type: string, body: Buffer): void {
    const cString = (from: number): [string, number] => {
      const end = body.indexOf(0, from);
      return [body.toString('utf8', from, end), end + 1];
    };
    if (type === 'P') {
      const [name, next] = cString(0);
      const [sql] = cString(next);
      this.prepared.set(name, sql);
    } else if (type === 'B') {
      const [, afterPortal] = cString(0);
      const [name, afterName] = cString(afterPortal);
      this.bound = { name, params: bindParams(body, afterName) };
    } else if (type === 'E') {
      this.batch.push({ sql: this.prepared.get(this.bound.name) ?? '', params: this.bound.params });
    } else if (type === 'S') {
      this.waiting.push({ statements: this.batch, from: performance.now() });
      this.batch = [];
    } else if (type === 'Q') {
      this.waiting.push({ statements: [{ sql: cString(0)[0], params: [] }], from: performance.now() });
    }
  }

  fromServer(chunk: Buffer): void {
    if (this.opaque || !this.started) return;
    this.fromServerBuffer = Buffer.concat([this.fromServerBuffer, chunk]);
    for (;;) {
      const b = this.fromServerBuffer;
      if (b.length < 5) return;
      const length = b.readInt32BE(1);
      if (b.length < 1 + length) return;
      // ReadyForQuery: the oldest statements sent are answered (the one after authentication answers none).
      if (b[0] === 0x5a) {
        const done = this.waiting.shift();
        if (done) {
          const ms = performance.now() - done.from;
          for (const statement of done.statements) this.out.push({ ...statement, ms });
        }
      }
      this.fromServerBuffer = b.subarray(1 + length);
    }
  }
}

/** A Bind message's parameter values, from `at` (after its portal and statement names): their formats, then each value. */
function bindParams(body: Buffer, at: number): Array<string | null> {
  const formats = Array.from({ length: body.readInt16BE(at) }, (_, i) => body.readInt16BE(at + 2 + 2 * i));
  let offset = at + 2 + 2 * formats.length;
  const count = body.readInt16BE(offset);
  offset += 2;
  const params: Array<string | null> = [];
  for (let i = 0; i < count; i++) {
    const length = body.readInt32BE(offset);
    offset += 4;
    if (length < 0) {
      params.push(null);
      continue;
    }
    // One format code applies to every parameter; none means text.
    const binary = (formats.length === 1 ? formats[0] : formats[i]) === 1;
    params.push(body.toString(binary ? 'hex' : 'utf8', offset, offset + length));
    offset += length;
  }
  return params;
}
