/**
 * Test support for live subscriptions: a WebSocket to `/api/live` that carries a signed-in
 * client's cookies (as the browser does) and lets a test wait for the messages it expects.
 */
import { join } from 'node:path';
import type { ServerMessage, SubscriptionId } from '@nemuri/shared/documents/live';
import WebSocket from 'ws';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import { makeTempDir } from '../testing/webDist.ts';

/**
 * A server (DEMO=1) on an existing database, e.g. a second process on the PostgreSQL schema of
 * another: both serve the same data.
 */
export async function startServerOn(databaseUrl: string): Promise<{ server: RunningServer; stop(): Promise<void> }> {
  const dir = await makeTempDir('nemuri-live-');
  const server = await startServer(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dir.path,
      DEMO: '1',
      WEB_DIST: join(dir.path, 'no-web'),
      AUTH_RATE_LIMIT_MAX: '10000',
    }),
    { logger: false },
  );
  return {
    server,
    async stop() {
      await server.stop();
      await dir.remove();
    },
  };
}

export class LiveSocket {
  readonly messages: ServerMessage[] = [];
  readonly #socket: WebSocket;
  #waiters: { test: (message: ServerMessage) => boolean; resolve: (message: ServerMessage) => void }[] = [];
  readonly closed: Promise<number>;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as ServerMessage;
      this.messages.push(message);
      this.#waiters = this.#waiters.filter((waiter) => {
        if (!waiter.test(message)) return true;
        waiter.resolve(message);
        return false;
      });
    });
    this.closed = new Promise((resolve) => socket.on('close', (code) => resolve(code)));
  }

  /**
   * Opens a socket to the server at `baseUrl` with this Cookie header (none: signed out), from a
   * page of the server's own origin as a browser would (`origin`: another page's, null for none).
   */
  static async open(
    baseUrl: string,
    cookie?: string,
    { origin = new URL(baseUrl).origin, autoPong = true }: { origin?: string | null; autoPong?: boolean } = {},
  ): Promise<LiveSocket> {
    const url = new URL('/api/live', baseUrl);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const headers: Record<string, string> = {};
    if (cookie !== undefined && cookie !== '') headers.cookie = cookie;
    if (origin !== null) headers.origin = origin;
    const socket = new WebSocket(url, { headers, autoPong });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new LiveSocket(socket);
  }

  send(message: unknown): void {
    this.#socket.send(JSON.stringify(message));
  }

  subscribe(id: SubscriptionId, target: unknown): void {
    this.send({ type: 'subscribe', id, target });
  }

  unsubscribe(id: SubscriptionId): void {
    this.send({ type: 'unsubscribe', id });
  }

  /** The messages for one subscription so far. */
  of(id: SubscriptionId): ServerMessage[] {
    return this.messages.filter((message) => message.id === id);
  }

  /** The first message from now on (or already received, when `past`) that passes the test. */
  next(test: (message: ServerMessage) => boolean, { timeoutMs = 10_000, past = false } = {}): Promise<ServerMessage> {
    if (past) {
      const found = this.messages.find(test);
      if (found !== undefined) return Promise.resolve(found);
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages).slice(-2000)}`)),
        timeoutMs,
      );
      this.#waiters.push({
        test,
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
      });
    });
  }

  /** Waits for a message of this subscription that passes the test, counting those received already. */
  until(id: SubscriptionId, test: (message: ServerMessage) => boolean = () => true, timeoutMs = 10_000): Promise<ServerMessage> {
    return this.next((message) => message.id === id && test(message), { timeoutMs, past: true });
  }

  close(): Promise<number> {
    this.#socket.close();
    return this.closed;
  }
}

/** Lets the server work through what is under way (changes, evaluations) before a test looks. */
export function settle(ms = 300): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
