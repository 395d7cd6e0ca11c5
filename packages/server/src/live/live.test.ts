/**
 * Live subscriptions over `/api/live` against a real server, on PGlite and on PostgreSQL: first
 * snapshots and changes for records, queries and counts, scope (never a record outside it),
 * unsubscribe and close, concurrent writes, and, on PostgreSQL, changes crossing from one server
 * process to another through LISTEN/NOTIFY.
 */
import { MESSAGES } from '@nemuri/shared/documents/errors';
import type { ServerMessage } from '@nemuri/shared/documents/live';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from '../documents/testing.ts';
import { createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import { LiveSocket, settle, startServerOn } from './testing.ts';

type Body = Record<string, unknown>;

const FACILITY_A = 'demo-facility-a';
const FACILITY_B = 'demo-facility-b';

function documentsOf(message: ServerMessage): Body[] {
  if (message.type !== 'snapshot' || !('documents' in message)) throw new Error(`not a query snapshot: ${JSON.stringify(message)}`);
  return message.documents;
}

function names(message: ServerMessage): string[] {
  return documentsOf(message).map((document) => String(document.name));
}

function liveWorks(choice: DatabaseChoice): void {
  let test: TestServer;
  let dev: DocumentsClient;
  let staff: DocumentsClient;
  const sockets: LiveSocket[] = [];

  const open = async (client?: DocumentsClient): Promise<LiveSocket> => {
    const socket = await LiveSocket.open(test.server.url, client?.cookieHeader);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    test = await startTestServer(choice);
    // A senior developer (101): the tests write master data too, which level 100 only reads.
    [dev, staff] = await Promise.all([signedIn(test.server, 'senior@example.com'), signedIn(test.server, 'staff@example.com')]);
  });
  afterAll(async () => {
    await Promise.all(sockets.map((socket) => socket.close()));
    await test?.stop();
  });

  it('sends a record, then its every change, and null once it is gone', async () => {
    const socket = await open(dev);
    socket.subscribe('r', { document: 'rooms/live-doc' });
    expect(await socket.until('r')).toEqual({ type: 'snapshot', id: 'r', document: null });
    ok(await dev.setDocument('rooms/live-doc', { domainId: 'live', name: 'one' }));
    const created = await socket.until('r', (message) => 'document' in message && message.document !== null);
    expect(created).toMatchObject({ type: 'snapshot', id: 'r', document: { name: 'one', documentPath: 'rooms/live-doc', documentReferenceId: 'live-doc' } });
    ok(await dev.updateDocument('rooms/live-doc', { name: 'two' }));
    await socket.until('r', (message) => 'document' in message && message.document?.name === 'two');
    ok(await dev.deleteDocument('rooms/live-doc'));
    await settle();
    expect(socket.of('r').at(-1)).toEqual({ type: 'snapshot', id: 'r', document: null });
    expect(socket.of('r').map((message) => ('document' in message ? (message.document?.name ?? null) : message.type))).toEqual([null, 'one', 'two', null]);
  });

  it('sends a query result and a count, again after each change, and nothing when the result is the same', async () => {
    const socket = await open(dev);
    const query = { collection: 'rooms', where: [['domainId', '==', 'live-q']], orderBy: [['name']] };
    socket.subscribe(1, { query });
    socket.subscribe(2, { count: query });
    expect(names(await socket.until(1))).toEqual([]);
    expect(await socket.until(2)).toEqual({ type: 'snapshot', id: 2, count: 0 });
    ok(await dev.setDocument('rooms/live-q2', { domainId: 'live-q', name: 'b' }));
    ok(await dev.setDocument('rooms/live-q1', { domainId: 'live-q', name: 'a' }));
    await socket.until(1, (message) => names(message).join() === 'a,b');
    await socket.until(2, (message) => 'count' in message && message.count === 2);
    const before = socket.messages.length;
    // Same collection, other domain: outside the query's filter, so no new result.
    ok(await dev.setDocument('rooms/live-other', { domainId: 'live-elsewhere', name: 'c' }));
    ok(await dev.setDocument('deviceTypes/live-t', { name: 'T', model: 'M' }));
    await settle();
    expect(socket.messages.slice(before)).toEqual([]);
    ok(await dev.deleteDocument('rooms/live-q2'));
    await socket.until(1, (message) => names(message).join() === 'a');
    await socket.until(2, (message) => 'count' in message && message.count === 1);
  });

  it('follows collection-group queries', async () => {
    ok(await dev.setDocument('rooms/live-g', { domainId: 'live-g', name: 'g' }));
    const socket = await open(dev);
    socket.subscribe('g', { query: { collection: 'sleeps', collectionGroup: true, where: [['source', '==', 'live-g']] } });
    expect(documentsOf(await socket.until('g'))).toEqual([]);
    ok(await dev.setDocument('rooms/live-g/sleeps/2026-01-02', { source: 'live-g' }));
    const next = await socket.until('g', (message) => documentsOf(message).length === 1);
    expect(documentsOf(next)[0]).toMatchObject({ documentPath: 'rooms/live-g/sleeps/2026-01-02' });
  });

  it('never sends a level-2 staff member a record outside their facility, and answers a room of another domain like a missing one', async () => {
    const socket = await open(staff);
    socket.subscribe('rooms', { query: { collection: 'rooms' } });
    socket.subscribe('count', { count: { collection: 'rooms' } });
    const first = await socket.until('rooms');
    const initial = await socket.until('count');
    expect(documentsOf(first).every((room) => room.domainId === FACILITY_A)).toBe(true);
    const before = socket.messages.length;
    ok(await dev.setDocument('rooms/live-b1', { domainId: FACILITY_B, name: 'in B' }));
    await settle();
    expect(socket.messages.slice(before)).toEqual([]);
    ok(await dev.setDocument('rooms/live-a1', { domainId: FACILITY_A, name: 'in A' }));
    await socket.until('rooms', (message) => names(message).includes('in A'));
    await socket.until('count', (message) => 'count' in message && initial.type === 'snapshot' && 'count' in initial && message.count === initial.count + 1);
    // Moving the room to facility B takes it out of the result.
    ok(await dev.updateDocument('rooms/live-a1', { domainId: FACILITY_B }));
    await socket.until('rooms', (message) => !names(message).includes('in A'));
    for (const message of socket.messages) {
      if (message.type === 'snapshot' && 'documents' in message) expect(message.documents.every((room) => room.domainId === FACILITY_A)).toBe(true);
    }
    socket.subscribe('other', { document: 'rooms/live-b1' });
    // Out of scope answers like a missing record (docs/security.md, "Document engine").
    expect(await socket.until('other')).toEqual({ type: 'snapshot', id: 'other', document: null });
  });

  it('follows a level-1 user’s rooms as they are given to and taken from them', async () => {
    const individual = await signedIn(test.server, 'individual@example.com');
    const { uid } = (await individual.me()) as { uid: string };
    const socket = await open(individual);
    socket.subscribe('mine', { query: { collection: 'rooms' } });
    const initial = names(await socket.until('mine'));
    expect(initial).not.toContain('given');
    ok(await dev.setDocument('rooms/live-own', { domainId: 'live-household', name: 'given', ownerUids: [uid] }));
    await socket.until('mine', (message) => names(message).includes('given'));
    ok(await dev.updateDocument('rooms/live-own', { ownerUids: [] }));
    await socket.until('mine', (message) => !names(message).includes('given'));
  });

  it('answers unauthenticated to every subscribe of a signed-out socket, and invalid-argument to a bad target', async () => {
    const anonymous = await open();
    anonymous.subscribe('a', { document: 'rooms/live-doc' });
    anonymous.subscribe('b', { query: { collection: 'rooms' } });
    expect(await anonymous.until('a')).toEqual({ type: 'error', id: 'a', code: 'unauthenticated', message: MESSAGES.signedOut });
    expect(await anonymous.until('b')).toEqual({ type: 'error', id: 'b', code: 'unauthenticated', message: MESSAGES.signedOut });
    const socket = await open(dev);
    socket.subscribe('x', { query: { collection: 'rooms', where: [['a', 'in', []]] } });
    expect(await socket.until('x')).toEqual({ type: 'error', id: 'x', code: 'invalid-argument', message: MESSAGES.emptyIn('in') });
    socket.subscribe('y', { document: 'nowhere/1' });
    expect(await socket.until('y')).toMatchObject({ type: 'error', id: 'y', code: 'invalid-argument' });
    socket.send({ type: 'hello' });
    expect(await socket.next((message) => message.id === null, { past: true })).toMatchObject({ type: 'error', code: 'invalid-argument' });
  });

  it('stops sending after unsubscribe, and forgets the subscriptions of a closed socket', async () => {
    const socket = await open(dev);
    socket.subscribe('u', { document: 'rooms/live-u' });
    await socket.until('u');
    socket.unsubscribe('u');
    await settle(100);
    ok(await dev.setDocument('rooms/live-u', { domainId: 'live', name: 'u' }));
    await settle();
    expect(socket.of('u')).toHaveLength(1);

    const results = test.server.app.liveResults;
    const before = results?.size ?? -1;
    const closing = await open(dev);
    closing.subscribe('c1', { document: 'rooms/live-closing' });
    closing.subscribe('c2', { count: { collection: 'rooms', where: [['name', '==', 'live-closing']] } });
    await closing.until('c1');
    await closing.until('c2');
    expect(results?.size).toBe(before + 2);
    await closing.close();
    await settle(100);
    expect(results?.size).toBe(before);
  });

  it('ends with the final state under concurrent writes', async () => {
    ok(await dev.setDocument('rooms/live-c', { domainId: 'live-c', name: 'c', sortOrder: 0 }));
    const socket = await open(dev);
    const other = await open(dev);
    socket.subscribe('doc', { document: 'rooms/live-c' });
    socket.subscribe('count', { count: { collection: 'rooms', where: [['domainId', '==', 'live-c']] } });
    other.subscribe('list', { query: { collection: 'rooms', where: [['domainId', '==', 'live-c']] } });
    await Promise.all([socket.until('doc'), socket.until('count'), other.until('list')]);
    const writes = Array.from({ length: 20 }, (_, index) => dev.updateDocument('rooms/live-c', { sortOrder: index + 1 }));
    const creates = Array.from({ length: 10 }, (_, index) => dev.setDocument(`rooms/live-c${index}`, { domainId: 'live-c', name: `c${index}` }));
    for (const reply of await Promise.all([...writes, ...creates])) ok(reply);
    const final = (ok(await dev.getDocument('rooms/live-c')).body as { document: Body }).document;
    await socket.until(
      'doc',
      (message) => 'document' in message && message.document?.sortOrder === final.sortOrder && message.document?.updatedAt === final.updatedAt,
    );
    await socket.until('count', (message) => 'count' in message && message.count === 11);
    await other.until('list', (message) => documentsOf(message).length === 11);
    await settle();
    expect(socket.of('doc').at(-1)).toEqual({ type: 'snapshot', id: 'doc', document: final });
  });
}

describe('live subscriptions on PGlite', () => liveWorks('pglite'));
describePostgres('live subscriptions on PostgreSQL', () => liveWorks('postgresql'));

describePostgres('live subscriptions across server processes (PostgreSQL LISTEN/NOTIFY)', () => {
  let schema: TestSchema;
  let first: Awaited<ReturnType<typeof startServerOn>>;
  let second: Awaited<ReturnType<typeof startServerOn>>;

  beforeAll(async () => {
    schema = await createTestSchema();
    // One after the other: the first migrates the schema.
    first = await startServerOn(schema.url);
    second = await startServerOn(schema.url);
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await schema?.drop();
  });

  it('delivers a write through one server to a subscriber of the other, within scope', async () => {
    const [writer, reader, staffReader] = await Promise.all([
      signedIn(first.server, 'developer@example.com'),
      signedIn(second.server, 'developer@example.com'),
      signedIn(second.server, 'staff@example.com'),
    ]);
    const socket = await LiveSocket.open(second.server.url, reader.cookieHeader);
    const staffSocket = await LiveSocket.open(second.server.url, staffReader.cookieHeader);
    try {
      socket.subscribe('doc', { document: 'rooms/x-1' });
      socket.subscribe('list', { query: { collection: 'rooms', where: [['domainId', 'in', [FACILITY_A, FACILITY_B]]] } });
      staffSocket.subscribe('list', { query: { collection: 'rooms' } });
      await Promise.all([socket.until('doc'), socket.until('list'), staffSocket.until('list')]);
      ok(await writer.setDocument('rooms/x-1', { domainId: FACILITY_B, name: 'across' }));
      await socket.until('doc', (message) => 'document' in message && message.document?.name === 'across');
      await socket.until('list', (message) => names(message).includes('across'));
      ok(await writer.setDocument('rooms/x-2', { domainId: FACILITY_A, name: 'mine' }));
      await staffSocket.until('list', (message) => names(message).includes('mine'));
      expect(
        staffSocket.messages.every(
          (message) => message.type === 'snapshot' && 'documents' in message && message.documents.every((room) => room.domainId === FACILITY_A),
        ),
      ).toBe(true);
      // The writer's own server hears its change once, from its own process, not again by NOTIFY.
      const own = await LiveSocket.open(first.server.url, writer.cookieHeader);
      try {
        own.subscribe('count', { count: { collection: 'rooms', where: [['name', '==', 'once']] } });
        await own.until('count');
        ok(await writer.setDocument('rooms/x-3', { domainId: FACILITY_A, name: 'once' }));
        await own.until('count', (message) => 'count' in message && message.count === 1);
        await settle();
        expect(own.of('count')).toHaveLength(2);
      } finally {
        await own.close();
      }
    } finally {
      await Promise.all([socket.close(), staffSocket.close()]);
    }
  });
});
