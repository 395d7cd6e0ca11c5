import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { corkForTurn } from './turnCork.ts';

describe('socket writes coalesced per event-loop turn', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  /** A real WebSocket pair over loopback TCP; counts the TCP reads of the client. */
  async function pair(): Promise<{ server: WebSocket; client: WebSocket; reads: () => number; messages: Buffer[] }> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(wss, 'listening');
    const accepted = once(wss, 'connection') as Promise<[WebSocket]>;
    const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    await once(client, 'open');
    const [server] = await accepted;
    let reads = 0;
    (client as unknown as { _socket: NodeJS.EventEmitter })._socket.on('data', () => reads++);
    const messages: Buffer[] = [];
    client.on('message', (data: Buffer) => messages.push(data));
    closers.push(async () => {
      client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    });
    return { server, client, reads: () => reads, messages };
  }

  it('sends the first message of a turn at once and the rest of the turn in one write, in order, once the turn ends', async () => {
    const { server, reads, messages } = await pair();
    const frames = Array.from({ length: 20 }, (_, i) => Buffer.alloc(500, i));
    for (const frame of frames) {
      corkForTurn(server);
      server.send(frame, { binary: true });
    }
    // The other 19 are held until the turn ends, and counted by bufferedAmount meanwhile (the backpressure check sees them).
    expect(server.bufferedAmount).toBeGreaterThanOrEqual(19 * 500);
    await new Promise((resolve) => setImmediate(resolve));
    expect(server.bufferedAmount).toBe(0);
    while (messages.length < frames.length) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(messages).toEqual(frames);
    // 20 messages of 10 kB in all, in two writes (without the cork, 20).
    expect(reads()).toBeLessThanOrEqual(2);
  });

  it('does not hold back the one message a socket gets in a turn', async () => {
    const { server, messages } = await pair();
    corkForTurn(server);
    server.send('snapshot');
    // Written to the TCP socket already, before the turn ends.
    expect(server.bufferedAmount).toBe(0);
    while (messages.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(messages.map(String)).toEqual(['snapshot']);
  });

  it('corks again in the next turn, and leaves a closed socket alone', async () => {
    const { server, client, messages } = await pair();
    corkForTurn(server);
    server.send('first');
    await new Promise((resolve) => setImmediate(resolve));
    corkForTurn(server);
    server.send('second');
    while (messages.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(messages.map(String)).toEqual(['first', 'second']);
    client.terminate();
    await once(server, 'close');
    expect(() => corkForTurn(server)).not.toThrow();
  });
});
