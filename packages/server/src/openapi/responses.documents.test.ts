/**
 * The documented answers of the document engine's generic routes (/api/documents) are the real ones
 * (responseConformance.ts): records read, written, updated, deleted, queried, counted, looked up and
 * committed by a facility's staff and administrator; a record refused with its schema problems
 * (`issues`), a stale transaction, another tenant's record answered like a missing one, a signed-out
 * caller and a body of the wrong type give the errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserClient } from '../testing/browserClient.ts';
import { FACILITY_A as A, FACILITY_OTHER as OTHER, startConformanceServer, SYSTEM as system, type ConformanceServer } from './responseConformance.ts';

const RECORD = '/api/documents/*';

describe('documented response schemas match the answers: documents', () => {
  let running: ConformanceServer;
  const conforms: ConformanceServer['conforms'] = (method, route, reply) => running.conforms(method, route, reply);
  const json = (who: BrowserClient, method: string, path: string, body: unknown) =>
    who.send(method, path, JSON.stringify(body), { 'content-type': 'application/json' });

  beforeAll(async () => {
    running = await startConformanceServer('nemuri-responses-documents-');
    await running.store.set(system, 'rooms/rd-a1', { domainId: A, name: '301号室' }, false);
    await running.store.set(system, 'rooms/rd-o1', { domainId: OTHER, name: '別施設の部屋' }, false);
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('a record read, written, updated and deleted; refused, missing, out of scope and signed out', async () => {
    const admin = await running.client('admin@example.com');
    const staff = await running.client('staff@example.com');
    const outsider = await running.client();
    const read = conforms('GET', RECORD, await staff.get('/api/documents/rooms/rd-a1'));
    expect(read.status).toBe(200);
    expect(conforms('GET', RECORD, await staff.get('/api/documents/rooms/rd-o1')).status).toBe(404);
    expect(conforms('GET', RECORD, await staff.get('/api/documents/rooms/rd-none')).status).toBe(404);
    conforms('GET', RECORD, await staff.get('/api/documents/no-such-collection/x'));
    conforms('GET', RECORD, await outsider.get('/api/documents/rooms/rd-a1'));

    expect(conforms('PUT', RECORD, await json(admin, 'PUT', '/api/documents/rooms/rd-a2', { data: { domainId: A, name: '302号室' } })).status).toBe(200);
    const refused = conforms('PUT', RECORD, await json(admin, 'PUT', '/api/documents/rooms/rd-a3', { data: { domainId: A, name: 7 } }));
    expect((refused.body as { issues?: unknown[] }).issues?.length).toBeGreaterThan(0);
    conforms('PUT', RECORD, await json(staff, 'PUT', '/api/documents/rooms/rd-a3', { data: { domainId: A, name: '303号室' } }));
    conforms('PUT', RECORD, await json(admin, 'PUT', '/api/documents/rooms/rd-o2', { data: { domainId: OTHER, name: '別施設' } }));
    conforms('PUT', RECORD, await admin.send('PUT', '/api/documents/rooms/rd-a3', 'name=x', { 'content-type': 'text/plain' }));
    conforms('PUT', RECORD, await json(outsider, 'PUT', '/api/documents/rooms/rd-a3', { data: { domainId: A, name: '303号室' } }));

    expect(conforms('PATCH', RECORD, await json(staff, 'PATCH', '/api/documents/rooms/rd-a2', { data: { floor: '3F' } })).status).toBe(200);
    expect(conforms('PATCH', RECORD, await json(staff, 'PATCH', '/api/documents/rooms/rd-o1', { data: { floor: '3F' } })).status).toBe(404);
    conforms('PATCH', RECORD, await json(staff, 'PATCH', '/api/documents/rooms/rd-a2', { data: { sortOrder: 'first' } }));

    expect(conforms('DELETE', RECORD, await admin.send('DELETE', '/api/documents/rooms/rd-a2', undefined)).status).toBe(200);
    conforms('DELETE', RECORD, await staff.send('DELETE', '/api/documents/rooms/rd-a1', undefined));
    conforms('DELETE', RECORD, await admin.send('DELETE', '/api/documents/rooms/rd-o1', undefined));
    conforms('DELETE', RECORD, await outsider.send('DELETE', '/api/documents/rooms/rd-a1', undefined));
  });

  it('queries, counts, look-ups and transactions; refused, stale and signed out', async () => {
    const staff = await running.client('staff@example.com');
    const outsider = await running.client();
    const query = conforms('POST', '/api/documents/query', await staff.post('/api/documents/query', { query: { collection: 'rooms' } }));
    expect((query.body as { documents: { documentPath: string }[] }).documents.map((record) => record.documentPath)).toContain('rooms/rd-a1');
    conforms('POST', '/api/documents/query', await staff.post('/api/documents/query', { query: { collection: 'rooms', where: [['name', 'like', 'x']] } }));
    conforms('POST', '/api/documents/query', await outsider.post('/api/documents/query', { query: { collection: 'rooms' } }));
    const count = conforms('POST', '/api/documents/count', await staff.post('/api/documents/count', { query: { collection: 'rooms' } }));
    expect(count.body).toEqual({ count: 1 });
    conforms('POST', '/api/documents/count', await staff.post('/api/documents/count', { query: {} }));
    conforms('POST', '/api/documents/count', await outsider.post('/api/documents/count', { query: { collection: 'rooms' } }));

    const lookup = '/api/documents/lookup';
    expect(
      (conforms('POST', lookup, await staff.post(lookup, { collection: 'rooms', field: 'name', value: '301号室' })).body as { document: unknown }).document,
    ).not.toBeNull();
    expect(conforms('POST', lookup, await staff.post(lookup, { collection: 'rooms', field: 'name', value: '別施設の部屋' })).body).toEqual({ document: null });
    conforms('POST', lookup, await staff.post(lookup, { collection: 'rooms' }));
    conforms('POST', lookup, await outsider.post(lookup, { collection: 'rooms', field: 'name', value: '301号室' }));

    const commit = '/api/documents/commit';
    const { version } = (await staff.get('/api/documents/rooms/rd-a1')).body as { version: number };
    const write = { op: 'update', path: 'rooms/rd-a1', data: { floor: '3F' } };
    expect(conforms('POST', commit, await staff.post(commit, { reads: [{ path: 'rooms/rd-a1', version }], writes: [write] })).status).toBe(200);
    expect(conforms('POST', commit, await staff.post(commit, { reads: [{ path: 'rooms/rd-a1', version }], writes: [write] })).status).toBe(409);
    conforms('POST', commit, await staff.post(commit, { reads: [], writes: [{ ...write, path: 'rooms/rd-o1' }] }));
    conforms('POST', commit, await staff.post(commit, { reads: 'all', writes: [] }));
    conforms('POST', commit, await outsider.post(commit, { reads: [], writes: [write] }));
  });

  it('covered the success answers and logged no answer off its schema', () => {
    const labels = [...running.seen];
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) expect(labels).toContain(`${method} /api/documents/{path} 200`);
    for (const route of ['query', 'count', 'lookup', 'commit']) expect(labels).toContain(`POST /api/documents/${route} 200`);
    expect(running.offSchemaLines()).toEqual([]);
  });
});
