/**
 * The tenancy matrix: demo accounts at levels 1, 2, 3, 5, 50 and 100 × rooms, devices, staff,
 * alerts, sleep days, uploads, invitations, partners, borrows, report links and device types × read, list, count, live subscriptions (document, query, count), create, update and delete, against a real server on PGlite and on
 * PostgreSQL. The expected scope is written out by hand here (not computed with the engine's own
 * code): a record outside it must never be returned, counted or changed.
 */
import { collectionByName, type Operation } from '@nemuri/shared/documents/collections';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServerMessage } from '@nemuri/shared/documents/live';
import { LiveSocket, settle } from '../live/testing.ts';
import { ok, signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from './testing.ts';

type Data = Record<string, unknown>;
type UserKey = 'individual' | 'staff' | 'admin' | 'owner' | 'agency' | 'developer';
type Collection = 'rooms' | 'devices' | 'domains/staff' | 'alerts' | 'rooms/sleeps' | 'rooms/uploads' | 'invitations' | 'domains/partners' | 'devices/borrows' | 'reportAccess' | 'deviceTypes';
const COLLECTIONS: Collection[] = ['rooms', 'devices', 'domains/staff', 'alerts', 'rooms/sleeps', 'rooms/uploads', 'invitations', 'domains/partners', 'devices/borrows', 'reportAccess', 'deviceTypes'];

const USERS: Record<UserKey, { email: string; level: number }> = {
  individual: { email: 'individual@example.com', level: 1 },
  staff: { email: 'staff@example.com', level: 2 },
  admin: { email: 'admin@example.com', level: 3 },
  owner: { email: 'owner@example.com', level: 5 },
  agency: { email: 'agency@example.com', level: 50 },
  developer: { email: 'developer@example.com', level: 100 },
};

const DOMAINS: [string, Data][] = [
  ['demo-corp', { name: 'Corp', kind: 'corporation' }],
  ['demo-facility-a', { name: 'A', kind: 'facility', parentDomainId: 'demo-corp', rootDomainId: 'demo-corp' }],
  ['demo-facility-b', { name: 'B', kind: 'facility', parentDomainId: 'demo-corp', rootDomainId: 'demo-corp', agencyDomainId: 'demo-agency' }],
  ['demo-household', { name: 'H', kind: 'individual' }],
  ['demo-agency', { name: 'Agency', kind: 'agency' }],
  ['other-corp', { name: 'Other', kind: 'corporation' }],
  ['other-facility', { name: 'OF', kind: 'facility', parentDomainId: 'other-corp', rootDomainId: 'other-corp' }],
];

interface Doc {
  path: string;
  data: (ownerUid: string) => Data;
  /** A harmless change for the update test. */
  change: Data;
  collection: Collection;
}

const room = (id: string, domainId: string, owned = false): Doc => ({
  path: `rooms/${id}`,
  collection: 'rooms',
  data: (uid) => ({ domainId, name: id, ...(owned ? { ownerUids: [uid] } : {}) }),
  change: { residentNote: 'changed' },
});
const device = (id: string, fields: Data): Doc => ({ path: `devices/${id}`, collection: 'devices', data: () => ({ deviceTypeId: 'bed', status: 'in_use', ...fields }), change: { firmwareVersion: '2.0' } });
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
  change: { acknowledgedBy: 'someone' },
});

const sleep = (roomId: string, day: string): Doc => ({ path: `rooms/${roomId}/sleeps/${day}`, collection: 'rooms/sleeps', data: () => ({ source: 'live', totalSleepMin: 400 }), change: { totalSleepMin: 401 } });
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

const partner = (agencyId: string, partnerId: string): Doc => ({ path: `domains/${agencyId}/partners/${partnerId}`, collection: 'domains/partners', data: () => ({ name: partnerId }), change: { status: 'active' } });
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
const deviceType = (id: string): Doc => ({ path: `deviceTypes/${id}`, collection: 'deviceTypes', data: () => ({ name: id, model: 'M-1' }), change: { description: 'changed' } });

const DOCS: Doc[] = [
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
  // The agency's partner is already there (beforeAll): as a record here it is read, listed, changed and deleted.
  partner('demo-agency', 'demo-facility-b'),
  partner('other-agency', 'other-facility'),
  borrow('devA', 'brA'),
  borrow('devB', 'brB'),
  borrow('devStock', 'brStock'),
  borrow('devX', 'brX'),
  reportLink('rlA', 'roomA'),
  reportLink('rlB', 'roomB'),
  reportLink('rlX', 'roomX'),
  deviceType('dtM'),
];

const ALL = DOCS.map((doc) => doc.path.split('/').pop() as string);

/** Which records each user may see (by hand, from PRODUCT.md section 1). */
const VISIBLE: Record<UserKey, string[]> = {
  individual: ['roomH', 'alH', '2026-01-03', 'upH', 'dtM'],
  staff: ['roomA', 'devA', 'sA2', 'alA', '2026-01-01', 'upA', 'brA', 'dtM'],
  admin: ['roomA', 'devA', 'sA2', 'sA3', 'alA', '2026-01-01', 'upA', 'inA', 'brA', 'rlA', 'dtM'],
  owner: ['roomA', 'roomB', 'devA', 'devB', 'sA2', 'sA3', 'sB2', 'alA', 'alB', '2026-01-01', '2026-01-02', 'upA', 'upB', 'inA', 'inB', 'brA', 'brB', 'rlA', 'rlB', 'dtM'],
  agency: ['roomB', 'devB', 'devStock', 'sB2', 'alB', '2026-01-02', 'upB', 'inB', 'demo-facility-b', 'brB', 'brStock', 'rlB', 'dtM'],
  developer: ALL,
};
/** Written through their own API only (uploads, lending, report links), except by the maker's developers. */
const MANAGED: ReadonlySet<Collection> = new Set(['rooms/uploads', 'devices/borrows', 'reportAccess']);

const idOf = (doc: Doc) => doc.path.split('/').pop() as string;

function expectedStatus(user: UserKey, doc: Doc, operation: Operation, after: Data | null): number {
  const { level } = USERS[user];
  const min = collectionByName(doc.collection)?.access[operation];
  if (min === null || min === undefined || level < min) return 403;
  if (MANAGED.has(doc.collection) && operation !== 'read' && operation !== 'list' && level < 100) return 403;
  if (operation !== 'create' && !VISIBLE[user].includes(idOf(doc))) return 403;
  if (operation === 'create' && !VISIBLE[user].includes(idOf(doc))) return 403;
  if (doc.collection === 'domains/staff' && operation !== 'read' && operation !== 'list') {
    const before = doc.data('').accessLevel as number;
    const next = (after?.accessLevel as number | undefined) ?? before;
    if (next > level) return 403;
    if (level < 4 && (before >= 3 || next >= 3)) return 403;
  }
  return 200;
}

export function tenancyHolds(choice: DatabaseChoice): void {
  let test: TestServer;
  const clients = {} as Record<UserKey, DocumentsClient>;
  let individualUid = '';

  // A senior developer (101) seeds and changes the records: master data is written from 101 only.
  let seeder: DocumentsClient;
  const seed = async (doc: Doc) => ok(await seeder.setDocument(doc.path, doc.data(individualUid)));

  beforeAll(async () => {
    test = await startTestServer(choice);
    await Promise.all((Object.keys(USERS) as UserKey[]).map(async (key) => (clients[key] = await signedIn(test.server, USERS[key].email))));
    seeder = await signedIn(test.server, 'senior@example.com');
    individualUid = ((await clients.individual.me()) as { uid: string }).uid;
    for (const [id, data] of DOMAINS) ok(await clients.developer.setDocument(`domains/${id}`, data));
    ok(await clients.developer.setDocument('domains/demo-agency/partners/demo-facility-b', { name: 'B' }));
    for (const doc of DOCS) await seed(doc);
  });
  afterAll(async () => {
    await test?.stop();
  });

  const users = Object.keys(USERS) as UserKey[];

  it.each(users)('%s reads exactly the records in scope', async (user) => {
    for (const doc of DOCS) {
      const reply = await clients[user].getDocument(doc.path);
      const expected = expectedStatus(user, doc, 'read', null);
      expect([doc.path, reply.status], reply.text).toEqual([doc.path, expected]);
      if (expected === 403) expect(reply.body).toEqual({ code: 'permission-denied', message: 'Missing or insufficient permissions.' });
    }
  });

  it.each(users)('%s lists and counts exactly the records in scope, in collection-group queries too', async (user) => {
    for (const collection of COLLECTIONS) {
      const spec = collectionByName(collection);
      const query = collection.includes('/') ? { collection: collection.split('/')[1] as string, collectionGroup: true } : { collection };
      const expected = DOCS.filter((doc) => doc.collection === collection && VISIBLE[user].includes(idOf(doc))).map(idOf).sort();
      const listed = await clients[user].query(query);
      const counted = await clients[user].count(query);
      if (USERS[user].level < (spec?.access.list ?? Infinity)) {
        expect([collection, listed.status, counted.status]).toEqual([collection, 403, 403]);
        continue;
      }
      const ids = (listed.body as { documents: { documentReferenceId: string }[] }).documents.map((document) => document.documentReferenceId).sort();
      expect([collection, ids, (counted.body as { count: number }).count]).toEqual([collection, expected, expected.length]);
      if (collection === 'domains/staff' && USERS[user].level >= 2) {
        const own = await clients[user].ids({ collection: 'domains/demo-facility-a/staff' });
        expect(own.sort()).toEqual(expected.filter((id) => id.startsWith('sA')));
      }
    }
  });

  it.each(users)('%s receives exactly the records in scope through live subscriptions, before and after changes', async (user) => {
    const socket = await LiveSocket.open(test.server.url, clients[user].cookieHeader);
    try {
      const collections = COLLECTIONS;
      const targetOf = (collection: Collection) => (collection.includes('/') ? { collection: collection.split('/')[1] as string, collectionGroup: true } : { collection });
      collections.forEach((collection, index) => {
        socket.subscribe(`q${index}`, { query: targetOf(collection) });
        socket.subscribe(`c${index}`, { count: targetOf(collection) });
      });
      DOCS.forEach((doc, index) => socket.subscribe(`d${index}`, { document: doc.path }));
      const check = async (round: string) => {
        for (const [index, collection] of collections.entries()) {
          const expected = DOCS.filter((doc) => doc.collection === collection && VISIBLE[user].includes(idOf(doc))).map(idOf).sort();
          const allowed = USERS[user].level >= (collectionByName(collection)?.access.list ?? Infinity);
          const query = await socket.until(`q${index}`);
          const count = await socket.until(`c${index}`);
          if (!allowed) {
            expect([round, collection, query.type, count.type]).toEqual([round, collection, 'error', 'error']);
            continue;
          }
          const last = socket.of(`q${index}`).at(-1) as ServerMessage;
          const ids = ('documents' in last ? last.documents : []).map((document) => String(document.documentReferenceId)).sort();
          const counted = socket.of(`c${index}`).at(-1) as ServerMessage;
          expect([round, collection, ids, 'count' in counted ? counted.count : null]).toEqual([round, collection, expected, expected.length]);
        }
        for (const [index, doc] of DOCS.entries()) {
          await socket.until(`d${index}`);
          const seen = socket.of(`d${index}`).some((message) => 'document' in message && message.document !== null);
          expect([round, doc.path, seen]).toEqual([round, doc.path, expectedStatus(user, doc, 'read', null) === 200]);
        }
      };
      await check('initial');
      // Every record changes (out of scope too): the changes reach only those who may see them.
      for (const doc of DOCS) ok(await seeder.updateDocument(doc.path, doc.change));
      await settle(500);
      await check('after changes');
      // Nothing out of scope ever arrived, in any message of any subscription.
      const leaked = socket.messages.flatMap((message) => ('documents' in message ? message.documents : 'document' in message && message.document ? [message.document] : []).map((document) => String(document.documentReferenceId))).filter((id) => !VISIBLE[user].includes(id));
      expect(leaked).toEqual([]);
    } finally {
      await socket.close();
      for (const doc of DOCS) await seed(doc);
    }
  });

  it.each(users)('%s updates only the records in scope it may edit', async (user) => {
    for (const doc of DOCS) {
      const reply = await clients[user].updateDocument(doc.path, doc.change);
      expect([doc.path, reply.status], reply.text).toEqual([doc.path, expectedStatus(user, doc, 'update', null)]);
      if (reply.status === 200) await seed(doc);
    }
  });

  it.each(users)('%s creates only in scope, and never a record it could not see', async (user) => {
    for (const doc of DOCS) {
      // Sleep days are named by their date; their creation is covered by the update and delete rounds.
      if (doc.collection === 'rooms/sleeps') continue;
      const copyId = `${idOf(doc)}-${user}`;
      const path = doc.path.replace(/[^/]+$/, copyId);
      const data = doc.data(individualUid);
      if (doc.collection === 'domains/staff') data.email = `${copyId}@nemuri.jp`;
      if (doc.collection === 'rooms') data.name = copyId;
      if (doc.collection === 'invitations') data.email = `${copyId}@nemuri.jp`;
      const reply = await clients[user].setDocument(path, data);
      expect([path, reply.status], reply.text).toEqual([path, expectedStatus(user, doc, 'create', data)]);
      if (reply.status === 200) ok(await clients.developer.deleteDocument(path));
      else expect((await clients.developer.getDocument(path)).status).toBe(404);
    }
  });

  it('refuses moving a record out of scope, and granting a level above one’s own', async () => {
    expect((await clients.staff.updateDocument('rooms/roomA', { domainId: 'other-facility' })).status).toBe(403);
    expect((await clients.owner.updateDocument('rooms/roomA', { domainId: 'other-facility' })).status).toBe(403);
    expect((await clients.agency.updateDocument('rooms/roomB', { domainId: 'demo-facility-a' })).status).toBe(403);
    expect((await clients.owner.setDocument('domains/demo-facility-a/staff/boss', { displayName: 'b', email: 'boss@nemuri.jp', accessLevel: 100 })).status).toBe(403);
    expect((await clients.staff.updateDocument('domains/demo-facility-a/staff/sA2', { accessLevel: 3 })).status).toBe(403);
    expect((await clients.staff.getDocument('rooms/roomA')).status).toBe(200);
    // A domain's place in the tree is fixed below level 100, so a facility cannot join another root.
    expect((await clients.admin.updateDocument('domains/demo-facility-a', { rootDomainId: 'other-corp' })).status).toBe(403);
    expect((await clients.owner.updateDocument('domains/demo-facility-b', { agencyDomainId: null })).status).toBe(403);
    expect((await clients.admin.updateDocument('domains/demo-facility-a', { phone: '03-0000-0000' })).status).toBe(200);
    expect((await clients.agency.setDocument('domains/demo-facility-b/staff/x', { displayName: 'x', email: 'x@nemuri.jp', accessLevel: 2 })).status).toBe(200);
    // An agency cannot place rooms of a partner without a domain record under a foreign root.
    ok(await clients.developer.setDocument('domains/demo-agency/partners/bare', { name: 'bare' }));
    ok(await clients.agency.setDocument('rooms/bare1', { domainId: 'bare', rootDomainId: 'other-corp', name: 'bare' }));
    expect((await test.server.database.query(`select root_domain_id from documents where path = 'rooms/bare1'`)).rows).toEqual([{ root_domain_id: 'bare' }]);
    expect(await clients.agency.ids({ collection: 'rooms', where: [['name', '==', 'bare']] })).toEqual(['bare1']);
    ok(await clients.developer.deleteDocument('rooms/bare1'));
    ok(await clients.developer.deleteDocument('domains/demo-agency/partners/bare'));
    ok(await clients.developer.deleteDocument('domains/demo-facility-b/staff/x'));
  });

  it.each(users)('%s deletes only the records in scope it may delete', async (user) => {
    for (const doc of DOCS) {
      const reply = await clients[user].deleteDocument(doc.path);
      const expected = expectedStatus(user, doc, 'delete', null);
      expect([doc.path, reply.status], reply.text).toEqual([doc.path, expected]);
      const after = await clients.developer.getDocument(doc.path);
      expect(after.status).toBe(expected === 200 ? 404 : 200);
      if (expected === 200) await seed(doc);
    }
  });
}

