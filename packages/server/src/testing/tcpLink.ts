import { createServer, connect as connectTcp, type Server, type Socket } from 'node:net';

/**
 * A TCP relay to a service (PostgreSQL, Mosquitto) that a test can cut: every connection through it
 * ends at once and new ones are refused until it is restored. An outage of the service as one server
 * sees it, without stopping the service that other tests share. It can also stall: connections stay
 * open but nothing crosses them (a database that stopped answering, or one so slow that a write
 * takes as long as the test likes) until it resumes, when what was held goes through in order.
 */
export class TcpLink {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #up = true;
  #stalled = false;

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
      link.#relay(socket, upstream);
      link.#relay(upstream, socket);
      if (link.#stalled) for (const end of [socket, upstream]) end.pause();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return link;
  }

  /** Like `pipe`, but a stall pauses it (and a drain under a stall does not resume it). */
  #relay(from: Socket, to: Socket): void {
    from.on('data', (chunk: Buffer) => {
      if (to.write(chunk)) return;
      from.pause();
      to.once('drain', () => {
        if (!this.#stalled) from.resume();
      });
    });
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

  /** Holds everything sent either way, on open and new connections, until `resume`. */
  stall(): void {
    this.#stalled = true;
    for (const socket of this.#sockets) socket.pause();
  }

  resume(): void {
    this.#stalled = false;
    for (const socket of this.#sockets) socket.resume();
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}
