/**
 * The document engine over HTTP against a real server, on PGlite and on PostgreSQL: reads,
 * queries (every operator, orderings, limits, cursors, collection groups), counts, writes, the
 * data rules and messages of PRODUCT.md section 6, and the audit log.
 */
import { MESSAGES } from '@nemuri/shared/documents/errors';
import { DELETE_FIELD } from '@nemuri/shared/documents/update';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserClient } from '../testing/browserClient.ts';
import { describePostgres } from '../testing/postgres.ts';
import { demoAccount, ok, signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from './testing.ts';

type Body = Record<string, unknown>;

function documentsWork(choice: DatabaseChoice): void {
  let test: TestServer;
  let dev: DocumentsClient;

  beforeAll(async () => {
    test = await startTestServer(choice);
    // A senior developer (101): the tests write master data too, which level 100 only reads.
    dev = await signedIn(test.server, 'senior@example.com');
    const rooms = [
      { id: 'q1', name: 'alpha', floor: '1F', sortOrder: 3, ownerUids: ['u1', 'u2'], status: 'active' },
      { id: 'q2', name: 'bravo', floor: '1F', sortOrder: 1, ownerUids: ['u2'], status: 'vacant' },
      { id: 'q3', name: 'charlie', floor: '2F', sortOrder: 2, ownerUids: [], status: 'active' },
      { id: 'q4', name: 'delta', floor: '2F', sortOrder: 5, status: 'inactive' },
      { id: 'q5', name: 'echo', floor: '3F', ownerUids: ['u3'], status: 'active' },
    ];
    for (const { id, ...room } of rooms) ok(await dev.setDocument(`rooms/${id}`, { domainId: 'qdomain', ...room }));
  });
  afterAll(async () => {
    await test?.stop();
  });

  const ids = (query: Body) =>
    dev.ids({
      collection: 'rooms',
      where: [['domainId', '==', 'qdomain'], ...((query.where as unknown[]) ?? [])],
      ...(query.orderBy ? { orderBy: query.orderBy } : {}),
      ...(query.limit ? { limit: query.limit } : {}),
      ...(query.limitToLast ? { limitToLast: query.limitToLast } : {}),
      ...(query.startAfter ? { startAfter: query.startAfter } : {}),
    });

  it('answers 401 unauthenticated to every operation when signed out', async () => {
    const anonymous = new BrowserClient(test.server.url);
    const calls = [
      anonymous.get('/api/documents/rooms/q1'),
      anonymous.send('PUT', '/api/documents/rooms/z', JSON.stringify({ data: { domainId: 'd', name: 'n' } }), { 'content-type': 'application/json' }),
      anonymous.send('PATCH', '/api/documents/rooms/q1', JSON.stringify({ data: { name: 'x' } }), { 'content-type': 'application/json' }),
      anonymous.send('DELETE', '/api/documents/rooms/q1', undefined),
      anonymous.post('/api/documents/query', { query: { collection: 'rooms' } }),
      anonymous.post('/api/documents/count', { query: { collection: 'rooms' } }),
      anonymous.post('/api/documents/lookup', { collection: 'rooms', field: 'name', value: 'alpha' }),
    ];
    for (const reply of await Promise.all(calls)) expect([reply.status, reply.body]).toEqual([401, { code: 'unauthenticated', message: MESSAGES.signedOut }]);
  });

  it('sets the common fields on read; createdAt stays, updatedAt moves; they are never writable', async () => {
    const created = ok(await dev.setDocument('rooms/c1', { domainId: 'cdomain', name: 'one' })).body as { document: Body };
    expect(created.document).toEqual({
      domainId: 'cdomain',
      name: 'one',
      documentReferenceId: 'c1',
      documentPath: 'rooms/c1',
      createdAt: expect.stringMatching(/Z$/),
      updatedAt: created.document.createdAt,
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const updated = (ok(await dev.updateDocument('rooms/c1', { name: 'two' })).body as { document: Body }).document;
    expect(updated.createdAt).toBe(created.document.createdAt);
    expect(Date.parse(updated.updatedAt as string)).toBeGreaterThan(Date.parse(created.document.createdAt as string));
    expect((ok(await dev.getDocument('rooms/c1')).body as { document: Body }).document).toEqual(updated);
    for (const field of ['createdAt', 'updatedAt', 'documentReferenceId', 'documentPath']) {
      const reply = await dev.updateDocument('rooms/c1', { [field]: '2020-01-01T00:00:00Z' });
      expect([reply.status, reply.body]).toEqual([
        400,
        {
          code: 'invalid-argument',
          message: `Unrecognized key(s) in object: '${field}'`,
          issues: [{ path: [], message: `Unrecognized key(s) in object: '${field}'` }],
        },
      ]);
    }
    expect((await dev.getDocument('rooms/none')).body).toEqual({ code: 'not-found', message: 'No document at rooms/none' });
  });

  const invalid: [string, string, Body, string][] = [
    ['missing field', 'rooms/v', { name: 'A' }, 'Required'],
    ['wrong type', 'rooms/v', { domainId: 'd', name: 5 }, 'Expected string, received number'],
    ['empty string', 'rooms/v', { domainId: 'd', name: '' }, 'String must contain at least 1 character(s)'],
    ['unknown key', 'rooms/v', { domainId: 'd', name: 'A', colour: 'red' }, "Unrecognized key(s) in object: 'colour'"],
    ['bad enum', 'rooms/v', { domainId: 'd', name: 'A', status: 'x' }, "Invalid enum value. Expected 'active' | 'vacant' | 'inactive', received 'x'"],
    ['bad email', 'domains/d/staff/v', { displayName: 'A', email: 'no', accessLevel: 2 }, 'Invalid email'],
    ['below minimum', 'domains/d/staff/v', { displayName: 'A', email: 'a@b.jp', accessLevel: -1 }, 'Number must be greater than or equal to 0'],
    ['latitude', 'domains/v', { name: 'A', kind: 'facility', location: { latitude: -91, longitude: 0 } }, MESSAGES.latitude],
    ['longitude', 'domains/v', { name: 'A', kind: 'facility', location: { latitude: 0, longitude: 181 } }, MESSAGES.longitude],
    ['bad base64', 'deviceTypes/v', { name: 'A', model: 'M', calibration: '***' }, MESSAGES.base64],
  ];
  it.each(invalid)('refuses a write with %s, with the exact message', async (_what, path, data, message) => {
    const reply = await dev.setDocument(path, data);
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'invalid-argument', message });
    expect((await dev.getDocument(path)).status).toBe(404);
  });

  it('refuses data that is not an object, and bad paths', async () => {
    expect((await dev.setDocument('rooms/v', [1])).body).toEqual({ code: 'invalid-argument', message: MESSAGES.invalidData('setDoc') });
    expect((await dev.updateDocument('rooms/q1', 'x')).body).toEqual({ code: 'invalid-argument', message: MESSAGES.invalidData('updateDoc') });
    expect((await dev.getDocument('cats/c')).body).toEqual({ code: 'invalid-argument', message: MESSAGES.unknownCollection('cats') });
    expect((await dev.getDocument('rooms/q1/sleeps/yesterday')).body).toEqual({
      code: 'invalid-argument',
      message: MESSAGES.badDocumentPath('rooms/q1/sleeps/yesterday'),
    });
  });

  it('sets with merge, removes fields set to the delete sentinel, updates nested field paths', async () => {
    ok(await dev.setDocument('domains/m1', { name: 'M', kind: 'facility', numbers: { heartRateHigh: 120, heartRateLow: 40 }, phone: '03' }));
    const merged = (
      ok(await dev.setDocument('domains/m1', { numbers: { heartRateLow: DELETE_FIELD, respirationRateHigh: 30 }, phone: DELETE_FIELD }, true)).body as {
        document: Body;
      }
    ).document;
    expect(merged).toMatchObject({ name: 'M', numbers: { heartRateHigh: 120, respirationRateHigh: 30 } });
    expect(merged).not.toHaveProperty('phone');
    expect(merged.numbers).not.toHaveProperty('heartRateLow');
    const updated = (
      ok(await dev.updateDocument('domains/m1', { 'numbers.heartRateHigh': 110, 'numbers.respirationRateHigh': DELETE_FIELD, nameKana: null })).body as {
        document: Body;
      }
    ).document;
    expect(updated).toMatchObject({ numbers: { heartRateHigh: 110 }, nameKana: null });
    expect(updated.numbers).toEqual({ heartRateHigh: 110 });
    const replaced = (ok(await dev.setDocument('domains/m1', { name: 'N', kind: 'agency' })).body as { document: Body }).document;
    expect(replaced).not.toHaveProperty('numbers');
    expect((await dev.updateDocument('domains/none', { name: 'x' })).body).toEqual({ code: 'not-found', message: MESSAGES.notFound('domains/none') });
  });

  it('refuses an update with an empty id: logged, empty result', async () => {
    const reply = await dev.updateDocument('rooms/', { name: 'x' });
    expect([reply.status, reply.body]).toEqual([200, {}]);
    expect(test.logLines.join('')).toContain('update refused: the document id is empty');
  });

  it('reads a record failing its schema as its id and path only, in get and query', async () => {
    await test.server.database.query(
      `insert into documents (path, collection, collection_group, parent_path, id, data, created_at, updated_at) values ('histories/bad', 'histories', 'histories', '', 'bad', '{"version": 3}', now(), now())`,
    );
    expect((ok(await dev.getDocument('histories/bad')).body as { document: Body }).document).toEqual({
      documentReferenceId: 'bad',
      documentPath: 'histories/bad',
    });
    expect((ok(await dev.query({ collection: 'histories' })).body as { documents: Body[] }).documents).toContainEqual({
      documentReferenceId: 'bad',
      documentPath: 'histories/bad',
    });
  });

  const filters: [string, unknown[], string[]][] = [
    ['==', ['floor', '==', '1F'], ['q1', 'q2']],
    ['!= (leaves out records without the field)', ['sortOrder', '!=', 3], ['q2', 'q3', 'q4']],
    ['<', ['sortOrder', '<', 3], ['q2', 'q3']],
    ['<=', ['sortOrder', '<=', 3], ['q1', 'q2', 'q3']],
    ['>', ['sortOrder', '>', 2], ['q1', 'q4']],
    ['>=', ['sortOrder', '>=', 2], ['q1', 'q3', 'q4']],
    ['> on strings', ['name', '>', 'charlie'], ['q4', 'q5']],
    ['< does not cross types', ['name', '<', 5], []],
    ['in', ['status', 'in', ['vacant', 'inactive']], ['q2', 'q4']],
    ['not-in', ['status', 'not-in', ['active']], ['q2', 'q4']],
    ['array-contains', ['ownerUids', 'array-contains', 'u2'], ['q1', 'q2']],
    ['array-contains-any', ['ownerUids', 'array-contains-any', ['u1', 'u3']], ['q1', 'q5']],
  ];
  it.each(filters)('filters with %s', async (_what, filter, expected) => {
    expect((await ids({ where: [filter] })).sort()).toEqual(expected);
  });

  it('orders by several fields, limits, limits to the last N, and pages after a cursor', async () => {
    expect(await ids({ orderBy: [['floor', 'desc'], ['name']] })).toEqual(['q5', 'q3', 'q4', 'q1', 'q2']);
    expect(await ids({ orderBy: [['sortOrder']] })).toEqual(['q2', 'q3', 'q1', 'q4']);
    expect(await ids({ orderBy: [['sortOrder']], limit: 2 })).toEqual(['q2', 'q3']);
    expect(await ids({ orderBy: [['sortOrder']], limitToLast: 2 })).toEqual(['q1', 'q4']);
    expect(await ids({ orderBy: [['sortOrder']], startAfter: [2] })).toEqual(['q1', 'q4']);
    expect(await ids({ orderBy: [['floor'], ['name', 'desc']], startAfter: { document: 'rooms/q2' } })).toEqual(['q1', 'q4', 'q3', 'q5']);
    expect(await ids({ orderBy: [['floor']], startAfter: { document: 'rooms/q1' } })).toEqual(['q2', 'q3', 'q4', 'q5']);
    expect(await ids({ orderBy: [['sortOrder', 'desc']], startAfter: [3], limitToLast: 1 })).toEqual(['q2']);
  });

  it('orders, filters and pages by the server-set createdAt and updatedAt', async () => {
    const times: string[] = [];
    for (const id of ['t1', 't2', 't3']) {
      const written = ok(await dev.setDocument(`rooms/${id}`, { domainId: 'tdomain', name: id })).body as { document: Body };
      times.push(written.document.createdAt as string);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    ok(await dev.updateDocument('rooms/t1', { name: 't1 again' }));
    const byTime = ({ where = [], ...rest }: Body) =>
      dev.ids({ collection: 'rooms', where: [['domainId', '==', 'tdomain'], ...(where as unknown[])], ...rest });
    expect(await byTime({ orderBy: [['createdAt', 'desc']] })).toEqual(['t3', 't2', 't1']);
    expect(await byTime({ orderBy: [['updatedAt', 'desc']], limit: 1 })).toEqual(['t1']);
    expect(await byTime({ where: [['createdAt', '>=', times[1]]], orderBy: [['createdAt']] })).toEqual(['t2', 't3']);
    expect(await byTime({ where: [['createdAt', '==', times[0]]] })).toEqual(['t1']);
    expect(await byTime({ orderBy: [['createdAt']], startAfter: { document: 'rooms/t1' } })).toEqual(['t2', 't3']);
    expect(await byTime({ orderBy: [['createdAt']], startAfter: [times[1]] })).toEqual(['t3']);
  });

  it('pages 50 records by default, and counts', async () => {
    for (let index = 0; index < 55; index++)
      ok(await dev.setDocument(`histories/h${String(index).padStart(2, '0')}`, { version: `1.0.${index}`, date: '2026-01-01', title: 't', body: '' }));
    const first = await dev.ids({ collection: 'histories', where: [['title', '==', 't']] });
    expect(first).toHaveLength(50);
    expect(await dev.ids({ collection: 'histories', where: [['title', '==', 't']], startAfter: { document: `histories/${first[49]}` } })).toHaveLength(5);
    expect((ok(await dev.count({ collection: 'histories', where: [['title', '==', 't']] })).body as Body).count).toBe(55);
    expect((ok(await dev.count({ collection: 'histories', where: [['title', '==', 't']], limit: 10 })).body as Body).count).toBe(10);
    expect(
      (
        ok(
          await dev.count({
            collection: 'rooms',
            where: [
              ['domainId', '==', 'qdomain'],
              ['floor', '==', '2F'],
            ],
          }),
        ).body as Body
      ).count,
    ).toBe(2);
  });

  it('queries a collection group across parents, and a child collection alone', async () => {
    const sleep = { source: 'live', totalSleepMin: 400 };
    ok(await dev.setDocument('rooms/q1/sleeps/2026-01-01', sleep));
    ok(await dev.setDocument('rooms/q1/sleeps/2026-01-02', { ...sleep, totalSleepMin: 300 }));
    ok(await dev.setDocument('rooms/q2/sleeps/2026-01-01', sleep));
    const group = (ok(await dev.query({ collection: 'sleeps', collectionGroup: true, where: [['totalSleepMin', '==', 400]] })).body as { documents: Body[] })
      .documents;
    expect(group.map((document) => document.documentPath)).toEqual(['rooms/q1/sleeps/2026-01-01', 'rooms/q2/sleeps/2026-01-01']);
    expect(await dev.ids({ collection: 'rooms/q1/sleeps' })).toEqual(['2026-01-01', '2026-01-02']);
    expect((ok(await dev.count({ collection: 'sleeps', collectionGroup: true })).body as Body).count).toBe(3);
  });

  it('looks up by a unique field (limit 1) and refuses a duplicate', async () => {
    ok(await dev.setDocument('domains/u/staff/s1', { displayName: 'A', email: 'a@nemuri.jp', accessLevel: 2 }));
    const found = (ok(await dev.lookup({ collection: 'staff', collectionGroup: true, field: 'email', value: 'a@nemuri.jp' })).body as { document: Body })
      .document;
    expect(found.documentPath).toBe('domains/u/staff/s1');
    expect((ok(await dev.lookup({ collection: 'rooms', field: 'name', value: 'nobody' })).body as Body).document).toBeNull();
    const duplicate = await dev.setDocument('domains/v/staff/s2', { displayName: 'B', email: 'a@nemuri.jp', accessLevel: 2 });
    expect([duplicate.status, duplicate.body]).toEqual([400, { code: 'invalid-argument', message: MESSAGES.notUnique('email') }]);
    ok(await dev.setDocument('domains/u/staff/s1', { displayName: 'A2', email: 'a@nemuri.jp', accessLevel: 2 }));
  });

  const badQueries: [string, Body, string][] = [
    [
      'two !=',
      {
        where: [
          ['a', '!=', 1],
          ['b', '!=', 1],
        ],
      },
      MESSAGES.moreThanOneNotEqual,
    ],
    [
      'two not-in',
      {
        where: [
          ['a', 'not-in', [1]],
          ['b', 'not-in', [1]],
        ],
      },
      MESSAGES.moreThanOneNotIn,
    ],
    [
      '!= and not-in',
      {
        where: [
          ['a', '!=', 1],
          ['b', 'not-in', [1]],
        ],
      },
      MESSAGES.notInWithNotEqual,
    ],
    ['empty in', { where: [['a', 'in', []]] }, MESSAGES.emptyIn('in')],
    ['limitToLast without orderBy', { limitToLast: 1 }, MESSAGES.limitToLastNeedsOrder],
    ['empty field path', { orderBy: [['']] }, MESSAGES.emptyFieldPath('')],
    ['a field path with ~', { where: [['a~b', '==', 1]] }, MESSAGES.badFieldPath('a~b')],
  ];
  it.each(badQueries)('refuses a query with %s, in queries and counts', async (_what, query, message) => {
    for (const reply of [await dev.query({ collection: 'rooms', ...query }), await dev.count({ collection: 'rooms', ...query })]) {
      expect([reply.status, reply.body]).toEqual([400, { code: 'invalid-argument', message }]);
    }
  });

  it('records every write in auditLogs: who, when, path, operation, changed keys', async () => {
    ok(await dev.setDocument('rooms/a1', { domainId: 'adomain', name: 'x' }));
    ok(await dev.updateDocument('rooms/a1', { floor: '9F', name: 'y' }));
    ok(await dev.deleteDocument('rooms/a1'));
    expect((await dev.getDocument('rooms/a1')).status).toBe(404);
    const logs = (ok(await dev.query({ collection: 'auditLogs', where: [['path', '==', 'rooms/a1']], orderBy: [['when']] })).body as { documents: Body[] })
      .documents;
    const uid = ((await dev.me()) as { uid: string }).uid;
    expect(logs.map(({ who, path, operation, changedKeys }) => ({ who, path, operation, changedKeys }))).toEqual([
      { who: uid, path: 'rooms/a1', operation: 'create', changedKeys: ['domainId', 'name'] },
      { who: uid, path: 'rooms/a1', operation: 'update', changedKeys: ['floor', 'name'] },
      { who: uid, path: 'rooms/a1', operation: 'delete', changedKeys: ['domainId', 'floor', 'name'] },
    ]);
    expect(demoAccount('developer@example.com').accessLevel).toBe(100);
    const write = await dev.setDocument(`auditLogs/${String(logs[0]?.documentReferenceId)}`, {
      who: 'x',
      when: '2026-01-01T00:00:00Z',
      path: 'p',
      operation: 'set',
      changedKeys: [],
    });
    expect([write.status, write.body]).toEqual([403, { code: 'permission-denied', message: MESSAGES.outOfScope }]);
  });
}

describe('documents on PGlite in memory', () => {
  documentsWork('pglite');
});

describePostgres('documents on PostgreSQL', () => {
  documentsWork('postgresql');
});
