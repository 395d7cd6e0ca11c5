/**
 * The tenancy matrix: demo accounts at levels 1, 2, 3, 5, 50 and 100 × every collection of the
 * registry (domains, staff, partners, bills, rooms, sleep days, uploads, devices, borrows, device
 * types, parameters, views, update history, alerts, audit logs, invitations, report links) × read,
 * list, count, live subscriptions (document, query, count), create, update and delete, against a
 * real server on PGlite and on PostgreSQL. The expected outcome is written out by hand here from
 * PRODUCT.md sections 1 and 5 and docs/api.md "Access" (never computed with the engine's own access
 * code): a record outside the caller's scope must never be returned, counted, delivered live or
 * changed.
 */
import { COLLECTIONS as REGISTRY, type Operation } from '@nemuri/shared/documents/collections';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServerMessage } from '@nemuri/shared/documents/live';
import { LiveSocket, settle } from '../live/testing.ts';
import type { ClientReply } from '../testing/browserClient.ts';
import { ok, signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from './testing.ts';

type Data = Record<string, unknown>;
type UserKey = 'individual' | 'staff' | 'admin' | 'owner' | 'agency' | 'developer';
/** The collections of seeded records (audit logs are written by the server, see AUDITED). */
type Collection =
  | 'domains'
  | 'domains/staff'
  | 'domains/partners'
  | 'domains/partnerRequests'
  | 'domains/bills'
  | 'rooms'
  | 'rooms/sleeps'
  | 'rooms/uploads'
  | 'devices'
  | 'devices/borrows'
  | 'deviceTypes'
  | 'parameters'
  | 'views'
  | 'histories'
  | 'alerts'
  | 'invitations'
  | 'reportAccess';
const COLLECTIONS: Collection[] = [
  'domains',
  'domains/staff',
  'domains/partners',
  'domains/partnerRequests',
  'domains/bills',
  'rooms',
  'rooms/sleeps',
  'rooms/uploads',
  'devices',
  'devices/borrows',
  'deviceTypes',
  'parameters',
  'views',
  'histories',
  'alerts',
  'invitations',
  'reportAccess',
];

const USERS: Record<UserKey, { email: string; level: number }> = {
  individual: { email: 'individual@example.com', level: 1 },
  staff: { email: 'staff@example.com', level: 2 },
  admin: { email: 'admin@example.com', level: 3 },
  owner: { email: 'owner@example.com', level: 5 },
  agency: { email: 'agency@example.com', level: 50 },
  developer: { email: 'developer@example.com', level: 100 },
};

/**
 * The minimum level per operation, by hand (null: nobody, the server writes it):
 * - domains: facility staff (2) read their domain, administrators (3) edit it (/domain-config),
 *   agencies (50) register domains, only the maker (100) removes one (/master/domain-lists);
 * - staff: from general staff (2), with the staff rule of PRODUCT.md section 1 (expectedStatus);
 * - partners and bills: the agency area (50 reads, 51 edits); bills are kept by the agency API;
 * - rooms, sleeps, uploads, alerts: level 1 reads its rooms' records, staff (2) record and
 *   change, administrators (3) create rooms and delete;
 * - devices: staff see them, administrators assign them, the maker (100) registers and retires;
 * - borrows: lending (/device-borrow, agencies) from 50, removing a lend record 100;
 * - master data (device types, parameters, views, update history): everyone reads, senior
 *   developers (101) edit (/master: 100 looks, 101 edits);
 * - audit logs: privilege administrators and owners (4-5) and up read them in scope; nobody writes
 *   one through the documents API;
 * - invitations and report links: administrators (3).
 */
const MIN_LEVEL: Record<Collection | 'auditLogs', Record<Operation, number | null>> = {
  domains: { read: 2, list: 2, create: 50, update: 3, delete: 100 },
  'domains/staff': { read: 2, list: 2, create: 2, update: 2, delete: 2 },
  'domains/partners': { read: 50, list: 50, create: 51, update: 51, delete: 51 },
  'domains/partnerRequests': { read: 50, list: 50, create: 51, update: 51, delete: 51 },
  'domains/bills': { read: 50, list: 50, create: 51, update: 51, delete: 51 },
  rooms: { read: 1, list: 1, create: 3, update: 2, delete: 3 },
  'rooms/sleeps': { read: 1, list: 1, create: 2, update: 2, delete: 3 },
  'rooms/uploads': { read: 1, list: 1, create: 2, update: 2, delete: 3 },
  devices: { read: 2, list: 2, create: 100, update: 3, delete: 100 },
  'devices/borrows': { read: 2, list: 2, create: 50, update: 50, delete: 100 },
  deviceTypes: { read: 1, list: 1, create: 101, update: 101, delete: 101 },
  parameters: { read: 1, list: 1, create: 101, update: 101, delete: 101 },
  views: { read: 1, list: 1, create: 101, update: 101, delete: 101 },
  histories: { read: 1, list: 1, create: 101, update: 101, delete: 101 },
  alerts: { read: 1, list: 1, create: 2, update: 2, delete: 3 },
  auditLogs: { read: 4, list: 4, create: null, update: null, delete: null },
  invitations: { read: 3, list: 3, create: 3, update: 3, delete: 3 },
  reportAccess: { read: 3, list: 3, create: 3, update: 3, delete: 3 },
};
/** Written through their own API only (bills, uploads, lending, report links), except by the maker's developers (100+). */
const MANAGED: ReadonlySet<Collection> = new Set([
  'domains/partners',
  'domains/partnerRequests',
  'domains/bills',
  'rooms/uploads',
  'devices/borrows',
  'reportAccess',
]);
/** What an agency writes in its partners' domains: the devices it lends (elsewhere only its own domain's records). */
const AGENCY_PARTNER_WRITES: ReadonlySet<Collection> = new Set(['devices', 'devices/borrows']);
/** What an agency never reads of a partner: residents' nights, recordings and alerts. */
const AGENCY_HIDDEN: ReadonlySet<Collection> = new Set(['rooms/sleeps', 'rooms/uploads', 'alerts']);

interface Doc {
  path: string;
  data: (ownerUid: string) => Data;
  /** A harmless change for the update test. */
  change: Data;
  collection: Collection;
}

// The tenants: a corporation with two facilities (B is the agency's partner), a household, the
// agency, another corporation with a facility, and another agency.
const domain = (id: string, fields: Data): Doc => ({
  path: `domains/${id}`,
  collection: 'domains',
  data: () => ({ name: id, ...fields }),
  change: { phone: '03-0000-0001' },
});
const room = (id: string, domainId: string, owned = false): Doc => ({
  path: `rooms/${id}`,
  collection: 'rooms',
  data: (uid) => ({ domainId, name: id, ...(owned ? { ownerUids: [uid] } : {}) }),
  change: { residentNote: 'changed' },
});
const device = (id: string, fields: Data): Doc => ({
  path: `devices/${id}`,
  collection: 'devices',
  data: () => ({ deviceTypeId: 'bed', status: 'in_use', ...fields }),
  change: { firmwareVersion: '2.0' },
});
const staff = (domainId: string, id: string, accessLevel: number): Doc => ({
  path: `domains/${domainId}/staff/${id}`,
  collection: 'domains/staff',
  data: () => ({ displayName: id, email: `${id}@nemuri.jp`, accessLevel }),
  change: { displayName: 'changed' },
});
const alert = (id: string, domainId: string, roomId: string): Doc => ({
  path: `alerts/${id}`,
  collection: 'alerts',
  data: () => ({ domainId, roomId, type: 'outOfBed', startedAt: '2026-01-01T00:00:00Z' }),
  change: { endedAt: '2026-01-01T00:05:00Z' },
});

const sleep = (roomId: string, day: string): Doc => ({
  path: `rooms/${roomId}/sleeps/${day}`,
  collection: 'rooms/sleeps',
  data: () => ({ source: 'live', totalSleepMin: 400 }),
  change: { totalSleepMin: 401 },
});
const upload = (roomId: string, id: string): Doc => ({
  path: `rooms/${roomId}/uploads/${id}`,
  collection: 'rooms/uploads',
  data: () => ({ fileName: `${id}.csv`, size: 10, format: 'csv', uploadedBy: 'someone', status: 'done' }),
  change: { status: 'failed' },
});
const invitation = (id: string, domainId: string): Doc => ({
  path: `invitations/${id}`,
  collection: 'invitations',
  data: () => ({ domainId, email: `${id}@nemuri.jp`, accessLevel: 2, expiresAt: '2030-01-01T00:00:00Z' }),
  change: { revokedAt: '2026-01-02T00:00:00Z' },
});

const partner = (agencyId: string, partnerId: string): Doc => ({
  path: `domains/${agencyId}/partners/${partnerId}`,
  collection: 'domains/partners',
  data: () => ({ name: partnerId }),
  change: { status: 'active' },
});
const partnerRequest = (agencyId: string, customerId: string): Doc => ({
  path: `domains/${agencyId}/partnerRequests/${customerId}`,
  collection: 'domains/partnerRequests',
  data: () => ({ customerDomainId: customerId, status: 'requested', partnerName: customerId, requestedBy: 'someone', requestedAt: '2026-01-01T00:00:00Z' }),
  change: { message: 'changed' },
});
const bill = (agencyId: string, id: string, partnerDomainId: string): Doc => ({
  path: `domains/${agencyId}/bills/${id}`,
  collection: 'domains/bills',
  data: () => ({ partnerDomainId, month: '2026-01', status: 'draft' }),
  change: { dueDate: '2026-02-28' },
});
const borrow = (serial: string, id: string): Doc => ({
  path: `devices/${serial}/borrows/${id}`,
  collection: 'devices/borrows',
  data: () => ({ toDomainId: 'demo-facility-a', from: '2026-01-01T00:00:00Z', by: 'someone' }),
  change: { note: 'changed' },
});
const reportLink = (id: string, roomId: string): Doc => ({
  path: `reportAccess/${id}`,
  collection: 'reportAccess',
  data: () => ({ roomId, createdBy: 'someone', tokenHash: `hash-of-${id}`, expiresAt: '2030-01-01T00:00:00Z' }),
  change: { revokedAt: '2026-01-02T00:00:00Z' },
});
const deviceType = (id: string): Doc => ({
  path: `deviceTypes/${id}`,
  collection: 'deviceTypes',
  data: () => ({ name: id, model: 'M-1' }),
  change: { description: 'changed' },
});
const parameter = (id: string): Doc => ({
  path: `parameters/${id}`,
  collection: 'parameters',
  data: () => ({ key: id, value: 1, type: 'number' }),
  change: { description: 'changed' },
});
const view = (id: string, routeKey: string): Doc => ({
  path: `views/${id}`,
  collection: 'views',
  data: () => ({ routeKey, channels: ['ecg'] }),
  change: { name: 'changed' },
});
const history = (id: string, version: string): Doc => ({
  path: `histories/${id}`,
  collection: 'histories',
  data: () => ({ version, date: '2026/01/01', title: id, body: 'notes' }),
  change: { title: 'changed' },
});

const DOCS: Doc[] = [
  // Domains first: the records below take their root domain from them.
  domain('demo-corp', { kind: 'corporation' }),
  domain('demo-facility-a', { kind: 'facility', parentDomainId: 'demo-corp', rootDomainId: 'demo-corp' }),
  domain('demo-facility-b', { kind: 'facility', parentDomainId: 'demo-corp', rootDomainId: 'demo-corp', agencyDomainId: 'demo-agency' }),
  domain('demo-household', { kind: 'individual' }),
  domain('demo-agency', { kind: 'agency' }),
  domain('other-corp', { kind: 'corporation' }),
  domain('other-facility', { kind: 'facility', parentDomainId: 'other-corp', rootDomainId: 'other-corp' }),
  domain('other-agency', { kind: 'agency' }),
  room('roomA', 'demo-facility-a'),
  room('roomB', 'demo-facility-b'),
  room('roomH', 'demo-household', true),
  room('roomX', 'other-facility'),
  device('devA', { domainId: 'demo-facility-a' }),
  device('devB', { domainId: 'demo-facility-b' }),
  device('devH', { domainId: 'demo-household' }),
  device('devX', { domainId: 'other-facility' }),
  device('devStock', { ownerAgencyDomainId: 'demo-agency', status: 'stock' }),
  staff('demo-facility-a', 'sA2', 2),
  staff('demo-facility-a', 'sA3', 3),
  staff('demo-facility-b', 'sB2', 2),
  staff('other-facility', 'sX2', 2),
  staff('demo-household', 'sH1', 1),
  alert('alA', 'demo-facility-a', 'roomA'),
  alert('alB', 'demo-facility-b', 'roomB'),
  alert('alH', 'demo-household', 'roomH'),
  alert('alX', 'other-facility', 'roomX'),
  sleep('roomA', '2026-01-01'),
  sleep('roomB', '2026-01-02'),
  sleep('roomH', '2026-01-03'),
  sleep('roomX', '2026-01-04'),
  upload('roomA', 'upA'),
  upload('roomB', 'upB'),
  upload('roomH', 'upH'),
  upload('roomX', 'upX'),
  invitation('inA', 'demo-facility-a'),
  invitation('inB', 'demo-facility-b'),
  invitation('inX', 'other-facility'),
  // The agency's partner facility B: the agency's scope (read, listed, changed and deleted as a record too).
  partner('demo-agency', 'demo-facility-b'),
  partner('other-agency', 'other-facility'),
  partnerRequest('demo-agency', 'other-corp'),
  partnerRequest('other-agency', 'demo-household'),
  bill('demo-agency', 'billAg', 'demo-facility-b'),
  bill('other-agency', 'billX', 'other-facility'),
  borrow('devA', 'brA'),
  borrow('devB', 'brB'),
  borrow('devStock', 'brStock'),
  borrow('devX', 'brX'),
  reportLink('rlA', 'roomA'),
  reportLink('rlB', 'roomB'),
  reportLink('rlX', 'roomX'),
  deviceType('dtM'),
  parameter('prM'),
  view('vwM', 'raw-ecg'),
  history('hsM', '0.8.32'),
];

const ALL = DOCS.map((doc) => doc.path);
/** Master data: no tenant, every signed-in user reads it. */
const MASTER = ['deviceTypes/dtM', 'parameters/prM', 'views/vwM', 'histories/hsM'];

/**
 * The agency's (50) scope: its own domain and its partner facility B, with B's records and its stock.
 * It reads all of them but B's residents' nights, recordings and alerts (AGENCY_HIDDEN), and those
 * it reads of B are minimised (rooms: status, not residents).
 */
const AGENCY_SCOPE: string[] = [
  'domains/demo-agency',
  'domains/demo-facility-b',
  'rooms/roomB',
  'devices/devB',
  'devices/devStock',
  'domains/demo-facility-b/staff/sB2',
  'alerts/alB',
  'rooms/roomB/sleeps/2026-01-02',
  'rooms/roomB/uploads/upB',
  'invitations/inB',
  'domains/demo-agency/partners/demo-facility-b',
  'domains/demo-agency/partnerRequests/other-corp',
  'domains/demo-agency/bills/billAg',
  'devices/devB/borrows/brB',
  'devices/devStock/borrows/brStock',
  'reportAccess/rlB',
  ...MASTER,
];

/**
 * Which records each user may see (by hand, from PRODUCT.md section 1), by path:
 * - individual (1, household): the room listed in `ownerUids` and that room's records;
 * - staff and admin (2, 3, facility A): facility A's records (staff at level 3 hidden from 2);
 * - owner (5, root demo-corp): the corporation and both facilities, never the other corporation's;
 * - agency (50): its own domain and its partner facility B, with B's records and its stock;
 * - developer (100): everything.
 */
const VISIBLE: Record<UserKey, string[]> = {
  individual: ['rooms/roomH', 'alerts/alH', 'rooms/roomH/sleeps/2026-01-03', 'rooms/roomH/uploads/upH', ...MASTER],
  staff: [
    'domains/demo-facility-a',
    'rooms/roomA',
    'devices/devA',
    'domains/demo-facility-a/staff/sA2',
    'alerts/alA',
    'rooms/roomA/sleeps/2026-01-01',
    'rooms/roomA/uploads/upA',
    'devices/devA/borrows/brA',
    ...MASTER,
  ],
  admin: [
    'domains/demo-facility-a',
    'rooms/roomA',
    'devices/devA',
    'domains/demo-facility-a/staff/sA2',
    'domains/demo-facility-a/staff/sA3',
    'alerts/alA',
    'rooms/roomA/sleeps/2026-01-01',
    'rooms/roomA/uploads/upA',
    'invitations/inA',
    'devices/devA/borrows/brA',
    'reportAccess/rlA',
    ...MASTER,
  ],
  owner: [
    'domains/demo-corp',
    'domains/demo-facility-a',
    'domains/demo-facility-b',
    'rooms/roomA',
    'rooms/roomB',
    'devices/devA',
    'devices/devB',
    'domains/demo-facility-a/staff/sA2',
    'domains/demo-facility-a/staff/sA3',
    'domains/demo-facility-b/staff/sB2',
    'alerts/alA',
    'alerts/alB',
    'rooms/roomA/sleeps/2026-01-01',
    'rooms/roomB/sleeps/2026-01-02',
    'rooms/roomA/uploads/upA',
    'rooms/roomB/uploads/upB',
    'invitations/inA',
    'invitations/inB',
    'devices/devA/borrows/brA',
    'devices/devB/borrows/brB',
    'reportAccess/rlA',
    'reportAccess/rlB',
    ...MASTER,
  ],
  agency: AGENCY_SCOPE.filter((path) => !AGENCY_HIDDEN.has(DOCS.find((doc) => doc.path === path)?.collection as Collection)),
  developer: ALL,
};

/**
 * Whose writes' audit logs each user reads (by hand): an audit log belongs to the tenant of the
 * record written, so levels 4+ read those of the records they see; master data has no tenant, so
 * only the maker reads its audit logs. Below level 4 none at all.
 */
const withoutMaster = (paths: string[]): string[] => paths.filter((path) => !MASTER.includes(path));
const AUDITED: Record<UserKey, string[]> = {
  individual: [],
  staff: [],
  admin: [],
  owner: withoutMaster(VISIBLE.owner),
  agency: withoutMaster(AGENCY_SCOPE),
  developer: ALL,
};

/** Creating a copy of a record in the same place (same tenant) is allowed where the record is visible, except for domains: see expectedStatus. */
function expectedStatus(user: UserKey, doc: Doc, operation: Operation, after: Data | null): number {
  const { level } = USERS[user];
  const min = MIN_LEVEL[doc.collection][operation];
  if (min === null || level < min) return 403;
  if (MANAGED.has(doc.collection) && operation !== 'read' && operation !== 'list' && level < 100) return 403;
  // A new domain is a tenant of its own: the agency's scope holds its own domain and its partners,
  // and the copies are neither (nor under a root of its scope). Only the maker creates them here.
  if (doc.collection === 'domains' && operation === 'create') return user === 'developer' ? 200 : 403;
  if (!VISIBLE[user].includes(doc.path)) {
    // Out of scope is missing: not read, not updated, deleted as nothing; a copy there is refused.
    if (operation === 'read' || operation === 'update') return 404;
    if (operation === 'delete') return 200;
    return 403;
  }
  if (
    user === 'agency' &&
    operation !== 'read' &&
    operation !== 'list' &&
    !AGENCY_PARTNER_WRITES.has(doc.collection) &&
    !doc.path.startsWith('domains/demo-agency')
  )
    return 403;
  if (doc.collection === 'domains/staff' && operation !== 'read' && operation !== 'list') {
    const before = doc.data('').accessLevel as number;
    const next = (after?.accessLevel as number | undefined) ?? before;
    if (next > level) return 403;
    if (level < 4 && (before >= 3 || next >= 3)) return 403;
  }
  return 200;
}

const auditAllowed = (user: UserKey): boolean => USERS[user].level >= (MIN_LEVEL.auditLogs.list ?? Infinity);
const auditVisible = (user: UserKey, path: string): boolean => USERS[user].level >= (MIN_LEVEL.auditLogs.read ?? Infinity) && AUDITED[user].includes(path);

/**
 * When a record can be written: root domains, then domains naming them, then what takes its
 * tenant from a domain, then from a room or device (and alerts, which name their room).
 */
const SEED_PHASE: Record<Collection, number> = {
  domains: 0,
  'domains/staff': 2,
  'domains/partners': 2,
  'domains/partnerRequests': 2,
  'domains/bills': 2,
  rooms: 2,
  devices: 2,
  alerts: 3,
  invitations: 2,
  deviceTypes: 2,
  parameters: 2,
  views: 2,
  histories: 2,
  'rooms/sleeps': 3,
  'rooms/uploads': 3,
  'devices/borrows': 3,
  reportAccess: 3,
};
/** A domain naming a parent or an agency is written after them. */
const phaseOf = (doc: Doc): number =>
  doc.collection === 'domains' && (doc.data('').parentDomainId !== undefined || doc.data('').agencyDomainId !== undefined) ? 1 : SEED_PHASE[doc.collection];

/** A collection's query: a subcollection as a collection-group query. */
const targetOf = (collection: Collection) =>
  collection.includes('/') ? { collection: collection.split('/')[1] as string, collectionGroup: true } : { collection };
/** Audit logs, newest first: a window of the growing log for the live query. */
const AUDIT_WINDOW = 50;
const AUDIT_QUERY = { collection: 'auditLogs', orderBy: [['when', 'desc']], limit: AUDIT_WINDOW };
const DENIED = { code: 'permission-denied', message: 'Missing or insufficient permissions.' };
/** Out of scope answers exactly like missing. */
const MISSING = { code: 'not-found', message: expect.any(String) };

export function tenancyHolds(choice: DatabaseChoice): void {
  let test: TestServer;
  const clients = {} as Record<UserKey, DocumentsClient>;
  let individualUid = '';
  /** The audit log of each record's first seed write (path → audit log id). */
  const seedLog = new Map<string, string>();

  // A senior developer (101) seeds and changes the records: master data is written from 101 only.
  let seeder: DocumentsClient;
  const seed = async (doc: Doc) => ok(await seeder.setDocument(doc.path, doc.data(individualUid)));
  /**
   * Seeds records at once, parents first: a record takes its tenant from its domain, parent or
   * room as stored when it is written.
   */
  const reseed = async (docs: Doc[]) => {
    for (const phase of [0, 1, 2, 3]) await Promise.all(docs.filter((doc) => phaseOf(doc) === phase).map(seed));
  };
  /** The audit logs as stored (read past the engine), oldest first. */
  const auditRows = async () =>
    (
      await test.server.database.query<{ id: string; path: string; data: Data }>(
        `select id, data ->> 'path' as path, data from documents where collection = 'auditLogs' order by created_at, id`,
      )
    ).rows;

  beforeAll(async () => {
    test = await startTestServer(choice);
    await Promise.all((Object.keys(USERS) as UserKey[]).map(async (key) => (clients[key] = await signedIn(test.server, USERS[key].email))));
    seeder = await signedIn(test.server, 'senior@example.com');
    individualUid = ((await clients.individual.me()) as { uid: string }).uid;
    await reseed(DOCS);
    for (const row of await auditRows()) if (!seedLog.has(row.path)) seedLog.set(row.path, row.id);
  });
  afterAll(async () => {
    await test?.stop();
  });

  const users = Object.keys(USERS) as UserKey[];

  it('covers every collection of the registry', () => {
    expect(REGISTRY.map((spec) => spec.name).sort()).toEqual([...COLLECTIONS, 'auditLogs'].sort());
    expect(new Set(ALL).size).toBe(ALL.length);
    // Every seed write left its audit log, and only those exist so far.
    expect([...seedLog.keys()].sort()).toEqual([...ALL].sort());
  });

  it.each(users)('%s reads exactly the records in scope, and the audit logs of those it may audit', async (user) => {
    const replies = await Promise.all(DOCS.map((doc) => clients[user].getDocument(doc.path)));
    for (const [index, doc] of DOCS.entries()) {
      const reply = replies[index] as ClientReply;
      const expected = expectedStatus(user, doc, 'read', null);
      expect([doc.path, reply.status], reply.text).toEqual([doc.path, expected]);
      if (expected === 403) expect(reply.body).toEqual(DENIED);
      if (expected === 404) expect(reply.body).toEqual(MISSING);
    }
    const logs = await Promise.all(ALL.map((path) => clients[user].getDocument(`auditLogs/${seedLog.get(path)}`)));
    for (const [index, path] of ALL.entries()) {
      const reply = logs[index] as ClientReply;
      const expected = auditVisible(user, path) ? 200 : auditAllowed(user) ? 404 : 403;
      expect([`audit log of ${path}`, reply.status], reply.text).toEqual([`audit log of ${path}`, expected]);
      if (expected === 200) expect((reply.body as { document: Data }).document).toMatchObject({ path, operation: 'create', who: expect.any(String) });
      else expect(reply.body).toEqual(expected === 404 ? MISSING : DENIED);
    }
  });

  it.each(users)('%s lists and counts exactly the records in scope, in collection-group queries too', async (user) => {
    const pathsOf = (reply: ClientReply) => (reply.body as { documents: { documentPath: string }[] }).documents.map((document) => document.documentPath).sort();
    const answers = await Promise.all(
      COLLECTIONS.map((collection) => Promise.all([clients[user].query(targetOf(collection)), clients[user].count(targetOf(collection))])),
    );
    for (const [index, collection] of COLLECTIONS.entries()) {
      const [listed, counted] = answers[index] as [ClientReply, ClientReply];
      const expected = DOCS.filter((doc) => doc.collection === collection && VISIBLE[user].includes(doc.path))
        .map((doc) => doc.path)
        .sort();
      if (USERS[user].level < (MIN_LEVEL[collection].list ?? Infinity)) {
        expect([collection, listed.status, counted.status]).toEqual([collection, 403, 403]);
        continue;
      }
      expect([collection, listed.status, counted.status], listed.text + counted.text).toEqual([collection, 200, 200]);
      expect([collection, pathsOf(listed), (counted.body as { count: number }).count]).toEqual([collection, expected, expected.length]);
    }
    if (USERS[user].level >= 2) {
      // A collection of one domain's records: the same scope as the group query.
      const own = await clients[user].query({ collection: 'domains/demo-facility-a/staff' });
      expect(pathsOf(own)).toEqual(VISIBLE[user].filter((path) => path.startsWith('domains/demo-facility-a/staff/')).sort());
      const bills = await clients[user].query({ collection: 'domains/other-agency/bills' });
      if (USERS[user].level < 50) expect(bills.status).toBe(403);
      else expect(pathsOf(bills)).toEqual(VISIBLE[user].filter((path) => path.startsWith('domains/other-agency/bills/')));
    }
    // Audit logs: only the seed writes so far, one per record; each user gets those of records in scope.
    const expected = (await auditRows())
      .filter((row) => auditVisible(user, row.path))
      .map((row) => row.id)
      .sort();
    const [listed, counted] = await Promise.all([
      clients[user].query({ collection: 'auditLogs', limit: 1000 }),
      clients[user].count({ collection: 'auditLogs' }),
    ]);
    if (!auditAllowed(user)) {
      expect(['auditLogs', listed.status, counted.status]).toEqual(['auditLogs', 403, 403]);
      return;
    }
    const ids = (listed.body as { documents: { documentReferenceId: string }[] }).documents.map((document) => document.documentReferenceId).sort();
    expect(['auditLogs', ids, (counted.body as { count: number }).count]).toEqual(['auditLogs', expected, expected.length]);
    expect(expected.length).toBe(AUDITED[user].length);
  });

  it.each(users)('%s receives exactly the records in scope through live subscriptions, before and after changes', async (user) => {
    const socket = await LiveSocket.open(test.server.url, clients[user].cookieHeader);
    try {
      COLLECTIONS.forEach((collection, index) => {
        socket.subscribe(`q${index}`, { query: targetOf(collection) });
        socket.subscribe(`c${index}`, { count: targetOf(collection) });
      });
      DOCS.forEach((doc, index) => socket.subscribe(`d${index}`, { document: doc.path }));
      socket.subscribe('qa', { query: AUDIT_QUERY });
      socket.subscribe('ca', { count: { collection: 'auditLogs' } });
      ALL.forEach((path, index) => socket.subscribe(`a${index}`, { document: `auditLogs/${seedLog.get(path)}` }));
      const check = async (round: string) => {
        for (const [index, collection] of COLLECTIONS.entries()) {
          const expected = DOCS.filter((doc) => doc.collection === collection && VISIBLE[user].includes(doc.path))
            .map((doc) => doc.path)
            .sort();
          const allowed = USERS[user].level >= (MIN_LEVEL[collection].list ?? Infinity);
          const query = await socket.until(`q${index}`);
          const count = await socket.until(`c${index}`);
          if (!allowed) {
            expect([round, collection, query.type, count.type]).toEqual([round, collection, 'error', 'error']);
            continue;
          }
          const last = socket.of(`q${index}`).at(-1) as ServerMessage;
          const paths = ('documents' in last ? last.documents : []).map((document) => String(document.documentPath)).sort();
          const counted = socket.of(`c${index}`).at(-1) as ServerMessage;
          expect([round, collection, paths, 'count' in counted ? counted.count : null]).toEqual([round, collection, expected, expected.length]);
        }
        for (const [index, doc] of DOCS.entries()) {
          await socket.until(`d${index}`);
          const seen = socket.of(`d${index}`).some((message) => 'document' in message && message.document !== null);
          expect([round, doc.path, seen]).toEqual([round, doc.path, expectedStatus(user, doc, 'read', null) === 200]);
        }
        // Audit logs: the count follows every write in scope; the newest ones arrive, none of another tenant.
        const expected = (await auditRows()).filter((row) => auditVisible(user, row.path)).map((row) => row.id);
        const query = await socket.until('qa');
        if (!auditAllowed(user)) {
          expect([round, 'auditLogs', query.type, (await socket.until('ca')).type]).toEqual([round, 'auditLogs', 'error', 'error']);
        } else {
          await socket.until('ca', (message) => 'count' in message && message.count === expected.length, 5000).catch(() => undefined);
          const counted = socket.of('ca').at(-1) as ServerMessage;
          expect([round, 'auditLogs count', 'count' in counted ? counted.count : null]).toEqual([round, 'auditLogs count', expected.length]);
          const last = socket.of('qa').at(-1) as ServerMessage;
          const ids = ('documents' in last ? last.documents : []).map((document) => String(document.documentReferenceId));
          expect([round, 'auditLogs window', ids.length, ids.filter((id) => !expected.includes(id))]).toEqual([
            round,
            'auditLogs window',
            Math.min(AUDIT_WINDOW, expected.length),
            [],
          ]);
        }
        for (const [index, path] of ALL.entries()) {
          await socket.until(`a${index}`);
          const seen = socket.of(`a${index}`).some((message) => 'document' in message && message.document !== null);
          expect([round, `audit log of ${path}`, seen]).toEqual([round, `audit log of ${path}`, auditVisible(user, path)]);
        }
      };
      await check('initial');
      // Every record changes (out of scope too): the changes, and their audit logs, reach only those who may see them.
      (await Promise.all(DOCS.map((doc) => seeder.updateDocument(doc.path, doc.change)))).forEach(ok);
      await settle(500);
      await check('after changes');
      // Nothing out of scope ever arrived, in any message of any subscription.
      const delivered = socket.messages.flatMap((message) =>
        'documents' in message ? message.documents : 'document' in message && message.document ? [message.document] : [],
      );
      const leaked = delivered.filter((document) => {
        const path = String(document.documentPath);
        return path.startsWith('auditLogs/') ? !auditVisible(user, String(document.path)) : !VISIBLE[user].includes(path);
      });
      expect(leaked).toEqual([]);
    } finally {
      await socket.close();
      await reseed(DOCS);
    }
  });

  it.each(users)('%s updates only the records in scope it may edit', async (user) => {
    const replies = await Promise.all(DOCS.map((doc) => clients[user].updateDocument(doc.path, doc.change)));
    await reseed(DOCS.filter((_, index) => replies[index]?.status === 200));
    for (const [index, doc] of DOCS.entries()) {
      const reply = replies[index] as ClientReply;
      expect([doc.path, reply.status], reply.text).toEqual([doc.path, expectedStatus(user, doc, 'update', null)]);
    }
  });

  it.each(users)('%s creates only in scope, and never a record it could not see', async (user) => {
    // Sleep days are named by their date; their creation is covered by the update and delete rounds.
    const copies = DOCS.filter((doc) => doc.collection !== 'rooms/sleeps').map((doc) => {
      const copyId = `${doc.path.split('/').pop() as string}-${user}`;
      const path = doc.path.replace(/[^/]+$/, copyId);
      const data = doc.data(individualUid);
      if (doc.collection === 'domains/staff' || doc.collection === 'invitations') data.email = `${copyId}@nemuri.jp`;
      if (doc.collection === 'rooms') data.name = copyId;
      if (doc.collection === 'views') data.routeKey = copyId;
      if (doc.collection === 'histories') data.version = copyId;
      return { doc, path, data };
    });
    const replies = await Promise.all(copies.map(({ path, data }) => clients[user].setDocument(path, data)));
    // The copies made are removed; of the others nothing was stored.
    const cleanup = await Promise.all(
      copies.map(({ path }, index) => (replies[index]?.status === 200 ? clients.developer.deleteDocument(path) : clients.developer.getDocument(path))),
    );
    for (const [index, { doc, path, data }] of copies.entries()) {
      const reply = replies[index] as ClientReply;
      expect([path, reply.status], reply.text).toEqual([path, expectedStatus(user, doc, 'create', data)]);
      expect([path, cleanup[index]?.status]).toEqual([path, reply.status === 200 ? 200 : 404]);
    }
  });

  it('keeps audit logs to the server: nobody creates, replaces, changes or deletes one through /api/documents', async () => {
    const sysadmin = await signedIn(test.server, 'sysadmin@example.com');
    const writers: [string, DocumentsClient][] = [
      ...users.map((user): [string, DocumentsClient] => [user, clients[user]]),
      ['senior', seeder],
      ['sysadmin', sysadmin],
    ];
    const target = `auditLogs/${seedLog.get('rooms/roomA')}`;
    const stored = async () => (await auditRows()).find((row) => `auditLogs/${row.id}` === target)?.data;
    const before = await stored();
    expect(before).toMatchObject({ path: 'rooms/roomA', operation: 'create' });
    const forged = { who: 'nobody', when: '2026-01-01T00:00:00.000Z', path: 'rooms/roomX', operation: 'delete', changedKeys: [] };
    for (const [name, client] of writers) {
      const commit = (write: Data) => client.post('/api/documents/commit', { reads: [], writes: [write] });
      const replies = await Promise.all([
        client.setDocument(`auditLogs/forged-${name}`, forged),
        client.setDocument(target, forged),
        client.setDocument(target, { changedKeys: [] }, true),
        client.updateDocument(target, { changedKeys: [] }),
        client.deleteDocument(target),
        commit({ op: 'set', path: `auditLogs/forged-${name}`, data: forged }),
        commit({ op: 'update', path: target, data: { who: 'nobody' } }),
        commit({ op: 'delete', path: target }),
      ]);
      expect([name, replies.map((reply) => reply.status)], replies.map((reply) => reply.text).join('\n')).toEqual([
        name,
        [403, 403, 403, 403, 403, 403, 403, 403],
      ]);
    }
    expect(await stored()).toEqual(before);
    expect((await auditRows()).filter((row) => row.id.startsWith('forged-'))).toEqual([]);
  });

  it('refuses moving a record out of scope, and granting a level above one’s own', async () => {
    expect((await clients.staff.updateDocument('rooms/roomA', { domainId: 'other-facility' })).status).toBe(403);
    expect((await clients.owner.updateDocument('rooms/roomA', { domainId: 'other-facility' })).status).toBe(403);
    expect((await clients.agency.updateDocument('rooms/roomB', { domainId: 'demo-facility-a' })).status).toBe(403);
    expect(
      (await clients.owner.setDocument('domains/demo-facility-a/staff/boss', { displayName: 'b', email: 'boss@nemuri.jp', accessLevel: 100 })).status,
    ).toBe(403);
    expect((await clients.staff.updateDocument('domains/demo-facility-a/staff/sA2', { accessLevel: 3 })).status).toBe(403);
    expect((await clients.staff.getDocument('rooms/roomA')).status).toBe(200);
    // A domain's place in the tree is fixed below level 100, so a facility cannot join another root.
    expect((await clients.admin.updateDocument('domains/demo-facility-a', { rootDomainId: 'other-corp' })).status).toBe(403);
    expect((await clients.owner.updateDocument('domains/demo-facility-b', { agencyDomainId: null })).status).toBe(403);
    expect((await clients.admin.updateDocument('domains/demo-facility-a', { phone: '03-0000-0000' })).status).toBe(200);
    // An agency never creates a customer's staff, nor rooms in a partner's domain.
    expect((await clients.agency.setDocument('domains/demo-facility-b/staff/x', { displayName: 'x', email: 'x@nemuri.jp', accessLevel: 2 })).status).toBe(403);
    ok(await clients.developer.setDocument('domains/demo-agency/partners/bare', { name: 'bare' }));
    expect((await clients.agency.setDocument('rooms/bare1', { domainId: 'bare', rootDomainId: 'other-corp', name: 'bare' })).status).toBe(403);
    ok(await clients.developer.deleteDocument('domains/demo-agency/partners/bare'));
    expect((await clients.developer.getDocument('domains/demo-facility-b/staff/x')).status).toBe(404);
  });

  it.each(users)('%s deletes only the records in scope it may delete', async (user) => {
    const replies = await Promise.all(DOCS.map((doc) => clients[user].deleteDocument(doc.path)));
    const after = await Promise.all(DOCS.map((doc) => clients.developer.getDocument(doc.path)));
    await reseed(DOCS.filter((_, index) => after[index]?.status === 404));
    for (const [index, doc] of DOCS.entries()) {
      const reply = replies[index] as ClientReply;
      const expected = expectedStatus(user, doc, 'delete', null);
      expect([doc.path, reply.status], reply.text).toEqual([doc.path, expected]);
      const deleted = expected === 200 && VISIBLE[user].includes(doc.path);
      expect([doc.path, after[index]?.status]).toEqual([doc.path, deleted ? 404 : 200]);
    }
  });
}
