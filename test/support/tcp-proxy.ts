import net from 'node:net';

/**
 * A TCP proxy on a free loopback port to a server (the shared PostgreSQL), which a test cuts and
 * restores: the network between an app and its database going away and coming back, the database
 * itself never touched. Cut, every connection through it is destroyed and every new one is closed
 * at once; restored, it forwards again on the same port.
 */
export class TcpProxy {
  private readonly sockets = new Set<net.Socket>();
  private cutOff = false;
  private frozen = false;

  private constructor(
    private readonly server: net.Server,
    readonly port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    let proxy: TcpProxy | undefined;
    const server = net.createServer((client) => proxy!.accept(client, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new TcpProxy(server, (server.address() as net.AddressInfo).port);
    return proxy;
  }

  private accept(client: net.Socket, target: { host: string; port: number }): void {
    if (this.cutOff) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      // Either side failing ends both; the error itself is the test's subject, not a crash.
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
    if (this.frozen) for (const socket of [client, upstream]) socket.pause();
  }

  /** Connections now open through the proxy. */
  get open(): number {
    return this.sockets.size / 2;
  }

  cut(): void {
    this.cutOff = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.cutOff = false;
  }

  /** Connections stay open and nothing goes through them (a database that hangs, a network that drops packets). */
  freeze(): void {
    this.frozen = true;
    for (const socket of this.sockets) socket.pause();
  }

  thaw(): void {
    this.frozen = false;
    for (const socket of this.sockets) socket.resume();
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
