/**
 * The customer's side of partner requests a page at a time (GET /api/domains/:id/partner-requests,
 * partnerRequests.ts customerRequestsPage): every request once across the pages, newest first, a
 * partnership without a request on the first page; another tenant's domain answers like a missing
 * one and a cursor that is not one of this customer's requests is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import type { CustomerPartnerRequestRow } from '@nemuri/shared/partnerRequests';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { describePostgres } from '../testing/postgres.ts';
import { signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from '../documents/testing.ts';

const CORP = DEMO_DOMAINS.corporation;
const OTHER = 'test-other-corp';
const REQUESTS = 23;
const agencyOf = (index: number) => `test-asking-agency-${String(index).padStart(2, '0')}`;

function customerPages(choice: DatabaseChoice): void {
  let test: TestServer;
  let owner: DocumentsClient;
  const base = `/api/domains/${CORP}/partner-requests`;
  const put = (path: string, data: Record<string, unknown>) => test.server.app.documents.set(SYSTEM_PRINCIPAL, path, data, false);
  const request = (customerId: string, index: number) => ({
    customerDomainId: customerId,
    customerName: customerId,
    agencyName: `代理店${index}`,
    status: index % 3 === 0 ? 'declined' : 'requested',
    partnerName: customerId,
    contractStart: null,
    contractEnd: null,
    monthlyUnitPrice: 3000,
    message: null,
    requestedBy: 'test',
    // Two requests share each instant: the path breaks the tie, so none is skipped or repeated.
    requestedAt: new Date(Date.UTC(2026, 9, 1 + Math.floor(index / 2))).toISOString(),
    answeredBy: null,
    answeredAt: null,
  });

  beforeAll(async () => {
    test = await startTestServer(choice);
    owner = await signedIn(test.server, 'owner@example.com');
    await put(`domains/${CORP}`, { name: '社会福祉法人さくら会', kind: 'corporation', rootDomainId: CORP });
    await put(`domains/${OTHER}`, { name: '別の法人', kind: 'corporation', rootDomainId: OTHER });
    for (let index = 0; index < REQUESTS; index++) {
      await put(`domains/${agencyOf(index)}`, { name: `代理店${index}`, kind: 'agency', rootDomainId: agencyOf(index) });
      await put(`domains/${agencyOf(index)}/partnerRequests/${CORP}`, request(CORP, index));
    }
    // Another customer's request, from an agency that never asked CORP.
    await put('domains/test-other-agency', { name: '他の代理店', kind: 'agency', rootDomainId: 'test-other-agency' });
    await put(`domains/test-other-agency/partnerRequests/${OTHER}`, request(OTHER, 99));
    // A partnership made before requests existed: no request record.
    await put('domains/test-old-agency', { name: '古い代理店', kind: 'agency', rootDomainId: 'test-old-agency' });
    await put(`domains/test-old-agency/partners/${CORP}`, { name: 'さくら会', monthlyUnitPrice: 2000, status: 'active' });
  }, 120_000);

  afterAll(async () => {
    await test?.stop();
  });

  it('pages every request once, newest first, with the old partnership on the first page', async () => {
    const seen: CustomerPartnerRequestRow[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const reply = await owner.get(`${base}?limit=5${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(reply.status, reply.text).toBe(200);
      const page = reply.body as { requests: CustomerPartnerRequestRow[]; nextCursor: string | null };
      if (pages === 0) expect(page.requests[0]).toMatchObject({ agencyId: 'test-old-agency', partner: true, status: 'accepted' });
      seen.push(...page.requests);
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null && pages < 20);
    const asked = seen.filter((row) => row.agencyId !== 'test-old-agency');
    expect(asked.map((row) => row.agencyId).sort()).toEqual(Array.from({ length: REQUESTS }, (_, index) => agencyOf(index)));
    expect(new Set(seen.map((row) => row.agencyId)).size).toBe(seen.length);
    const times = asked.map((row) => row.requestedAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(pages).toBe(Math.ceil(REQUESTS / 5));
  });

  it("answers another tenant's domain like a missing one, and refuses cursors that are not this customer's requests", async () => {
    for (const path of [`/api/domains/${OTHER}/partner-requests`, `/api/domains/${OTHER}/partner-requests?cursor=${agencyOf(1)}`]) {
      const reply = await owner.get(path);
      expect(reply.status, reply.text).toBe(404);
      expect(reply.body).toMatchObject({ code: 'not-found', reason: 'domain-not-found' });
    }
    for (const cursor of ['test-other-agency', 'no-such-agency', CORP]) {
      const reply = await owner.get(`${base}?cursor=${cursor}`);
      expect(reply.status, reply.text).toBe(400);
    }
    for (const query of ['limit=0', 'limit=100000', 'cursor=', 'cursor=a%2Fb', 'other=1']) {
      expect((await owner.get(`${base}?${query}`)).status, query).toBe(400);
    }
  });
}

describe('the customer’s partner requests, paged, on PGlite', () => {
  customerPages('pglite');
});

describePostgres('the customer’s partner requests, paged, on PostgreSQL', () => {
  customerPages('postgresql');
});
