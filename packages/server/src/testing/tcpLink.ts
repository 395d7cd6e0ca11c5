import { createServer, connect as connectTcp, type Server, type Socket } from 'node:net';

/**
 * A TCP relay to a service (PostgreSQL, Mosquitto) that a test can cut: every connection through it
 * ends at once and new ones are refused until it is restored. An outage of the service as one server
 * sees it, without stopping the service that other tests share.
 */
export class TcpLink {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #up = true;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async open(targetUrl: string): Promise<TcpLink> {
    const target = new URL(targetUrl);
    const server = createServer();
    const link = new TcpLink(server);
    server.on('connection', (socket) => {
      if (!link.#up) return socket.destroy();
      const upstream = connectTcp({ host: target.hostname, port: Number(target.port || (target.protocol.startsWith('mqtt') ? 1883 : 5432)) });
      for (const end of [socket, upstream]) {
        link.#sockets.add(end);
        end.on('error', () => undefined);
        end.on('close', () => {
          link.#sockets.delete(end);
          socket.destroy();
          upstream.destroy();
        });
      }
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return link;
  }

  /** `url` (the service's URL) through this link. */
  through(url: string): string {
    const parsed = new URL(url);
    parsed.hostname = '127.0.0.1';
    parsed.port = String((this.#server.address() as { port: number }).port);
    return parsed.toString();
  }

  cut(): void {
    this.#up = false;
    for (const socket of this.#sockets) socket.destroy();
  }

  restore(): void {
    this.#up = true;
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
