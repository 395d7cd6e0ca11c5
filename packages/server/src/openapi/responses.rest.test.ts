/**
 * The documented answers of the smaller route groups are the real ones (responseConformance.ts):
 * the app information the sign-in page reads, the audit log a privilege administrator reads (its
 * CSV a file of the documented type), device lending by the maker and an agency, and a staff
 * member's second factor reset by an administrator; staff below
 * the level, a signed-out caller, a refused filter, another tenant's domain (answered like a
 * missing one, as is another agency's device) give the errors.
 */
import { AUDIT_LOG_CSV_PATH, AUDIT_LOG_PATH } from '@nemuri/shared/auditLog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserClient } from '../testing/browserClient.ts';
import { FACILITY_A as A, FACILITY_OTHER as OTHER, startConformanceServer, SYSTEM as system, type ConformanceServer } from './responseConformance.ts';

const PERIOD = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 86_400_000).toISOString()}`;

describe('documented response schemas match the answers: app information, audit log and device lending', () => {
  let running: ConformanceServer;
  const conforms: ConformanceServer['conforms'] = (method, route, reply) => running.conforms(method, route, reply);

  beforeAll(async () => {
    running = await startConformanceServer('nemuri-responses-rest-');
    await running.store.set(system, 'rooms/rx-a1', { domainId: A, rootDomainId: 'demo-corp', name: '401号室' }, false);
    const stock = { deviceTypeId: 'nemuri-chest', domainId: null, roomId: null, status: 'stock' };
    await running.store.set(system, 'devices/RX-1', { ...stock, ownerAgencyDomainId: 'demo-agency' }, false);
    await running.store.set(system, 'devices/RX-2', { ...stock, ownerAgencyDomainId: 'rx-other-agency' }, false);
    await running.store.set(system, 'devices/RX-3', { ...stock, ownerAgencyDomainId: 'demo-agency', status: 'retired' }, false);
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

  it('device lending: lent, listed and returned; refused, another agency’s device, below the level and signed out', async () => {
    const developer = await running.client('developer@example.com');
    const agency = await running.client('agency@example.com');
    const staff = await running.client('staff@example.com');
    const outsider = await running.client();
    const lend = '/api/devices/:serial/borrows';
    const from = new Date().toISOString();
    const lent = conforms('POST', lend, await developer.post('/api/devices/RX-1/borrows', { toDomainId: A, from, note: '試用' }));
    expect(lent.status).toBe(201);
    const { borrowId } = lent.body as { borrowId: string };
    expect(conforms('POST', lend, await developer.post('/api/devices/RX-1/borrows', { toDomainId: A, from })).status).toBe(409);
    expect(conforms('POST', lend, await developer.post('/api/devices/RX-3/borrows', { toDomainId: A, from })).status).toBe(412);
    conforms('POST', lend, await developer.post('/api/devices/RX-2/borrows', { toDomainId: 'no-such-domain', from }));
    conforms('POST', lend, await developer.post('/api/devices/RX-2/borrows', { toDomainId: A, from: 'yesterday' }));
    // Another agency's device answers like a missing one.
    expect(conforms('POST', lend, await agency.post('/api/devices/RX-2/borrows', { toDomainId: A, from })).status).toBe(404);
    conforms('POST', lend, await developer.post('/api/devices/RX-NONE/borrows', { toDomainId: A, from }));
    conforms('POST', lend, await staff.post('/api/devices/RX-1/borrows', { toDomainId: A, from }));
    conforms('POST', lend, await outsider.post('/api/devices/RX-1/borrows', { toDomainId: A, from }));

    const history = conforms('GET', lend, await developer.get('/api/devices/RX-1/borrows'));
    expect((history.body as { borrows: unknown[] }).borrows).toHaveLength(1);
    expect(conforms('GET', lend, await agency.get('/api/devices/RX-2/borrows')).status).toBe(404);
    conforms('GET', lend, await developer.get('/api/devices/RX-NONE/borrows'));
    conforms('GET', lend, await outsider.get('/api/devices/RX-1/borrows'));

    const giveBack = '/api/devices/:serial/borrows/:borrowId/return';
    expect(conforms('POST', giveBack, await developer.post(`/api/devices/RX-1/borrows/${borrowId}/return`, {})).status).toBe(200);
    expect(conforms('POST', giveBack, await developer.post(`/api/devices/RX-1/borrows/${borrowId}/return`, {})).status).toBe(409);
    conforms('POST', giveBack, await developer.post('/api/devices/RX-1/borrows/no-borrow/return', {}));
    conforms('POST', giveBack, await developer.post(`/api/devices/RX-1/borrows/${borrowId}/return`, { now: true }));
    conforms('POST', giveBack, await staff.post(`/api/devices/RX-1/borrows/${borrowId}/return`, {}));
    conforms('POST', giveBack, await outsider.post(`/api/devices/RX-1/borrows/${borrowId}/return`, {}));
  });

  it('staff: a member’s second factor reset; themselves, below the level, another tenant’s member and signed out refused', async () => {
    const admin = await running.client('admin@example.com');
    const staff = await running.client('staff@example.com');
    const uidOf = async (who: BrowserClient) => ((await who.me()) as { uid: string }).uid;
    const [adminUid, staffUid] = [await uidOf(admin), await uidOf(staff)];
    const route = '/api/staff/:domainId/:uid/second-factor/reset';
    const reset = (who: BrowserClient, domainId: string, uid: string) => who.post(`/api/staff/${domainId}/${uid}/second-factor/reset`, {});
    const member = (displayName: string, email: string, accessLevel: number) => ({ displayName, email, accessLevel });
    await running.store.set(system, `domains/${A}/staff/${staffUid}`, member('佐藤 介護', 'staff@example.com', 2), false);
    await running.store.set(system, `domains/${A}/staff/${adminUid}`, member('鈴木 管理', 'admin@example.com', 3), false);
    expect(conforms('POST', route, await reset(staff, A, adminUid)).status).toBe(403);
    // The reset ends the member's sessions: the refusal above is asked first.
    expect(conforms('POST', route, await reset(admin, A, staffUid)).body).toEqual({ reset: true });
    expect(conforms('POST', route, await reset(admin, A, adminUid)).status).toBe(400);
    expect(conforms('POST', route, await reset(admin, OTHER, staffUid)).status).toBe(404);
    expect(conforms('POST', route, await reset(await running.client(), A, staffUid)).status).toBe(401);
  });

  it('covered the success answers and logged no answer off its schema', () => {
    const labels = [...running.seen];
    for (const expected of [
      'GET /api/app-info 200',
      `GET ${AUDIT_LOG_PATH} 200`,
      'POST /api/devices/{serial}/borrows 201',
      'GET /api/devices/{serial}/borrows 200',
      'POST /api/devices/{serial}/borrows/{borrowId}/return 200',
      'POST /api/staff/{domainId}/{uid}/second-factor/reset 200',
    ])
      expect(labels).toContain(expected);
    expect(running.offSchemaLines()).toEqual([]);
  });
});
