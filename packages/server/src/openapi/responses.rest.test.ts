/**
 * The documented answers of the smaller route groups are the real ones (responseConformance.ts):
 * the app information the sign-in page reads, and the audit log a privilege administrator reads
 * (its CSV a file of the documented type); staff below the level, a signed-out caller, a refused
 * filter and another tenant's domain (answered like a missing one) give the errors.
 */
import { AUDIT_LOG_CSV_PATH, AUDIT_LOG_PATH } from '@nemuri/shared/auditLog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACILITY_A as A, FACILITY_OTHER as OTHER, startConformanceServer, SYSTEM as system, type ConformanceServer } from './responseConformance.ts';

const PERIOD = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 86_400_000).toISOString()}`;

describe('documented response schemas match the answers: app information and audit log', () => {
  let running: ConformanceServer;
  const conforms: ConformanceServer['conforms'] = (method, route, reply) => running.conforms(method, route, reply);

  beforeAll(async () => {
    running = await startConformanceServer('nemuri-responses-rest-');
    await running.store.set(system, 'rooms/rx-a1', { domainId: A, rootDomainId: 'demo-corp', name: '401号室' }, false);
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('app information, signed out', async () => {
    const info = conforms('GET', '/api/app-info', await (await running.client()).get('/api/app-info'));
    expect(info.status).toBe(200);
  });

  it('audit log: a page and its CSV; refused, below the level, out of scope and signed out', async () => {
    const privilege = await running.client('privilege@example.com');
    const staff = await running.client('staff@example.com');
    const outsider = await running.client();
    // A change the privilege administrator's scope holds, made through the API so that it names a person.
    expect(
      (await privilege.send('PATCH', '/api/documents/rooms/rx-a1', JSON.stringify({ data: { floor: '4F' } }), { 'content-type': 'application/json' })).status,
    ).toBe(200);
    const page = conforms('GET', AUDIT_LOG_PATH, await privilege.get(`${AUDIT_LOG_PATH}?${PERIOD}`));
    expect((page.body as { rows: { path: string }[] }).rows.map((row) => row.path)).toContain('rooms/rx-a1');
    conforms('GET', AUDIT_LOG_PATH, await privilege.get(`${AUDIT_LOG_PATH}?limit=0`));
    expect(conforms('GET', AUDIT_LOG_PATH, await privilege.get(`${AUDIT_LOG_PATH}?domainId=${OTHER}`)).status).toBe(404);
    expect(conforms('GET', AUDIT_LOG_PATH, await staff.get(AUDIT_LOG_PATH)).status).toBe(403);
    conforms('GET', AUDIT_LOG_PATH, await outsider.get(AUDIT_LOG_PATH));

    const csv = await privilege.get(`${AUDIT_LOG_CSV_PATH}?${PERIOD}`);
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-type'])).toContain('text/csv');
    conforms('GET', AUDIT_LOG_CSV_PATH, await privilege.get(`${AUDIT_LOG_CSV_PATH}?from=2026-11-21T00:00:00Z&to=2026-11-19T00:00:00Z`));
    conforms('GET', AUDIT_LOG_CSV_PATH, await staff.get(`${AUDIT_LOG_CSV_PATH}?${PERIOD}`));
    conforms('GET', AUDIT_LOG_CSV_PATH, await outsider.get(`${AUDIT_LOG_CSV_PATH}?${PERIOD}`));
  });

  it('covered the success answers and logged no answer off its schema', () => {
    const labels = [...running.seen];
    for (const expected of ['GET /api/app-info 200', `GET ${AUDIT_LOG_PATH} 200`]) expect(labels).toContain(expected);
    expect(running.offSchemaLines()).toEqual([]);
  });
});
