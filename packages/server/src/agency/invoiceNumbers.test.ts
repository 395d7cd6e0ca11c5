/**
 * Invoice numbers under concurrency, on PGlite and on PostgreSQL: bills issued at the same moment
 * take the agency's numbers 1..N exactly once each (none repeated, none skipped), one bill issued
 * twice at once is issued once and takes one number, and another agency counts on its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { describePostgres } from '../testing/postgres.ts';
import { signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from '../documents/testing.ts';

const A = DEMO_DOMAINS.agency;
const OTHER = 'test-other-agency';
const MONTH = '2026-09';
const BILLS = 12;

function numbersNeverRepeatOrSkip(choice: DatabaseChoice): void {
  let test: TestServer;
  let agencyAdmin: DocumentsClient;
  let developer: DocumentsClient;
  const put = (path: string, data: Record<string, unknown>) => test.server.app.documents.set(SYSTEM_PRINCIPAL, path, data, true);
  const draft = (agencyId: string, partner: string) =>
    put(`domains/${agencyId}/bills/${partner}-${MONTH}`, {
      partnerDomainId: partner,
      month: MONTH,
      status: 'draft',
      lines: [],
      subtotal: 1000,
      consumptionTax: 100,
      total: 1100,
      taxRate: 10,
    });
  const issue = (client: DocumentsClient, agencyId: string, partner: string) => client.post(`/api/agency/${agencyId}/bills/${partner}-${MONTH}/issue`, {});

  beforeAll(async () => {
    test = await startTestServer(choice);
    [agencyAdmin, developer] = await Promise.all([signedIn(test.server, 'agency-admin@example.com'), signedIn(test.server, 'developer@example.com')]);
    await put(`domains/${A}`, { name: 'ねむりケア販売株式会社', kind: 'agency', rootDomainId: A, invoiceRegistrationNumber: 'T5120001234567' });
    await put(`domains/${OTHER}`, { name: '別の販売店', kind: 'agency', rootDomainId: OTHER, invoiceRegistrationNumber: 'T1000000000001' });
    for (let i = 0; i < BILLS; i++) await draft(A, `test-partner-${i}`);
    await draft(A, 'test-twice');
    await draft(OTHER, 'test-other-partner');
  }, 120_000);

  afterAll(async () => {
    await test?.stop();
  });

  it(`${BILLS} bills issued at once take the numbers 1..${BILLS}, each once`, async () => {
    const replies = await Promise.all(Array.from({ length: BILLS }, (_, i) => issue(agencyAdmin, A, `test-partner-${i}`)));
    for (const reply of replies) expect(reply.status, reply.text).toBe(200);
    const numbers = replies.map((reply) => (reply.body as { bill: { invoiceNumber: string; invoiceSequence: number } }).bill);
    expect(numbers.map((bill) => bill.invoiceSequence).sort((a, b) => a - b)).toEqual(Array.from({ length: BILLS }, (_, i) => i + 1));
    expect(new Set(numbers.map((bill) => bill.invoiceNumber)).size).toBe(BILLS);
    // As stored, not only as answered.
    const stored = await test.server.app.documents.query(SYSTEM_PRINCIPAL, {
      collection: `domains/${A}/bills`,
      where: [['status', '==', 'issued']],
      limit: 100,
    });
    expect(stored.map((bill) => bill.invoiceNumber).sort()).toEqual(Array.from({ length: BILLS }, (_, i) => String(i + 1).padStart(6, '0')));
  }, 120_000);

  it('one bill issued twice at once is issued once, and the next number follows without a gap', async () => {
    const [first, second] = await Promise.all([issue(agencyAdmin, A, 'test-twice'), issue(agencyAdmin, A, 'test-twice')]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    expect((first.status === 409 ? first : second).body).toMatchObject({ reason: 'bill-frozen' });
    expect(((first.status === 200 ? first : second).body as { bill: { invoiceSequence: number } }).bill.invoiceSequence).toBe(BILLS + 1);
    const agency = await test.server.app.documents.get(SYSTEM_PRINCIPAL, `domains/${A}`);
    expect(agency?.document.lastInvoiceNumber).toBe(BILLS + 1);
  }, 60_000);

  it('another agency numbers its own invoices from 1; its bills are not the agency admin’s to issue', async () => {
    expect((await issue(agencyAdmin, OTHER, 'test-other-partner')).status).toBe(403);
    const reply = await issue(developer, OTHER, 'test-other-partner');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ bill: { invoiceNumber: '000001', issuerName: '別の販売店' } });
  }, 60_000);
}

describe('invoice numbers on PGlite', () => numbersNeverRepeatOrSkip('pglite'));
describePostgres('invoice numbers on PostgreSQL', () => numbersNeverRepeatOrSkip('postgresql'));
