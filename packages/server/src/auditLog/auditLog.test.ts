/**
 * The audit log on a real server (PGlite, demo accounts), as an attacker would try it: level 3 and
 * signed-out callers are refused, another tenant's entries never show (list, filters, CSV), an
 * agency sees its own agency's changes and not its customers', a domain outside the scope answers
 * 404, and bad filters or oversized pages answer 400. Paging is keyset: pages never repeat or skip.
 * On PGlite and on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLogPage } from '@nemuri/shared/auditLog';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import type { Claims } from '@nemuri/shared/documents/access';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { demoAccount, DocumentsClient, signedIn, startTestServer, type DatabaseChoice, type TestServer } from '../documents/testing.ts';
import { describePostgres } from '../testing/postgres.ts';

const CORP = DEMO_DOMAINS.corporation;
const FACILITY = DEMO_DOMAINS.facilityA;
const AGENCY = DEMO_DOMAINS.agency;
const OTHER_CORP = 'test-audit-other-corp';
const OTHER_FACILITY = 'test-audit-other-facility';

function auditLogReads(choice: DatabaseChoice): void {
  let test: TestServer;
  let admin: DocumentsClient;
  let privilege: DocumentsClient;
  let agency: DocumentsClient;
  let developer: DocumentsClient;
  let anonymous: DocumentsClient;
  const store = () => test.server.app.documents;
  const asSystem = (path: string, data: Record<string, unknown>) => store().set(SYSTEM_PRINCIPAL, path, data, true);
  const facilityAdmin: Claims = { uid: 'test-audit-admin', accessLevel: ROLE_LEVELS.administrator, domainId: FACILITY, rootDomainId: CORP };
  const otherStaff: Claims = { uid: 'test-audit-other', accessLevel: ROLE_LEVELS.administrator, domainId: OTHER_FACILITY, rootDomainId: OTHER_CORP };
  const page = async (client: DocumentsClient, query = ''): Promise<AuditLogPage> => {
    const reply = await client.get(`/api/audit-log${query}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as AuditLogPage;
  };

  beforeAll(async () => {
    test = await startTestServer(choice);
    [admin, privilege, agency, developer] = await Promise.all([
      signedIn(test.server, 'admin@example.com'),
      signedIn(test.server, 'privilege@example.com'),
      signedIn(test.server, 'agency@example.com'),
      signedIn(test.server, 'developer@example.com'),
    ]);
    anonymous = new DocumentsClient(test.server.url);
    await asSystem(`domains/${CORP}`, { name: 'さくら会', kind: 'corporation', rootDomainId: CORP });
    await asSystem(`domains/${FACILITY}`, { name: 'さくら苑', kind: 'facility', rootDomainId: CORP, parentDomainId: CORP });
    await asSystem(`domains/${AGENCY}`, { name: 'ねむりケア販売', kind: 'agency', rootDomainId: AGENCY });
    await asSystem(`domains/${OTHER_CORP}`, { name: '別法人', kind: 'corporation', rootDomainId: OTHER_CORP });
    await asSystem(`domains/${OTHER_FACILITY}`, { name: '別施設', kind: 'facility', rootDomainId: OTHER_CORP, parentDomainId: OTHER_CORP });
    // The agency serves the corporation: its document scope includes it, its audit scope does not.
    await asSystem(`domains/${AGENCY}/partners/${CORP}`, { name: 'さくら会', status: 'active' });
    await asSystem(`domains/${FACILITY}/staff/${facilityAdmin.uid}`, { displayName: '監査 太郎', email: 'audit-taro@example.com', accessLevel: 3 });
    // Changes by people: the facility's administrator, another tenant's, the agency's.
    await store().set(facilityAdmin, 'rooms/test-audit-ra1', { domainId: FACILITY, name: '監査101' }, false);
    await store().update(facilityAdmin, 'rooms/test-audit-ra1', { name: '監査101号室' });
    await store().set(facilityAdmin, 'rooms/test-audit-ra2', { domainId: FACILITY, name: '監査102' }, false);
    await store().delete(facilityAdmin, 'rooms/test-audit-ra2');
    await store().set(otherStaff, 'rooms/test-audit-rx1', { domainId: OTHER_FACILITY, name: '他社101' }, false);
    const agencyAccount = demoAccount('agency-admin@example.com');
    await store().update({ uid: 'test-audit-agency', accessLevel: agencyAccount.accessLevel, domainId: AGENCY, rootDomainId: AGENCY }, `domains/${AGENCY}`, {
      phone: '06-0000-0000',
    });
  }, 120_000);

  afterAll(async () => {
    await test?.stop();
  });

  it('refuses the signed-out (401) and levels below 4 (403), list and CSV alike', async () => {
    expect((await anonymous.get('/api/audit-log')).status).toBe(401);
    expect((await admin.get('/api/audit-log')).status).toBe(403);
    expect((await admin.get(`/api/audit-log.csv?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z`)).status).toBe(403);
  });

  it('a privilege administrator reads their corporation’s changes with names, never another tenant’s', async () => {
    const { rows } = await page(privilege, '?limit=200');
    const paths = rows.map((row) => row.path);
    expect(paths).toEqual(expect.arrayContaining(['rooms/test-audit-ra1', 'rooms/test-audit-ra2']));
    expect(paths).not.toContain('rooms/test-audit-rx1');
    expect(paths.filter((path) => path.startsWith(`domains/${AGENCY}`))).toEqual([]);
    const update = rows.find((row) => row.path === 'rooms/test-audit-ra1' && row.operation === 'update');
    expect(update).toMatchObject({
      who: facilityAdmin.uid,
      whoName: '監査 太郎',
      collection: 'rooms',
      changedKeys: ['name'],
      domainId: FACILITY,
      domainName: 'さくら苑',
    });
    // Another tenant's domain as a filter answers like one that does not exist.
    expect((await privilege.get(`/api/audit-log?domainId=${OTHER_FACILITY}`)).status).toBe(404);
    expect((await privilege.get('/api/audit-log?domainId=no-such-domain')).status).toBe(404);
    // Naming the other tenant's author finds nothing.
    expect((await page(privilege, `?who=${otherStaff.uid}`)).rows).toEqual([]);
  });

  it('filters by who, collection, operation, domain and time', async () => {
    const byWho = await page(privilege, `?who=${facilityAdmin.uid}`);
    expect(byWho.rows.length).toBe(4);
    expect((await page(privilege, `?who=${facilityAdmin.uid}&operation=delete`)).rows.map((row) => row.path)).toEqual(['rooms/test-audit-ra2']);
    const staffChanges = await page(privilege, '?collection=domains/staff');
    expect(staffChanges.rows.length).toBeGreaterThan(0);
    expect(staffChanges.rows.every((row) => row.collection === 'domains/staff')).toBe(true);
    expect(
      (await page(privilege, `?domainId=${FACILITY}&collection=rooms`)).rows.every((row) => row.domainId === FACILITY && row.path.startsWith('rooms/')),
    ).toBe(true);
    expect((await page(privilege, '?from=2099-01-01T00:00:00%2B09:00')).rows).toEqual([]);
    const latest = byWho.rows[0]?.when ?? '';
    expect((await page(privilege, `?who=${facilityAdmin.uid}&to=${encodeURIComponent(latest)}`)).rows.length).toBe(3);
  });

  it('pages newest first by a keyset: every entry once, none skipped', async () => {
    const all = (await page(developer, '?limit=200')).rows.map((row) => row.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let round = 0; round < 100; round++) {
      const next: AuditLogPage = await page(developer, `?limit=3${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`);
      seen.push(...next.rows.map((row) => row.id));
      cursor = next.nextCursor;
      if (cursor === null) break;
    }
    expect(seen).toEqual(all.slice(0, seen.length));
    expect(new Set(seen).size).toBe(seen.length);
    if (all.length < 200) expect(seen).toEqual(all);
  });

  it('an agency reads its own agency’s changes, not its customers’ (a customer as filter: 404)', async () => {
    const { rows } = await page(agency, '?limit=200');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.domainId === AGENCY)).toBe(true);
    expect(rows.map((row) => row.path)).toContain(`domains/${AGENCY}`);
    expect((await agency.get(`/api/audit-log?domainId=${CORP}`)).status).toBe(404);
    expect((await agency.get(`/api/audit-log?domainId=${FACILITY}`)).status).toBe(404);
  });

  it('the maker’s developers read every tenant’s changes', async () => {
    const paths = (await page(developer, '?limit=200')).rows.map((row) => row.path);
    expect(paths).toEqual(expect.arrayContaining(['rooms/test-audit-ra1', 'rooms/test-audit-rx1', `domains/${AGENCY}`]));
  });

  it('bad input answers 400: oversized page, unknown collection or operation, unknown parameter, a forged cursor, reversed period', async () => {
    for (const query of [
      'limit=201',
      'limit=0',
      'collection=nope',
      'collection=auditLogs',
      'operation=drop',
      'extra=1',
      'cursor=abc',
      'cursor=1%20x',
      'from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z',
      'from=yesterday',
    ]) {
      expect((await privilege.get(`/api/audit-log?${query}`)).status, query).toBe(400);
    }
  });

  it('CSV: UTF-8 with BOM or Windows-31J, Japanese headings, Japan time YYYY/MM/DD, the caller’s entries only; the period is required and bounded', async () => {
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 86_400_000).toISOString();
    const response = await fetch(`${test.server.url}/api/audit-log.csv?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, {
      headers: { cookie: privilege.cookieHeader },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines[0]).toBe('日時,操作者,操作者ID,操作,コレクション,パス,変更した項目,ドメイン');
    const line = lines.find((entry) => entry.includes('rooms/test-audit-ra1') && entry.includes(',更新,'));
    expect(line).toMatch(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d,監査 太郎,test-audit-admin,更新,rooms,rooms\/test-audit-ra1,name,さくら苑$/);
    expect(lines.some((entry) => entry.includes('test-audit-rx1'))).toBe(false);
    // The same file in Windows-31J on request: no BOM, the headings' and the line's cp932 bytes.
    const sjis = await fetch(`${test.server.url}/api/audit-log.csv?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&encoding=sjis`, {
      headers: { cookie: privilege.cookieHeader },
    });
    expect(sjis.headers.get('content-type')).toBe('text/csv; charset=Shift_JIS');
    const sjisHex = Buffer.from(await sjis.arrayBuffer()).toString('hex');
    expect(
      sjisHex.startsWith(
        '93fa8e9e2c91808dec8ed22c91808dec8ed249442c91808dec2c8352838c834e8356838783932c837083582c95cf8d5882b582bd8d8096da2c83688381834383930d0a',
      ),
    ).toBe(true);
    expect(sjisHex).toContain(
      '2c8ac48db82091be98592c746573742d61756469742d61646d696e2c8d5890562c726f6f6d732c726f6f6d732f746573742d61756469742d7261312c6e616d652c82b382ad82e789910d0a',
    );
    expect((await privilege.get('/api/audit-log.csv')).status).toBe(400);
    expect((await privilege.get('/api/audit-log.csv?from=2026-01-01T00:00:00Z&to=2026-06-01T00:00:00Z')).status).toBe(400);
  });
}

describe('audit log on PGlite', () => auditLogReads('pglite'));
describePostgres('audit log on PostgreSQL', () => auditLogReads('postgresql'));
