/**
 * The documented answers of the agency area and of the customer's side of partner requests are the
 * real ones (responseConformance.ts): an agency (50) reads its overview, statistics, partners,
 * requests, staff, devices, rooms and bills; its administrator (51) asks a customer, edits a partner
 * and the invoice settings, and drafts, issues, pays, prints and deletes bills; the corporation's
 * owner (5) lists, declines and ends. The errors: a refused body or query, facility staff (below the
 * level), an agency reader writing, another agency's area (403: an agency account sees its own only),
 * a domain that is no agency, another agency's partner or bill, another corporation's requests
 * (answered like missing ones), a bill in the wrong state, and a signed-out caller.
 */
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserClient } from '../testing/browserClient.ts';
import { FACILITY_A, FACILITY_OTHER, startConformanceServer, SYSTEM as system, type ConformanceServer } from './responseConformance.ts';

const AGENCY = DEMO_DOMAINS.agency;
const CORP = DEMO_DOMAINS.corporation;
const OTHER_AGENCY = 'ra-other-agency';
const OTHER_CORP = 'ra-other-corp';
const HOUSEHOLD = 'ra-free-household';
const REGISTRATION = 'T5120001234567';
/** A past month the device was out all of (issuable), and a later one left a draft. */
const SEPTEMBER = '2026-09';
const OCTOBER = '2026-10';
const base = `/api/agency/${AGENCY}`;
const CONTRACT = { name: '自由な家', contractStart: '2026-01-01', contractEnd: null, monthlyUnitPrice: 2000 };

describe('documented response schemas match the answers: agency area and partner requests', () => {
  let running: ConformanceServer;
  let agency: BrowserClient;
  let admin: BrowserClient;
  let developer: BrowserClient;
  let staff: BrowserClient;
  let owner: BrowserClient;
  let outsider: BrowserClient;
  const conforms: ConformanceServer['conforms'] = (method, route, reply) => running.conforms(method, route, reply);
  const put = (who: BrowserClient, path: string, body: unknown) => who.send('PUT', path, JSON.stringify(body), { 'content-type': 'application/json' });
  const del = (who: BrowserClient, path: string) => who.send('DELETE', path, undefined);
  const write = (path: string, data: Record<string, unknown>) => running.store.set(system, path, data, true);

  beforeAll(async () => {
    running = await startConformanceServer('nemuri-responses-agency-');
    // Under vitest the demo data set is not loaded: the demo agency with the demo corporation as its
    // partner (a device lent to facility A since September, a room, a staff member), another agency
    // with its own partner, and a household no agency serves.
    await write(`domains/${AGENCY}`, { name: 'ねむりケア販売株式会社', kind: 'agency', rootDomainId: AGENCY, invoiceRegistrationNumber: REGISTRATION });
    await write(`domains/${OTHER_AGENCY}`, { name: '別の販売店', kind: 'agency', rootDomainId: OTHER_AGENCY });
    await write(`domains/${OTHER_CORP}`, { name: '別法人', kind: 'corporation', rootDomainId: OTHER_CORP, agencyDomainId: OTHER_AGENCY });
    await write(`domains/${HOUSEHOLD}`, { name: '自由な家', kind: 'individual', rootDomainId: HOUSEHOLD });
    await write(`domains/${AGENCY}/partners/${CORP}`, {
      name: 'デモ法人',
      monthlyUnitPrice: 3000,
      status: 'active',
      contractStart: '2026-01-01',
      contractEnd: null,
    });
    await write(`domains/${OTHER_AGENCY}/partners/${OTHER_CORP}`, { name: '別法人', monthlyUnitPrice: 5000, status: 'active' });
    await write('devices/RA-1', { deviceTypeId: 'nemuri-chest', ownerAgencyDomainId: AGENCY, domainId: FACILITY_A, roomId: 'ra-room', status: 'in_use' });
    await write('devices/RA-1/borrows/b1', { toDomainId: FACILITY_A, from: '2026-09-01T00:00:00+09:00', until: null, returnedAt: null, by: 'test' });
    await write('rooms/ra-room', { domainId: FACILITY_A, rootDomainId: CORP, name: '101号室', deviceSerial: 'RA-1', status: 'active' });
    await write(`domains/${FACILITY_A}/staff/ra-staff`, { displayName: '木村 介護', email: 'ra-staff@example.com', accessLevel: 2 });
    // Another agency asks the demo corporation (which the demo agency serves): the owner declines it.
    await write(`domains/${OTHER_AGENCY}/partnerRequests/${CORP}`, {
      customerDomainId: CORP,
      customerName: 'デモ法人',
      agencyName: '別の販売店',
      status: 'requested',
      partnerName: 'デモ法人',
      contractStart: null,
      contractEnd: null,
      monthlyUnitPrice: 4000,
      message: 'ご検討ください',
      requestedBy: 'test',
      requestedAt: '2026-11-01T00:00:00Z',
      answeredBy: null,
      answeredAt: null,
    });
    [agency, admin, developer, staff, owner, outsider] = await Promise.all([
      running.client('agency@example.com'),
      running.client('agency-admin@example.com'),
      running.client('developer@example.com'),
      running.client('staff@example.com'),
      running.client('owner@example.com'),
      running.client(),
    ]);
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('the agencies, overview and statistics: success, below the level, another agency, no agency, a bad id and signed out', async () => {
    const agencies = '/api/agency/agencies';
    expect(conforms('GET', agencies, await agency.get(agencies)).body).toEqual({ agencies: [{ id: AGENCY, name: 'ねむりケア販売株式会社' }] });
    expect((conforms('GET', agencies, await developer.get(agencies)).body as { agencies: unknown[] }).agencies).toHaveLength(2);
    expect(conforms('GET', agencies, await staff.get(agencies)).status).toBe(403);
    expect(conforms('GET', agencies, await outsider.get(agencies)).status).toBe(401);

    for (const [route, path] of [
      ['/api/agency/:agencyId/overview', 'overview'],
      ['/api/agency/:agencyId/statistics', 'statistics'],
    ] as const) {
      expect(conforms('GET', route, await agency.get(`${base}/${path}`)).status).toBe(200);
      expect(conforms('GET', route, await staff.get(`${base}/${path}`)).status).toBe(403);
      // An agency account sees its own agency only, whichever id it names.
      expect(conforms('GET', route, await agency.get(`/api/agency/${OTHER_AGENCY}/${path}`)).status).toBe(403);
      expect(conforms('GET', route, await developer.get(`/api/agency/${FACILITY_A}/${path}`)).status).toBe(404);
      expect(conforms('GET', route, await developer.get(`/api/agency/no.such/${path}`)).status).toBe(400);
      expect(conforms('GET', route, await outsider.get(`${base}/${path}`)).status).toBe(401);
    }
    const overview = (await agency.get(`${base}/overview`)).body as { partners: { id: string; deviceCount: number }[]; canEdit: boolean };
    expect(overview.partners).toEqual([expect.objectContaining({ id: CORP, deviceCount: 1 })]);
    expect(overview.canEdit).toBe(false);
  });

  it('partners, their staff and contracts: success, refused, another agency’s partner, below the level and signed out', async () => {
    const partners = '/api/agency/:agencyId/partners';
    expect((conforms('GET', partners, await agency.get(`${base}/partners`)).body as { partners: unknown[] }).partners).toHaveLength(1);
    expect(conforms('GET', partners, await agency.get(`${base}/partners?limit=0`)).status).toBe(400);
    expect(conforms('GET', partners, await agency.get(`${base}/partners?cursor=${OTHER_CORP}`)).status).toBe(400);
    expect(conforms('GET', partners, await staff.get(`${base}/partners`)).status).toBe(403);
    expect(conforms('GET', partners, await developer.get(`/api/agency/${FACILITY_A}/partners`)).status).toBe(404);
    expect(conforms('GET', partners, await outsider.get(`${base}/partners`)).status).toBe(401);

    const staffRoute = '/api/agency/:agencyId/partners/:partnerId/staff';
    const members = conforms('GET', staffRoute, await agency.get(`${base}/partners/${CORP}/staff`)).body as { staff: { domainId: string }[] };
    expect(members.staff).toEqual([expect.objectContaining({ documentReferenceId: 'ra-staff', domainId: FACILITY_A })]);
    expect(conforms('GET', staffRoute, await agency.get(`${base}/partners/${OTHER_CORP}/staff`)).status).toBe(404);
    expect(conforms('GET', staffRoute, await staff.get(`${base}/partners/${CORP}/staff`)).status).toBe(403);
    expect(conforms('GET', staffRoute, await outsider.get(`${base}/partners/${CORP}/staff`)).status).toBe(401);

    const contract = '/api/agency/:agencyId/partners/:partnerId';
    const terms = {
      name: 'デモ法人',
      contractStart: '2026-01-01',
      contractEnd: null,
      monthlyUnitPrice: 3000,
      status: 'active',
      paymentTerms: { monthsAfter: 1, day: 20 },
    };
    const saved = conforms('PUT', contract, await put(admin, `${base}/partners/${CORP}`, terms)).body as { partner: { paymentTerms: unknown } };
    expect(saved.partner.paymentTerms).toEqual({ monthsAfter: 1, day: 20 });
    expect(conforms('PUT', contract, await put(admin, `${base}/partners/${CORP}`, { ...terms, contractEnd: '2025-12-31' })).status).toBe(400);
    expect(conforms('PUT', contract, await put(admin, `${base}/partners/${CORP}`, { ...terms, status: 'paused' })).status).toBe(400);
    expect(conforms('PUT', contract, await put(admin, `${base}/partners/${OTHER_CORP}`, terms)).status).toBe(404);
    expect(conforms('PUT', contract, await put(agency, `${base}/partners/${CORP}`, terms)).status).toBe(403);
    expect(conforms('PUT', contract, await put(outsider, `${base}/partners/${CORP}`, terms)).status).toBe(401);
  });

  it('partner requests and candidates: asked, listed and withdrawn; refused, not askable, not waiting, below the level and signed out', async () => {
    const candidates = '/api/agency/:agencyId/partner-candidates';
    const found = conforms('GET', candidates, await admin.get(`${base}/partner-candidates`)).body as { domains: { id: string }[] };
    expect(found.domains.map((domain) => domain.id)).toContain(HOUSEHOLD);
    expect(conforms('GET', candidates, await agency.get(`${base}/partner-candidates`)).status).toBe(403);
    expect(conforms('GET', candidates, await developer.get(`/api/agency/${FACILITY_A}/partner-candidates`)).status).toBe(404);
    expect(conforms('GET', candidates, await outsider.get(`${base}/partner-candidates`)).status).toBe(401);

    const ask = '/api/agency/:agencyId/partner-requests/:domainId';
    const sent = conforms('PUT', ask, await put(admin, `${base}/partner-requests/${HOUSEHOLD}`, { ...CONTRACT, message: 'よろしくお願いします' }));
    expect((sent.body as { request: { status: string } }).request.status).toBe('requested');
    expect(conforms('PUT', ask, await put(admin, `${base}/partner-requests/${HOUSEHOLD}`, { ...CONTRACT, monthlyUnitPrice: -1 })).status).toBe(400);
    expect(conforms('PUT', ask, await put(admin, `${base}/partner-requests/${CORP}`, CONTRACT)).status).toBe(409);
    // Another agency's customer and a facility (not a root) answer like a missing domain.
    expect(conforms('PUT', ask, await put(admin, `${base}/partner-requests/${OTHER_CORP}`, CONTRACT)).status).toBe(404);
    expect(conforms('PUT', ask, await put(admin, `${base}/partner-requests/${FACILITY_OTHER}`, CONTRACT)).status).toBe(404);
    expect(conforms('PUT', ask, await put(agency, `${base}/partner-requests/${HOUSEHOLD}`, CONTRACT)).status).toBe(403);
    expect(conforms('PUT', ask, await put(outsider, `${base}/partner-requests/${HOUSEHOLD}`, CONTRACT)).status).toBe(401);

    const requests = '/api/agency/:agencyId/partner-requests';
    const page = conforms('GET', requests, await agency.get(`${base}/partner-requests`)).body as { requests: { domainId: string }[] };
    expect(page.requests.map((request) => request.domainId)).toEqual([HOUSEHOLD]);
    expect(conforms('GET', requests, await agency.get(`${base}/partner-requests?limit=1000`)).status).toBe(400);
    expect(conforms('GET', requests, await staff.get(`${base}/partner-requests`)).status).toBe(403);
    expect(conforms('GET', requests, await developer.get(`/api/agency/${FACILITY_A}/partner-requests`)).status).toBe(404);
    expect(conforms('GET', requests, await outsider.get(`${base}/partner-requests`)).status).toBe(401);

    expect(conforms('DELETE', ask, await del(agency, `${base}/partner-requests/${HOUSEHOLD}`)).status).toBe(403);
    expect(conforms('DELETE', ask, await del(outsider, `${base}/partner-requests/${HOUSEHOLD}`)).status).toBe(401);
    expect(conforms('DELETE', ask, await del(admin, `${base}/partner-requests/${HOUSEHOLD}`)).status).toBe(204);
    expect(conforms('DELETE', ask, await del(admin, `${base}/partner-requests/${HOUSEHOLD}`)).status).toBe(409);
    expect(conforms('DELETE', ask, await del(admin, `${base}/partner-requests/${OTHER_CORP}`)).status).toBe(404);
    expect(conforms('DELETE', ask, await del(admin, `${base}/partner-requests/no.such`)).status).toBe(400);
  });

  it('settings, devices and rooms: success, refused, below the level, no agency and signed out', async () => {
    const settings = '/api/agency/:agencyId/settings';
    const saved = conforms('PUT', settings, await put(admin, `${base}/settings`, { invoiceRegistrationNumber: REGISTRATION })).body as {
      agency: { invoiceRegistrationNumber: string };
    };
    expect(saved.agency.invoiceRegistrationNumber).toBe(REGISTRATION);
    expect(conforms('PUT', settings, await put(admin, `${base}/settings`, { invoiceRegistrationNumber: '123' })).status).toBe(400);
    expect(conforms('PUT', settings, await put(agency, `${base}/settings`, { invoiceRegistrationNumber: null })).status).toBe(403);
    expect(conforms('PUT', settings, await put(developer, `/api/agency/${FACILITY_A}/settings`, { invoiceRegistrationNumber: null })).status).toBe(404);
    expect(conforms('PUT', settings, await put(outsider, `${base}/settings`, { invoiceRegistrationNumber: null })).status).toBe(401);

    const devices = '/api/agency/:agencyId/devices';
    const page = conforms('GET', devices, await agency.get(`${base}/devices?online=offline`)).body as { devices: { serial: string }[]; total: number };
    expect(page.devices.map((device) => device.serial)).toEqual(['RA-1']);
    expect(conforms('GET', devices, await agency.get(`${base}/devices?status=lost`)).status).toBe(400);
    expect(conforms('GET', devices, await staff.get(`${base}/devices`)).status).toBe(403);
    expect(conforms('GET', devices, await developer.get(`/api/agency/${FACILITY_A}/devices`)).status).toBe(404);
    expect(conforms('GET', devices, await outsider.get(`${base}/devices`)).status).toBe(401);

    const rooms = '/api/agency/:agencyId/rooms';
    const roomPage = conforms('GET', rooms, await agency.get(`${base}/rooms?partnerId=${CORP}`)).body as { rooms: { id: string }[] };
    expect(roomPage.rooms.map((room) => room.id)).toEqual(['ra-room']);
    expect(conforms('GET', rooms, await agency.get(`${base}/rooms?offset=-1`)).status).toBe(400);
    expect(conforms('GET', rooms, await staff.get(`${base}/rooms`)).status).toBe(403);
    expect(conforms('GET', rooms, await developer.get(`/api/agency/${FACILITY_A}/rooms`)).status).toBe(404);
    expect(conforms('GET', rooms, await outsider.get(`${base}/rooms`)).status).toBe(401);
  });

  it('bills: drafted, listed, issued, paid, printed and deleted; refused, frozen, another agency’s, below the level and signed out', async () => {
    const generate = '/api/agency/:agencyId/bills/generate';
    const drafted = conforms('POST', generate, await admin.post(`${base}/bills/generate`, { month: SEPTEMBER })).body as { bills: { status: string }[] };
    expect(drafted.bills.map((bill) => bill.status)).toEqual(['draft']);
    const october = conforms('POST', generate, await admin.post(`${base}/bills/generate`, { month: OCTOBER, partnerId: CORP }));
    expect(october.status).toBe(200);
    expect(conforms('POST', generate, await admin.post(`${base}/bills/generate`, { month: '2026-13' })).status).toBe(400);
    expect(conforms('POST', generate, await admin.post(`${base}/bills/generate`, { month: '2099-01' })).status).toBe(400);
    expect(conforms('POST', generate, await admin.post(`${base}/bills/generate`, { month: SEPTEMBER, partnerId: OTHER_CORP })).status).toBe(404);
    expect(conforms('POST', generate, await agency.post(`${base}/bills/generate`, { month: SEPTEMBER })).status).toBe(403);
    expect(conforms('POST', generate, await outsider.post(`${base}/bills/generate`, { month: SEPTEMBER })).status).toBe(401);

    const bills = '/api/agency/:agencyId/bills';
    const listed = conforms('GET', bills, await agency.get(`${base}/bills`)).body as { bills: { documentReferenceId: string; month: string }[] };
    expect(listed.bills.map((bill) => bill.month)).toEqual([OCTOBER, SEPTEMBER]);
    expect(conforms('GET', bills, await agency.get(`${base}/bills?cursor=${OTHER_CORP}-${SEPTEMBER}`)).status).toBe(400);
    expect(conforms('GET', bills, await staff.get(`${base}/bills`)).status).toBe(403);
    expect(conforms('GET', bills, await developer.get(`/api/agency/${FACILITY_A}/bills`)).status).toBe(404);
    expect(conforms('GET', bills, await outsider.get(`${base}/bills`)).status).toBe(401);

    const september = `${CORP}-${SEPTEMBER}`;
    const draft = `${CORP}-${OCTOBER}`;
    const pdfRoute = '/api/agency/:agencyId/bills/:billId/pdf';
    expect(conforms('GET', pdfRoute, await agency.get(`${base}/bills/${september}/pdf`)).status).toBe(409);

    const issue = '/api/agency/:agencyId/bills/:billId/issue';
    expect(conforms('POST', issue, await agency.post(`${base}/bills/${september}/issue`)).status).toBe(403);
    expect(conforms('POST', issue, await outsider.post(`${base}/bills/${september}/issue`)).status).toBe(401);
    expect(conforms('POST', issue, await admin.post(`${base}/bills/${september}/issue`, { now: true })).status).toBe(400);
    const issued = conforms('POST', issue, await admin.post(`${base}/bills/${september}/issue`)).body as { bill: { status: string; invoiceNumber: string } };
    expect(issued.bill.status).toBe('issued');
    expect(conforms('POST', issue, await admin.post(`${base}/bills/${september}/issue`)).status).toBe(409);
    expect(conforms('POST', issue, await admin.post(`${base}/bills/${OTHER_CORP}-${SEPTEMBER}/issue`)).status).toBe(404);
    // Regenerating a frozen bill of one partner is refused.
    expect(conforms('POST', generate, await admin.post(`${base}/bills/generate`, { month: SEPTEMBER, partnerId: CORP })).status).toBe(409);

    const pdf = await agency.get(`${base}/bills/${september}/pdf`);
    expect(pdf.status).toBe(200);
    expect(String(pdf.headers['content-type'])).toContain('application/pdf');
    expect(conforms('GET', pdfRoute, await agency.get(`${base}/bills/${OTHER_CORP}-${SEPTEMBER}/pdf`)).status).toBe(404);
    expect(conforms('GET', pdfRoute, await staff.get(`${base}/bills/${september}/pdf`)).status).toBe(403);
    expect(conforms('GET', pdfRoute, await outsider.get(`${base}/bills/${september}/pdf`)).status).toBe(401);

    const paid = '/api/agency/:agencyId/bills/:billId/paid';
    expect(conforms('POST', paid, await admin.post(`${base}/bills/${draft}/paid`)).status).toBe(409);
    expect(conforms('POST', paid, await admin.post(`${base}/bills/${september}/paid`, { paidAt: 'today' })).status).toBe(400);
    expect(conforms('POST', paid, await agency.post(`${base}/bills/${september}/paid`)).status).toBe(403);
    expect(conforms('POST', paid, await outsider.post(`${base}/bills/${september}/paid`)).status).toBe(401);
    expect((conforms('POST', paid, await admin.post(`${base}/bills/${september}/paid`)).body as { bill: { status: string } }).bill.status).toBe('paid');
    expect(conforms('POST', paid, await admin.post(`${base}/bills/${september}/paid`)).status).toBe(409);
    expect(conforms('POST', paid, await admin.post(`${base}/bills/${OTHER_CORP}-${SEPTEMBER}/paid`)).status).toBe(404);

    const one = '/api/agency/:agencyId/bills/:billId';
    expect(conforms('DELETE', one, await del(agency, `${base}/bills/${draft}`)).status).toBe(403);
    expect(conforms('DELETE', one, await del(outsider, `${base}/bills/${draft}`)).status).toBe(401);
    expect(conforms('DELETE', one, await del(admin, `${base}/bills/${september}`)).status).toBe(409);
    expect(conforms('DELETE', one, await del(admin, `${base}/bills/${draft}`)).status).toBe(204);
    expect(conforms('DELETE', one, await del(admin, `${base}/bills/${draft}`)).status).toBe(404);
    expect(conforms('DELETE', one, await del(admin, `${base}/bills/no.such`)).status).toBe(400);
  });

  it('the customer’s side: listed, declined and ended; refused, not waiting, another corporation’s, below the level and signed out', async () => {
    const list = '/api/domains/:domainId/partner-requests';
    const page = conforms('GET', list, await owner.get(`/api/domains/${CORP}/partner-requests`)).body as { requests: { agencyId: string; partner: boolean }[] };
    expect(page.requests).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ agencyId: OTHER_AGENCY, partner: false }),
        expect.objectContaining({ agencyId: AGENCY, partner: true }),
      ]),
    );
    expect(conforms('GET', list, await owner.get(`/api/domains/${CORP}/partner-requests?limit=0`)).status).toBe(400);
    expect(conforms('GET', list, await owner.get(`/api/domains/${OTHER_CORP}/partner-requests`)).status).toBe(404);
    expect(conforms('GET', list, await staff.get(`/api/domains/${CORP}/partner-requests`)).status).toBe(403);
    expect(conforms('GET', list, await outsider.get(`/api/domains/${CORP}/partner-requests`)).status).toBe(401);

    const answer = '/api/domains/:domainId/partner-requests/:agencyId/answer';
    const at = (agencyId: string, what: string) => `/api/domains/${CORP}/partner-requests/${agencyId}/${what}`;
    expect(conforms('POST', answer, await owner.post(at(OTHER_AGENCY, 'answer'), { accept: 'no' })).status).toBe(400);
    expect(conforms('POST', answer, await staff.post(at(OTHER_AGENCY, 'answer'), { accept: false })).status).toBe(403);
    expect(conforms('POST', answer, await outsider.post(at(OTHER_AGENCY, 'answer'), { accept: false })).status).toBe(401);
    expect(conforms('POST', answer, await owner.post(`/api/domains/${OTHER_CORP}/partner-requests/${OTHER_AGENCY}/answer`, { accept: false })).status).toBe(
      404,
    );
    expect(conforms('POST', answer, await owner.post(at(AGENCY, 'answer'), { accept: true })).status).toBe(404);
    const declined = conforms('POST', answer, await owner.post(at(OTHER_AGENCY, 'answer'), { accept: false })).body as {
      requests: { agencyId: string; status: string }[];
    };
    expect(declined.requests.find((request) => request.agencyId === OTHER_AGENCY)?.status).toBe('declined');
    expect(conforms('POST', answer, await owner.post(at(OTHER_AGENCY, 'answer'), { accept: true })).status).toBe(409);

    const end = '/api/domains/:domainId/partner-requests/:agencyId/end';
    expect(conforms('POST', end, await owner.post(at(AGENCY, 'end'), { now: true })).status).toBe(400);
    expect(conforms('POST', end, await staff.post(at(AGENCY, 'end'))).status).toBe(403);
    expect(conforms('POST', end, await outsider.post(at(AGENCY, 'end'))).status).toBe(401);
    expect(conforms('POST', end, await owner.post(at(OTHER_AGENCY, 'end'))).status).toBe(404);
    const ended = conforms('POST', end, await owner.post(at(AGENCY, 'end'))).body as { requests: { agencyId: string; status: string; partner: boolean }[] };
    expect(ended.requests.find((request) => request.agencyId === AGENCY)).toEqual(expect.objectContaining({ status: 'ended', partner: false }));
  });

  it('covered the success answers and logged no answer off its schema', () => {
    const labels = [...running.seen];
    const agencyPath = '/api/agency/{agencyId}';
    for (const expected of [
      'GET /api/agency/agencies 200',
      `GET ${agencyPath}/overview 200`,
      `GET ${agencyPath}/statistics 200`,
      `GET ${agencyPath}/partner-candidates 200`,
      `GET ${agencyPath}/partners 200`,
      `PUT ${agencyPath}/partners/{partnerId} 200`,
      `GET ${agencyPath}/partners/{partnerId}/staff 200`,
      `GET ${agencyPath}/partner-requests 200`,
      `PUT ${agencyPath}/partner-requests/{domainId} 200`,
      `DELETE ${agencyPath}/partner-requests/{domainId} 204`,
      `PUT ${agencyPath}/settings 200`,
      `GET ${agencyPath}/devices 200`,
      `GET ${agencyPath}/rooms 200`,
      `GET ${agencyPath}/bills 200`,
      `POST ${agencyPath}/bills/generate 200`,
      `POST ${agencyPath}/bills/{billId}/issue 200`,
      `POST ${agencyPath}/bills/{billId}/paid 200`,
      `DELETE ${agencyPath}/bills/{billId} 204`,
      'GET /api/domains/{domainId}/partner-requests 200',
      'POST /api/domains/{domainId}/partner-requests/{agencyId}/answer 200',
      'POST /api/domains/{domainId}/partner-requests/{agencyId}/end 200',
    ])
      expect(labels).toContain(expected);
    expect(running.offSchemaLines()).toEqual([]);
  });
});
