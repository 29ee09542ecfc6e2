import net from 'node:net';

/**
 * A TCP relay in front of PostgreSQL or Redis that a test can cut and restore, so that an outage
 * is simulated for one app without disturbing the server every other test shares. Cutting ends
 * every open connection (as a restart does) and stops listening (new connections are refused).
 */
export class TcpProxy {
  private server: net.Server | undefined;
  private readonly open = new Set<net.Socket>();
  port = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  static async start(target: string): Promise<TcpProxy> {
    const url = new URL(target);
    const proxy = new TcpProxy(url.hostname, Number(url.port));
    await proxy.restore();
    return proxy;
  }

  /** `target` with its host and port replaced by the relay's. */
  url(target: string): string {
    const url = new URL(target);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  async restore(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      for (const s of [client, upstream]) {
        this.open.add(s);
        s.on('close', () => {
          this.open.delete(s);
          end();
        });
        s.on('error', end);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const s of this.open) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  close(): Promise<void> {
    return this.cut();
  }
}
