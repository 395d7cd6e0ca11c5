/**
 * The agency area on a real server (PGlite, demo accounts): the bill flow (generate → issue →
 * paid) with the documented arithmetic, frozen bills, level 50 refused every write, one agency
 * never seeing another's partners, devices or bills (agency API and documents API), partner requests
 * (a partner only by the customer's consent: agency/partnerRequests.ts, attacked in
 * security/agencyTakeover.test.ts), invoice settings, and the PDF invoice read back with `pdftotext`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { signedInClient, startIngestServer, uniqueSerial, type IngestTestServer } from '../ingest/testing.ts';
import type { BrowserClient, ClientReply } from '../testing/browserClient.ts';
import { lastPassedDay } from '@nemuri/shared/billing/billArithmetic';
import { monthOfInstant } from './agencyViews.ts';

const run = promisify(execFile);

const A = DEMO_DOMAINS.agency;
const B = 'test-agency-b';
const CORP = DEMO_DOMAINS.corporation;
const FACILITY = DEMO_DOMAINS.facilityA;
const B_CORP = 'test-b-corp';
const MONTH = '2026-09';
const REGISTRATION = 'T5120001234567';

describe('agency area', () => {
  let base: IngestTestServer;
  let developer: BrowserClient;
  let agency: BrowserClient;
  let agencyAdmin: BrowserClient;
  let staff: BrowserClient;
  const serialA1 = uniqueSerial('agA1');
  const serialA2 = uniqueSerial('agA2');
  const serialB1 = uniqueSerial('agB1');

  const documents = () => base.server.app.documents;
  const put = (path: string, data: Record<string, unknown>) => documents().set(SYSTEM_PRINCIPAL, path, data, true);
  const ok = (reply: ClientReply, status = 200): unknown => {
    expect(reply.status, reply.text).toBe(status);
    return reply.body;
  };
  const putJson = (client: BrowserClient, path: string, body: unknown) =>
    client.send('PUT', path, JSON.stringify(body), { 'content-type': 'application/json' });
  const generate = (client: BrowserClient, body: Record<string, unknown>, agencyId = A) => client.post(`/api/agency/${agencyId}/bills/generate`, body);

  beforeAll(async () => {
    base = await startIngestServer();
    const as = (email: string) => signedInClient(base.server, email);
    [developer, agency, agencyAdmin, staff] = await Promise.all([
      as('developer@example.com'),
      as('agency@example.com'),
      as('agency-admin@example.com'),
      as('admin@example.com'),
    ]);
    // Under vitest the demo data set is not loaded: two agencies, each with a partner and devices.
    await put(`domains/${A}`, {
      name: 'ねむりケア販売株式会社',
      kind: 'agency',
      rootDomainId: A,
      invoiceRegistrationNumber: REGISTRATION,
      address: { postalCode: '530-0001', prefecture: '大阪府', city: '大阪市北区', line: '梅田1-2-3' },
    });
    await put(`domains/${B}`, { name: 'B販売', kind: 'agency', rootDomainId: B });
    await put(`domains/${CORP}`, { name: '社会福祉法人さくら会', kind: 'corporation', rootDomainId: CORP, agencyDomainId: A });
    await put(`domains/${FACILITY}`, { name: 'さくら苑', kind: 'facility', rootDomainId: CORP, parentDomainId: CORP, agencyDomainId: A });
    await put(`domains/${B_CORP}`, { name: 'B法人', kind: 'corporation', rootDomainId: B_CORP, agencyDomainId: B });
    await put('domains/test-free-household', { name: '自由な家', kind: 'individual', rootDomainId: 'test-free-household' });
    await put(`domains/${A}/partners/${CORP}`, {
      name: '社会福祉法人さくら会',
      monthlyUnitPrice: 3000,
      status: 'active',
      contractStart: '2026-01-01',
      contractEnd: null,
    });
    await put(`domains/${B}/partners/${B_CORP}`, { name: 'B法人', monthlyUnitPrice: 5000, status: 'active' });
    // A1: lent to the facility 16 Sep – 10 Oct (15 days of September); A2: lent to the corporation since August.
    await put(`devices/${serialA1}`, { deviceTypeId: 'nemuri-chest', ownerAgencyDomainId: A, domainId: null, status: 'stock' });
    await put(`devices/${serialA1}/borrows/b1`, {
      toDomainId: FACILITY,
      from: '2026-09-16T10:00:00+09:00',
      until: null,
      returnedAt: '2026-10-10T12:00:00+09:00',
      by: 'test',
    });
    await put(`devices/${serialA2}`, { deviceTypeId: 'nemuri-chest', ownerAgencyDomainId: A, domainId: CORP, status: 'in_use' });
    await put(`devices/${serialA2}/borrows/b1`, { toDomainId: CORP, from: '2026-08-01T09:00:00+09:00', until: null, returnedAt: null, by: 'test' });
    await put(`devices/${serialB1}`, { deviceTypeId: 'nemuri-bed', ownerAgencyDomainId: B, domainId: B_CORP, status: 'in_use' });
    await put(`devices/${serialB1}/borrows/b1`, { toDomainId: B_CORP, from: '2026-08-01T09:00:00+09:00', until: null, returnedAt: null, by: 'test' });
    await put(`domains/${B}/bills/${B_CORP}-2026-08`, {
      partnerDomainId: B_CORP,
      month: '2026-08',
      status: 'issued',
      subtotal: 5000,
      consumptionTax: 500,
      total: 5500,
    });
  }, 120_000);

  afterAll(async () => {
    await base?.stop();
    await base?.remove();
  });

  it('generates a month’s draft: pro-rated lines, tax once per invoice, total', async () => {
    const body = ok(await generate(agencyAdmin, { month: MONTH })) as { bills: Record<string, unknown>[]; skipped: unknown[] };
    expect(body.bills).toHaveLength(1);
    expect(body.bills[0]).toMatchObject({
      documentReferenceId: `${CORP}-${MONTH}`,
      partnerDomainId: CORP,
      month: MONTH,
      status: 'draft',
      // floor(3000 × 15 / 30) = 1500 and a whole month 3000.
      lines: [
        { deviceSerial: serialA1, daysUsed: 15, unitPrice: 3000, amount: 1500 },
        { deviceSerial: serialA2, daysUsed: 30, unitPrice: 3000, amount: 3000 },
      ].sort((a, b) => a.deviceSerial.localeCompare(b.deviceSerial)),
      subtotal: 4500,
      taxRate: 10,
      consumptionTax: 450,
      total: 4950,
    });
    // Regenerating a draft replaces it (same id, still one bill).
    ok(await generate(agencyAdmin, { month: MONTH, partnerId: CORP }));
    // The overview no longer lists the bills: they come a page at a time, and the partner carries what is unpaid.
    expect((ok(await agencyAdmin.get(`/api/agency/${A}/overview`)) as { bills?: unknown }).bills).toBeUndefined();
    const bills = ok(await agencyAdmin.get(`/api/agency/${A}/bills?limit=200`)) as { bills: { month: string }[] };
    expect(bills.bills.filter((bill) => bill.month === MONTH)).toHaveLength(1);
  });

  it('refuses a month that has not begun and a malformed month', async () => {
    expect((await generate(agencyAdmin, { month: '2099-01' })).body).toMatchObject({ reason: 'future-month' });
    expect((await generate(agencyAdmin, { month: '2026-13' })).status).toBe(400);
  });

  it('level 50 reads the area but cannot generate, issue, mark paid, delete, or edit partners and settings (403)', async () => {
    ok(await agency.get(`/api/agency/${A}/overview`));
    ok(await agency.get(`/api/agency/${A}/statistics`));
    const billId = `${CORP}-${MONTH}`;
    for (const reply of [
      await generate(agency, { month: MONTH }),
      await agency.post(`/api/agency/${A}/bills/${billId}/issue`, {}),
      await agency.post(`/api/agency/${A}/bills/${billId}/paid`, {}),
      await agency.send('DELETE', `/api/agency/${A}/bills/${billId}`, undefined),
      await putJson(agency, `/api/agency/${A}/partners/${CORP}`, { name: 'x', contractStart: null, contractEnd: null, monthlyUnitPrice: 1, status: 'active' }),
      await putJson(agency, `/api/agency/${A}/partner-requests/test-free-household`, {
        name: 'x',
        contractStart: null,
        contractEnd: null,
        monthlyUnitPrice: 1,
      }),
      await putJson(agency, `/api/agency/${A}/settings`, { invoiceRegistrationNumber: null }),
    ]) {
      expect(reply.status, reply.text).toBe(403);
      expect(reply.body).toMatchObject({ code: 'permission-denied' });
    }
    // Below the agency levels the area is closed altogether.
    expect((await staff.get(`/api/agency/${A}/overview`)).status).toBe(403);
  });

  it('issues a draft (invoice number, due date, issuer fixed), then marks it paid; issued and paid bills are frozen', async () => {
    const billId = `${CORP}-${MONTH}`;
    const issued = ok(await agencyAdmin.post(`/api/agency/${A}/bills/${billId}/issue`, {})) as { bill: Record<string, unknown> };
    // The first invoice of the agency; due at the end of the next month (the contract states no terms).
    expect(issued.bill).toMatchObject({
      status: 'issued',
      dueDate: '2026-10-31',
      invoiceNumber: '000001',
      invoiceSequence: 1,
      partnerName: '社会福祉法人さくら会',
      issuerRegistrationNumber: REGISTRATION,
      issuerName: 'ねむりケア販売株式会社',
      total: 4950,
    });
    for (const reply of [
      await agencyAdmin.post(`/api/agency/${A}/bills/${billId}/issue`, {}),
      await generate(agencyAdmin, { month: MONTH, partnerId: CORP }),
      await agencyAdmin.send('DELETE', `/api/agency/${A}/bills/${billId}`, undefined),
    ]) {
      expect(reply.status, reply.text).toBe(409);
      expect(reply.body).toMatchObject({ reason: 'bill-frozen' });
    }
    // Generating the whole month skips the frozen bill instead of failing.
    expect(ok(await generate(agencyAdmin, { month: MONTH }))).toMatchObject({ bills: [], skipped: [{ partnerDomainId: CORP, reason: 'bill-frozen' }] });
    const paid = ok(await agencyAdmin.post(`/api/agency/${A}/bills/${billId}/paid`, {})) as { bill: Record<string, unknown> };
    expect(paid.bill).toMatchObject({ status: 'paid', total: 4950 });
    expect(typeof paid.bill.paidAt).toBe('string');
    expect((await agencyAdmin.post(`/api/agency/${A}/bills/${billId}/paid`, {})).body).toMatchObject({ reason: 'bill-already-paid' });
    expect((await agencyAdmin.post(`/api/agency/${A}/bills/${billId}/issue`, {})).body).toMatchObject({ reason: 'bill-frozen' });
    // Nor can the documents API change or delete it: bills are written through the agency API only.
    const patched = await agencyAdmin.send('PATCH', `/api/documents/domains/${A}/bills/${billId}`, JSON.stringify({ data: { total: 1 } }), {
      'content-type': 'application/json',
    });
    expect(patched.status).toBe(403);
    expect((await agencyAdmin.send('DELETE', `/api/documents/domains/${A}/bills/${billId}`, undefined)).status).toBe(403);
    expect((await agencyAdmin.get(`/api/documents/domains/${A}/bills/${billId}`)).body).toMatchObject({ document: { status: 'paid', total: 4950 } });
  });

  it('a draft cannot be marked paid, has no invoice, and can be deleted', async () => {
    ok(await generate(agencyAdmin, { month: '2026-10', partnerId: CORP }));
    const billId = `${CORP}-2026-10`;
    expect((await agencyAdmin.post(`/api/agency/${A}/bills/${billId}/paid`, {})).body).toMatchObject({ reason: 'bill-not-issued' });
    expect((await agencyAdmin.get(`/api/agency/${A}/bills/${billId}/pdf`)).body).toMatchObject({ reason: 'bill-not-issued' });
    ok(await agencyAdmin.send('DELETE', `/api/agency/${A}/bills/${billId}`, undefined), 204);
    expect((await agencyAdmin.post(`/api/agency/${A}/bills/${billId}/issue`, {})).body).toMatchObject({ reason: 'bill-not-found' });
  });

  it('the PDF invoice carries the qualified-invoice fields (pdftotext)', async () => {
    const billId = `${CORP}-${MONTH}`;
    const response = await fetch(`${base.server.url}/api/agency/${A}/bills/${billId}/pdf`, { headers: { cookie: agencyAdmin.cookieHeader } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const dir = await mkdtemp(join(tmpdir(), 'nemuri-invoice-'));
    try {
      await writeFile(join(dir, 'invoice.pdf'), bytes);
      const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', join(dir, 'invoice.pdf'), '-']);
      const textOf = stdout.replace(/\s+/g, ' ');
      for (const expected of [
        '適格請求書',
        `登録番号: ${REGISTRATION}`,
        'ねむりケア販売株式会社',
        '社会福祉法人さくら会 御中',
        '2026年9月分',
        '9月1日〜9月30日',
        '10%対象（税抜） 4,500円',
        '消費税（10%） 450円',
        '4,950円',
        '1,500円',
        '3,000円',
        '15日',
        '30日',
        serialA1,
        '請求書番号: 000001',
        'お支払期限: 2026年10月31日',
      ]) {
        expect(textOf).toContain(expected);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('agency A never sees agency B’s partners, devices or bills, through the agency API or the documents API', async () => {
    const overview = ok(await agencyAdmin.get(`/api/agency/${A}/overview`)) as { partners: { id: string }[]; devices?: unknown };
    expect(overview.partners.map((partner) => partner.id)).toEqual([CORP]);
    // The devices come a page at a time (GET …/devices), not with the overview.
    expect(overview.devices).toBeUndefined();
    const devices = ok(await agencyAdmin.get(`/api/agency/${A}/devices?limit=200`)) as { devices: { serial: string }[] };
    expect(devices.devices.map((device) => device.serial)).toEqual(expect.arrayContaining([serialA1, serialA2]));
    expect(devices.devices.map((device) => device.serial)).not.toContain(serialB1);
    const ownBills = ok(await agencyAdmin.get(`/api/agency/${A}/bills?limit=200`)) as { bills: { partnerDomainId: string }[] };
    expect(ownBills.bills.every((bill) => bill.partnerDomainId === CORP)).toBe(true);
    for (const path of ['overview', 'statistics', 'devices', 'rooms', 'bills', `partners/${B_CORP}/staff`, `bills/${B_CORP}-2026-08/pdf`]) {
      const reply = await agencyAdmin.get(`/api/agency/${B}/${path}`);
      expect(reply.status, path).toBe(403);
    }
    expect((await agencyAdmin.post(`/api/agency/${B}/bills/${B_CORP}-2026-08/paid`, {})).status).toBe(403);
    // The documents API keeps the same wall (out of scope answers like missing).
    expect((await agencyAdmin.get(`/api/documents/domains/${B}/bills/${B_CORP}-2026-08`)).status).toBe(404);
    expect((await agencyAdmin.get(`/api/documents/devices/${serialB1}`)).status).toBe(404);
    const bills = ok(await agencyAdmin.post('/api/documents/query', { query: { collection: 'bills', collectionGroup: true, limit: 1000 } })) as {
      documents?: { documentPath: string }[];
    };
    expect(JSON.stringify(bills)).not.toContain(B_CORP);
    // A developer chooses either agency and sees that agency's data only.
    const agencies = ok(await developer.get('/api/agency/agencies')) as { agencies: { id: string }[] };
    expect(agencies.agencies.map((entry) => entry.id)).toEqual(expect.arrayContaining([A, B]));
    const ofB = ok(await developer.get(`/api/agency/${B}/overview`)) as { partners: { id: string }[] };
    expect(ofB.partners.map((partner) => partner.id)).toEqual([B_CORP]);
    expect((ok(await developer.get(`/api/agency/${B}/devices`)) as { devices: { serial: string }[] }).devices.map((device) => device.serial)).toEqual([
      serialB1,
    ]);
    expect((ok(await developer.get(`/api/agency/${B}/bills`)) as { bills: unknown[] }).bills).toHaveLength(1);
    expect((ok(await agencyAdmin.get('/api/agency/agencies')) as { agencies: { id: string }[] }).agencies.map((entry) => entry.id)).toEqual([A]);
  });

  it('pages the bills on the server: newest month first, by status and partner, no gaps or repeats; other agencies and bad pages refused', async () => {
    const C = 'test-agency-c';
    const partners = ['test-c-p1', 'test-c-p2'];
    await put(`domains/${C}`, { name: 'C販売', kind: 'agency', rootDomainId: C });
    for (const partner of partners) await put(`domains/${partner}`, { name: partner, kind: 'corporation', rootDomainId: partner, agencyDomainId: C });
    for (const partner of partners) await put(`domains/${C}/partners/${partner}`, { name: partner, monthlyUnitPrice: 1000, status: 'active' });
    // 2 partners × 12 months, every third one paid.
    const months = Array.from({ length: 12 }, (_, index) => `2025-${String(index + 1).padStart(2, '0')}`);
    for (const [index, month] of months.entries()) {
      for (const partner of partners)
        await put(`domains/${C}/bills/${partner}-${month}`, {
          partnerDomainId: partner,
          month,
          status: index % 3 === 0 ? 'paid' : 'issued',
          subtotal: 1000,
          consumptionTax: 100,
          total: 1100,
        });
    }
    type Page = { bills: { documentReferenceId: string; month: string; partnerDomainId: string; status: string }[]; nextCursor: string | null };
    const all = async (query: string) => {
      const seen: Page['bills'] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = ok(await developer.get(`/api/agency/${C}/bills?${query}${cursor === null ? '' : `&cursor=${cursor}`}`)) as Page;
        expect(page.bills.length).toBeLessThanOrEqual(5);
        seen.push(...page.bills);
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== null);
      return { seen, pages };
    };
    const { seen, pages } = await all('limit=5');
    expect(pages).toBe(5);
    expect(seen.map((bill) => bill.documentReferenceId)).toEqual([...months].reverse().flatMap((month) => partners.map((partner) => `${partner}-${month}`)));
    const paid = await all('limit=5&status=paid');
    expect(paid.seen.map((bill) => bill.month)).toEqual(['2025-10', '2025-10', '2025-07', '2025-07', '2025-04', '2025-04', '2025-01', '2025-01']);
    // What each partner owes comes with the partner (8 issued bills of 1,100 yen each).
    const overviewC = ok(await developer.get(`/api/agency/${C}/overview`)) as { partners: { id: string; unpaidTotal: number }[] };
    expect(overviewC.partners.map((partner) => [partner.id, partner.unpaidTotal])).toEqual([
      ['test-c-p1', 8800],
      ['test-c-p2', 8800],
    ]);
    const ofOne = await all('limit=5&partnerId=test-c-p2&status=issued');
    expect(ofOne.seen).toHaveLength(8);
    expect(ofOne.seen.every((bill) => bill.partnerDomainId === 'test-c-p2' && bill.status === 'issued')).toBe(true);
    // Another agency's bills: refused to agency users, the cursor of another agency's bill is not a page start.
    expect((await agencyAdmin.get(`/api/agency/${C}/bills`)).status).toBe(403);
    expect((await agency.get(`/api/agency/${B}/bills`)).status).toBe(403);
    expect((await staff.get(`/api/agency/${A}/bills`)).status).toBe(403);
    const own = ok(await agencyAdmin.get(`/api/agency/${A}/bills?limit=200`)) as Page;
    expect(own.bills.every((bill) => bill.partnerDomainId === CORP)).toBe(true);
    expect((await agencyAdmin.get(`/api/agency/${A}/bills?cursor=${B_CORP}-2026-08`)).status).toBe(400);
    for (const query of ['limit=0', 'limit=201', 'status=void', 'cursor=a/b', 'partnerId=', 'orderBy=month'])
      expect((await developer.get(`/api/agency/${C}/bills?${query}`)).status, query).toBe(400);
  });

  it("pages the partners (by name) and the partner requests (newest first) on the server: no gaps or repeats; other agencies, other agencies' cursors and bad pages refused", async () => {
    const D = 'test-agency-d';
    await put(`domains/${D}`, { name: 'D販売', kind: 'agency', rootDomainId: D });
    const names = ['い法人', 'あ法人', 'お法人', 'う法人', 'え法人', 'か法人', 'き法人'];
    for (const [index, name] of names.entries()) {
      const id = `test-d-p${index}`;
      await put(`domains/${id}`, { name, kind: 'corporation', rootDomainId: id, agencyDomainId: D });
      await put(`domains/${D}/partners/${id}`, { name, monthlyUnitPrice: 1000 + index, status: 'active' });
      await put(`domains/${D}/partnerRequests/${id}`, {
        status: 'accepted',
        customerDomainId: id,
        customerName: name,
        agencyName: 'D販売',
        partnerName: name,
        contractStart: null,
        contractEnd: null,
        monthlyUnitPrice: 1000 + index,
        message: null,
        requestedBy: 'test',
        requestedAt: `2026-0${index + 1}-01T00:00:00.000Z`,
        answeredAt: `2026-0${index + 1}-02T00:00:00.000Z`,
      });
    }
    const every = async <R>(path: string, key: 'partners' | 'requests', limit: number): Promise<{ rows: R[]; pages: number }> => {
      const rows: R[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = ok(await developer.get(`${path}?limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`)) as Record<typeof key, R[]> & {
          nextCursor: string | null;
        };
        expect(page[key].length).toBeLessThanOrEqual(limit);
        rows.push(...page[key]);
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== null);
      return { rows, pages };
    };
    const partners = await every<{ id: string; name: string; monthlyUnitPrice: number }>(`/api/agency/${D}/partners`, 'partners', 3);
    expect(partners.pages).toBe(3);
    expect(partners.rows.map((row) => row.name)).toEqual([...names].sort());
    expect(new Set(partners.rows.map((row) => row.id)).size).toBe(names.length);
    const requests = await every<{ domainId: string; requestedAt: string }>(`/api/agency/${D}/partner-requests`, 'requests', 2);
    expect(requests.pages).toBe(4);
    expect(requests.rows.map((row) => row.domainId)).toEqual(names.map((_, index) => `test-d-p${index}`).reverse());
    // Agency users read only their own agency's lists; facility staff none.
    for (const list of ['partners', 'partner-requests']) {
      expect((await agencyAdmin.get(`/api/agency/${D}/${list}`)).status, list).toBe(403);
      expect((await agency.get(`/api/agency/${B}/${list}`)).status, list).toBe(403);
      expect((await staff.get(`/api/agency/${A}/${list}`)).status, list).toBe(403);
      expect((await developer.get(`/api/agency/${FACILITY}/${list}`)).status, list).toBe(404);
      // Another agency's record is not a page start (and says nothing about it), nor is a malformed page.
      expect((await agencyAdmin.get(`/api/agency/${A}/${list}?cursor=test-d-p1`)).status, list).toBe(400);
      for (const query of ['limit=0', 'limit=201', 'cursor=a/b', 'cursor=', 'orderBy=name'])
        expect((await developer.get(`/api/agency/${D}/${list}?${query}`)).status, `${list} ${query}`).toBe(400);
    }
    const own = ok(await agency.get(`/api/agency/${A}/partners`)) as { partners: { id: string }[]; nextCursor: string | null };
    expect(own).toEqual({ partners: [expect.objectContaining({ id: CORP })], nextCursor: null });
  });

  it("pages the devices on the server (filtered, sorted by serial, bounded); never another agency's", async () => {
    type Page = { devices: { serial: string; partnerId: string | null }[]; matched: number; total: number };
    const all = ok(await agencyAdmin.get(`/api/agency/${A}/devices?limit=200`)) as Page;
    expect(all.devices.map((device) => device.serial)).toEqual(expect.arrayContaining([serialA1, serialA2]));
    expect(all.devices.map((device) => device.serial)).not.toContain(serialB1);
    expect(all.matched).toBe(all.total);
    const serials = all.devices.map((device) => device.serial);
    expect(serials).toEqual([...serials].sort((a, b) => a.localeCompare(b)));
    // One at a time: the same devices in the same order.
    const oneByOne: string[] = [];
    for (let offset = 0; offset < all.matched; offset++)
      oneByOne.push(...(ok(await agencyAdmin.get(`/api/agency/${A}/devices?limit=1&offset=${offset}`)) as Page).devices.map((device) => device.serial));
    expect(oneByOne).toEqual(serials);
    const found = ok(await agencyAdmin.get(`/api/agency/${A}/devices?search=${encodeURIComponent(serialA2.toLowerCase())}`)) as Page;
    expect(found).toMatchObject({ matched: 1, devices: [{ serial: serialA2 }] });
    const atCorp = ok(await agencyAdmin.get(`/api/agency/${A}/devices?partnerId=${CORP}`)) as Page;
    expect(atCorp.devices.every((device) => device.partnerId === CORP)).toBe(true);
    expect((ok(await agencyAdmin.get(`/api/agency/${A}/devices?status=retired&online=online`)) as Page).devices).toEqual([]);
    expect((await agencyAdmin.get(`/api/agency/${B}/devices`)).status).toBe(403);
    expect((await staff.get(`/api/agency/${A}/devices`)).status).toBe(403);
    for (const query of [
      'limit=0',
      'limit=201',
      'offset=-1',
      'offset=1.5',
      'status=lost',
      'online=maybe',
      'partnerId=a/b',
      `search=${'x'.repeat(101)}`,
      'sort=serial',
    ])
      expect((await agencyAdmin.get(`/api/agency/${A}/devices?${query}`)).status, query).toBe(400);
  });

  it("pages a partner's rooms on the server (bounded, by facility then name); never another agency's", async () => {
    await put('rooms/test-ag-r2', { domainId: FACILITY, name: '102号室' });
    await put('rooms/test-ag-r1', { domainId: FACILITY, name: '101号室' });
    await put('rooms/test-ag-rb', { domainId: B_CORP, name: 'B室' });
    type Page = { rooms: { id: string; partnerId: string | null }[]; matched: number };
    const all = ok(await agencyAdmin.get(`/api/agency/${A}/rooms?partnerId=${CORP}&limit=200`)) as Page;
    expect(all.rooms.every((room) => room.partnerId === CORP)).toBe(true);
    const ids = all.rooms.map((room) => room.id);
    expect(ids.indexOf('test-ag-r1')).toBeLessThan(ids.indexOf('test-ag-r2'));
    expect(ids).not.toContain('test-ag-rb');
    const oneByOne: string[] = [];
    for (let offset = 0; offset < all.matched; offset++)
      oneByOne.push(...(ok(await agencyAdmin.get(`/api/agency/${A}/rooms?partnerId=${CORP}&limit=1&offset=${offset}`)) as Page).rooms.map((room) => room.id));
    expect(oneByOne).toEqual(ids);
    expect((ok(await agencyAdmin.get(`/api/agency/${A}/rooms?partnerId=${B_CORP}`)) as Page).matched).toBe(0);
    expect((await agencyAdmin.get(`/api/agency/${B}/rooms`)).status).toBe(403);
    for (const query of ['limit=0', 'limit=201', 'offset=x', 'partnerId=a/b', 'sort=name'])
      expect((await agencyAdmin.get(`/api/agency/${A}/rooms?${query}`)).status, query).toBe(400);
  });

  it('statistics count the devices, rooms and revenue by month', async () => {
    const { statistics } = ok(await agencyAdmin.get(`/api/agency/${A}/statistics`)) as {
      statistics: { devices: { total: number; inUse: number }; months: { month: string; total: number; devicesOut: number }[]; partners: { total: number } };
    };
    expect(statistics.devices.total).toBeGreaterThanOrEqual(2);
    expect(statistics.partners.total).toBe(1);
    const september = statistics.months.find((entry) => entry.month === MONTH);
    expect(september).toMatchObject({ total: 4950, devicesOut: 2 });
  });

  it('partners: candidates, a request (never a partner without the customer’s consent), cancel, contract edit; the registration number setting is validated', async () => {
    const candidates = ok(await agencyAdmin.get(`/api/agency/${A}/partner-candidates`)) as { domains: { id: string }[] };
    expect(candidates.domains.map((domain) => domain.id)).toContain('test-free-household');
    expect(candidates.domains.map((domain) => domain.id)).not.toContain(B_CORP);
    expect(candidates.domains.map((domain) => domain.id)).not.toContain(CORP);
    const terms = { name: '自由な家', contractStart: '2026-11-01', contractEnd: null, monthlyUnitPrice: 3480 };
    const ask = (partnerId: string, body: object) => putJson(agencyAdmin, `/api/agency/${A}/partner-requests/${partnerId}`, body);
    // Another agency's customer answers like a domain that does not exist.
    expect((await ask(B_CORP, terms)).body).toMatchObject({ code: 'not-found', reason: 'domain-not-found' });
    expect((await ask(FACILITY, terms)).body).toMatchObject({ code: 'not-found', reason: 'domain-not-found' });
    expect((await ask('test-free-household', { ...terms, monthlyUnitPrice: -1 })).status).toBe(400);
    expect(ok(await ask('test-free-household', terms))).toMatchObject({
      request: { domainId: 'test-free-household', customerName: '自由な家', status: 'requested', monthlyUnitPrice: 3480 },
    });
    expect((await ask(CORP, terms)).body).toMatchObject({ reason: 'already-partner' });
    // Waiting for the customer: listed as a request, not a partner, and no longer a candidate.
    const requests = ok(await agency.get(`/api/agency/${A}/partner-requests`)) as { requests: { domainId: string; status: string }[] };
    expect(requests.requests).toEqual([expect.objectContaining({ domainId: 'test-free-household', status: 'requested' })]);
    expect((ok(await agencyAdmin.get(`/api/agency/${A}/overview`)) as { partners: { id: string }[] }).partners.map((partner) => partner.id)).toEqual([CORP]);
    expect(
      (ok(await agencyAdmin.get(`/api/agency/${A}/partner-candidates`)) as { domains: { id: string }[] }).domains.map((domain) => domain.id),
    ).not.toContain('test-free-household');
    expect((await putJson(agencyAdmin, `/api/agency/${A}/partners/test-free-household`, { ...terms, status: 'active' })).body).toMatchObject({
      reason: 'partner-not-found',
    });
    expect((await ask('test-free-household', terms)).status).toBe(200);
    expect((await agency.send('DELETE', `/api/agency/${A}/partner-requests/test-free-household`, undefined)).status).toBe(403);
    ok(await agencyAdmin.send('DELETE', `/api/agency/${A}/partner-requests/test-free-household`, undefined), 204);
    expect((await agencyAdmin.send('DELETE', `/api/agency/${A}/partner-requests/test-free-household`, undefined)).body).toMatchObject({
      reason: 'request-not-pending',
    });
    // An existing partner's contract is the agency's to edit.
    const contract = { name: '社会福祉法人さくら会', contractStart: '2026-01-01', contractEnd: null, monthlyUnitPrice: 3000, status: 'active' };
    expect(ok(await putJson(agencyAdmin, `/api/agency/${A}/partners/${CORP}`, { ...contract, contractEnd: '2026-12-31' }))).toMatchObject({
      partner: { contractEnd: '2026-12-31' },
    });
    ok(await putJson(agencyAdmin, `/api/agency/${A}/partners/${CORP}`, contract));
    expect((await putJson(agencyAdmin, `/api/agency/${A}/settings`, { invoiceRegistrationNumber: 'T123' })).status).toBe(400);
    expect(ok(await putJson(agencyAdmin, `/api/agency/${A}/settings`, { invoiceRegistrationNumber: 'T1234567890123' }))).toMatchObject({
      agency: { invoiceRegistrationNumber: 'T1234567890123' },
    });
    ok(await putJson(agencyAdmin, `/api/agency/${A}/settings`, { invoiceRegistrationNumber: REGISTRATION }));
  });

  it('lists a partner’s staff read-only', async () => {
    await put(`domains/${FACILITY}/staff/test-staff-1`, { displayName: '介護 太郎', email: 'test-staff-1@example.com', accessLevel: 2 });
    const { staff: list } = ok(await agency.get(`/api/agency/${A}/partners/${CORP}/staff`)) as { staff: { displayName: string; domainId: string }[] };
    expect(list).toEqual(expect.arrayContaining([expect.objectContaining({ displayName: '介護 太郎', domainId: FACILITY })]));
  });

  it('a draft of the month under way bills only the days that have passed, and cannot be issued before the month is over', async () => {
    const thisMonth = monthOfInstant(Date.now());
    const through = lastPassedDay(thisMonth, Date.now());
    const body = ok(await generate(agencyAdmin, { month: thisMonth, partnerId: CORP })) as { bills: Record<string, unknown>[]; skipped: { reason: string }[] };
    if (through === null) {
      // The first day of a month: nothing has passed yet, so nothing is billed.
      expect(body.skipped).toEqual([expect.objectContaining({ reason: 'no-usage' })]);
      return;
    }
    const daysPassed = Number(through.slice(8, 10));
    expect(body.bills[0]).toMatchObject({ billedThrough: through, status: 'draft' });
    // A2 has been lent since August and is still out: every passed day, never the rest of the month.
    const lines = body.bills[0]?.lines as { deviceSerial: string; daysUsed: number }[];
    expect(lines.find((line) => line.deviceSerial === serialA2)?.daysUsed).toBe(daysPassed);
    expect(Math.max(...lines.map((line) => line.daysUsed))).toBeLessThanOrEqual(daysPassed);
    const refused = await agencyAdmin.post(`/api/agency/${A}/bills/${CORP}-${thisMonth}/issue`, {});
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ reason: 'month-not-over' });
    ok(await agencyAdmin.send('DELETE', `/api/agency/${A}/bills/${CORP}-${thisMonth}`, undefined), 204);
  });

  it('the due date follows the contract’s payment terms; the addressee is the customer’s legal name, not the agency’s label; numbers continue', async () => {
    const contract = { name: 'さくら会（通称）', contractStart: '2026-01-01', contractEnd: null, monthlyUnitPrice: 3000, status: 'active' };
    expect((await putJson(agencyAdmin, `/api/agency/${A}/partners/${CORP}`, { ...contract, paymentTerms: { monthsAfter: 9, day: null } })).status).toBe(400);
    ok(await putJson(agencyAdmin, `/api/agency/${A}/partners/${CORP}`, { ...contract, paymentTerms: { monthsAfter: 2, day: 10 } }));
    const overview = ok(await agencyAdmin.get(`/api/agency/${A}/overview`)) as { partners: { id: string; paymentTerms: unknown }[] };
    expect(overview.partners.find((partner) => partner.id === CORP)?.paymentTerms).toEqual({ monthsAfter: 2, day: 10 });
    ok(await generate(agencyAdmin, { month: '2026-10', partnerId: CORP }));
    const issued = ok(await agencyAdmin.post(`/api/agency/${A}/bills/${CORP}-2026-10/issue`, {})) as { bill: Record<string, unknown> };
    expect(issued.bill).toMatchObject({ dueDate: '2026-12-10', invoiceNumber: '000002', partnerName: '社会福祉法人さくら会', billedThrough: '2026-10-31' });
    // The counter is the server's: the documents API neither shows nor sets it.
    const record = ok(await agencyAdmin.get(`/api/documents/domains/${A}`)) as { document: Record<string, unknown> };
    expect(record.document).not.toHaveProperty('lastInvoiceNumber');
    const patched = await agencyAdmin.send('PATCH', `/api/documents/domains/${A}`, JSON.stringify({ data: { lastInvoiceNumber: 0 } }), {
      'content-type': 'application/json',
    });
    expect(patched.status).toBe(403);
    ok(await putJson(agencyAdmin, `/api/agency/${A}/partners/${CORP}`, { ...contract, name: '社会福祉法人さくら会' }));
  });
});
