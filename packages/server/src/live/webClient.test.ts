/**
 * The web app's document client (packages/web/src/lib/documents/client.ts), the real code, against
 * a real server on PGlite: HTTP reads, writes and transactions, and live subscriptions over one
 * shared WebSocket, including reconnecting after the connection is lost.
 */
import type { RecordOf } from '../../../web/src/lib/documents/records.ts';
import { DocumentsClient, type SocketLike } from '../../../web/src/lib/documents/client.ts';
import { DocumentError, MESSAGES } from '@nemuri/shared/documents/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { signedIn, startTestServer, type TestServer } from '../documents/testing.ts';
import { settle } from './testing.ts';

type Room = RecordOf<'rooms'>;

/** The client as a browser page of this signed-in user would have it. */
function clientFor(baseUrl: string, cookie: string, options: { idleCloseMs?: number } = {}): DocumentsClient {
  const origin = new URL(baseUrl).origin;
  return new DocumentsClient({
    baseUrl,
    fetch: (url, init) =>
      fetch(url, {
        method: init.method,
        headers: { ...init.headers, cookie, ...(init.method === 'GET' ? {} : { origin }) },
        ...(init.body === undefined ? {} : { body: init.body }),
      }),
    // ws's WebSocket has the members SocketLike names, with richer event types.
    openSocket: (url) => new WebSocket(url, { headers: { cookie } }) as unknown as SocketLike,
    reconnect: { firstMs: 50, maxMs: 200 },
    idleCloseMs: options.idleCloseMs ?? 10_000,
  });
}

/** Resolves with the first value passing the test that a subscription delivers. */
function waitFor<T>(
  subscribe: (listener: { next(value: T): void; error(error: DocumentError): void }) => () => void,
  test: (value: T) => boolean,
  timeoutMs = 10_000,
): { values: T[]; done: Promise<T>; stop: () => void } {
  const values: T[] = [];
  let stop: () => void = () => undefined;
  const done = new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out; got ${JSON.stringify(values)}`)), timeoutMs);
    let finished = false;
    stop = subscribe({
      next(value) {
        values.push(value);
        if (!finished && test(value)) {
          finished = true;
          clearTimeout(timer);
          resolve(value);
        }
      },
      error(error) {
        clearTimeout(timer);
        reject(error);
      },
    });
  });
  return { values, done, stop };
}

describe('the web document client against a real server', () => {
  let test: TestServer;
  let dev: DocumentsClient;
  let staff: DocumentsClient;

  beforeAll(async () => {
    test = await startTestServer('pglite');
    const [devHttp, staffHttp] = await Promise.all([signedIn(test.server, 'developer@example.com'), signedIn(test.server, 'staff@example.com')]);
    dev = clientFor(test.server.url, devHttp.cookieHeader, { idleCloseMs: 100 });
    staff = clientFor(test.server.url, staffHttp.cookieHeader);
  });
  afterAll(async () => {
    dev?.live.close();
    staff?.live.close();
    await test?.stop();
  });

  it('reads, queries, counts, looks up, writes and deletes', async () => {
    const written = await dev.set('rooms/wc-1', { domainId: 'wc', name: 'one', residentNote: 'note', sortOrder: 2 });
    expect(written).toMatchObject({ name: 'one', documentPath: 'rooms/wc-1' });
    const room: Room | null = await dev.get('rooms/wc-1');
    expect(room?.residentNote).toBe('note');
    // A room names only a device that exists (docs/security.md, "Document engine").
    await dev.set('devices/WC-SERIAL', { deviceTypeId: 'bed', status: 'in_use', domainId: 'wc' });
    await dev.set('rooms/wc-2', { domainId: 'wc', name: 'two', sortOrder: 1, deviceSerial: 'WC-SERIAL' });
    // undefined removes a field (PRODUCT.md section 6).
    expect(await dev.update('rooms/wc-1', { residentNote: undefined, floor: '3F' })).not.toHaveProperty('residentNote');
    await dev.set('rooms/wc-2', { status: 'vacant' }, { merge: true });
    const rooms = await dev.query({ collection: 'rooms', where: [['domainId', '==', 'wc']], orderBy: [['sortOrder']] });
    expect(rooms.map((found) => [found.name, found.status ?? null])).toEqual([
      ['two', 'vacant'],
      ['one', null],
    ]);
    expect(await dev.count({ collection: 'rooms', where: [['domainId', '==', 'wc']] })).toBe(2);
    expect((await dev.lookup('rooms', 'deviceSerial', 'WC-SERIAL'))?.documentReferenceId).toBe('wc-2');
    await dev.remove('rooms/wc-2');
    expect(await dev.get('rooms/wc-2')).toBeNull();
    expect(await dev.lookup('rooms', 'deviceSerial', 'WC-SERIAL')).toBeNull();
  });

  it('throws the API errors as DocumentError with code and message', async () => {
    await dev.set('rooms/wc-b', { domainId: 'demo-facility-b', name: 'b' });
    // Out of scope reads as missing; a collection beyond the level is refused.
    expect(await staff.get('rooms/wc-b')).toBeNull();
    await expect(staff.query({ collection: 'auditLogs' })).rejects.toMatchObject({ name: 'DocumentError', code: 'permission-denied' });
    await expect(dev.set('rooms/wc-x', { name: 'no domain' })).rejects.toMatchObject({
      code: 'invalid-argument',
      issues: [{ path: ['domainId'], message: 'Required' }],
    });
    await expect(dev.update('rooms/wc-none', { name: 'x' })).rejects.toBeInstanceOf(DocumentError);
  });

  it('runs transactions with retries, and refuses fewer than one attempt', async () => {
    await expect(dev.runTransaction(async () => undefined, { maxAttempts: 0 })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: MESSAGES.maxAttempts,
    });
    await dev.set('rooms/wc-t', { domainId: 'wc', name: 't', sortOrder: 0 });
    const increment = () =>
      dev.runTransaction(
        async (tx) => {
          const current = await tx.get('rooms/wc-t');
          tx.update('rooms/wc-t', { sortOrder: Number(current?.sortOrder) + 1 });
          return Number(current?.sortOrder) + 1;
        },
        { maxAttempts: 20 },
      );
    await Promise.all([increment(), increment(), increment()]);
    expect((await dev.get('rooms/wc-t'))?.sortOrder).toBe(3);
  });

  it('keeps records, queries and counts live over one socket, and closes it when idle', async () => {
    const sockets = test.server.app.websocketServer.clients;
    const query = { collection: 'rooms', where: [['domainId', '==', 'wc-live']], orderBy: [['name']] } as const;
    const document = waitFor<Room | null>(
      (listener) => dev.subscribeDocument('rooms/wc-live-1', listener),
      (value) => value?.name === 'first',
    );
    const list = waitFor<Room[]>(
      (listener) => dev.subscribeQuery(query, listener),
      (value) => value.map((room) => room.name).join() === 'first,second',
    );
    const count = waitFor<number>(
      (listener) => dev.subscribeCount(query, listener),
      (value) => value === 2,
    );
    await settle(200);
    expect(sockets.size).toBe(1);
    await dev.set('rooms/wc-live-1', { domainId: 'wc-live', name: 'first' });
    await dev.set('rooms/wc-live-2', { domainId: 'wc-live', name: 'second' });
    await Promise.all([document.done, list.done, count.done]);
    expect(document.values[0]).toBeNull();
    expect(count.values[0]).toBe(0);
    for (const subscription of [document, list, count]) subscription.stop();
    await settle(300);
    expect(sockets.size).toBe(0);
  });

  it('hands a failed subscription its error', async () => {
    const denied = waitFor<unknown[]>(
      (listener) => staff.subscribeQuery({ collection: 'auditLogs' }, listener),
      () => true,
    );
    await expect(denied.done).rejects.toMatchObject({ code: 'permission-denied' });
  });

  it('reconnects after losing the connection, subscribes again and catches up', async () => {
    await dev.set('rooms/wc-r', { domainId: 'wc', name: 'before' });
    const live = waitFor<Room | null>(
      (listener) => dev.subscribeDocument('rooms/wc-r', listener),
      (value) => value?.name === 'after',
    );
    await settle(200);
    expect(live.values.map((value) => value?.name)).toEqual(['before']);
    for (const socket of test.server.app.websocketServer.clients) socket.terminate();
    // Written while the client is away: the snapshot after resubscribing brings it.
    await dev.update('rooms/wc-r', { name: 'after' });
    await live.done;
    expect(dev.live.connected).toBe(true);
    live.stop();
  });
});
