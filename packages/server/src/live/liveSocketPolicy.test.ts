/**
 * The one socket client of the web app's live channels (packages/web/src/lib/live/liveSocket.ts), the
 * real code, against a real WebSocket server: after the server closes with SESSION_CHANGED_CLOSE_CODE
 * the page re-reads who is signed in and is back at once; after a refusal by policy it waits its
 * long delay; a socket that goes silent past `staleAfterMs` is dropped and opened again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { POLICY_CLOSE_CODE, SESSION_CHANGED_CLOSE_CODE } from '@nemuri/shared/liveSockets';
import { LiveSocket, type LiveSocketOptions, type SocketLike } from '../../../web/src/lib/live/liveSocket.ts';
import { eventually } from '../ingest/faultTesting.ts';

describe('the web live socket policy', () => {
  let server: WebSocketServer;
  let url = '';
  /** Server side of every socket, in order of connection, with its time. */
  const connections: { socket: WebSocket; at: number }[] = [];
  /** Whether the server greets each new socket (a live channel answers its subscription). */
  let greet = true;

  beforeAll(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((resolve) => server.once('listening', resolve));
    url = `ws://127.0.0.1:${(server.address() as { port: number }).port}`;
    server.on('connection', (socket) => {
      connections.push({ socket, at: Date.now() });
      if (greet) socket.send('hello');
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  function open(options: Partial<LiveSocketOptions> = {}): { live: LiveSocket; events: string[] } {
    const events: string[] = [];
    const live = new LiveSocket({
      url,
      openSocket: (address) => new WebSocket(address) as unknown as SocketLike,
      wanted: () => true,
      onOpen: () => events.push('open'),
      onMessage: (data) => events.push(`message ${String(data)}`),
      onDown: () => events.push('down'),
      onSessionChanged: () => events.push('session changed'),
      reconnect: { firstMs: 50, maxMs: 200, refusedMs: 1500, jitter: 0 },
      ...options,
    });
    live.connect();
    return { live, events };
  }

  it('re-reads the session and is back at once after the server closed with 4401', async () => {
    const before = connections.length;
    const { live, events } = open();
    try {
      await eventually(() => live.connected || undefined, 'open');
      const closedAt = Date.now();
      connections.at(-1)?.socket.close(SESSION_CHANGED_CLOSE_CODE, 'session ended');
      await eventually(() => connections.length === before + 2 || undefined, 'a new socket');
      expect(events).toContain('session changed');
      expect((connections.at(-1)?.at ?? Infinity) - closedAt).toBeLessThan(500);
    } finally {
      live.dispose();
    }
  });

  it('waits the long delay after a refusal by policy', async () => {
    const before = connections.length;
    const { live } = open();
    try {
      await eventually(() => live.connected || undefined, 'open');
      const closedAt = Date.now();
      connections.at(-1)?.socket.close(POLICY_CLOSE_CODE, 'too many sockets');
      await eventually(() => connections.length === before + 2 || undefined, 'a new socket', 5000);
      expect((connections.at(-1)?.at ?? 0) - closedAt).toBeGreaterThanOrEqual(1400);
    } finally {
      live.dispose();
    }
  });

  it('drops a socket that went silent and opens another', async () => {
    greet = false;
    const before = connections.length;
    const { live, events } = open({ staleAfterMs: 1200 });
    try {
      await eventually(() => connections.length === before + 2 || undefined, 'a second socket after the silence', 6000);
      expect(events).toContain('down');
    } finally {
      live.dispose();
      greet = true;
    }
  });

  it('closes when nobody wants it, and does not come back', async () => {
    let wanted = true;
    const before = connections.length;
    const { live } = open({ wanted: () => wanted });
    await eventually(() => live.connected || undefined, 'open');
    wanted = false;
    live.close();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(live.connected).toBe(false);
    expect(connections.length).toBe(before + 1);
    live.dispose();
  });
});
