/**
 * Attacks on the document engine by legitimate low-level accounts (security issue 17, findings 1,
 * 3, 4, 9, 12, 13, 14 and 16), run against a real server on PGlite and on PostgreSQL
 * (documentEngine.pglite.test.ts, documentEngine.postgresql.test.ts). Each block attacks the way
 * an outsider would, over HTTP or the live socket, and fails if the hole reopens:
 * - prototype pollution through field paths and keys (documents, merges, queries, transactions, live);
 * - references into another tenant (room → device, device → room, alert → room);
 * - another tenant's ids answering unlike missing ones;
 * - one commit holding locks for thousands of writes;
 * - NUL, lone surrogates and deep nesting answering 500;
 * - report viewers and agencies reading residents, notes and vitals;
 * - an owner leaving a tenant ownerless behind a made-up owner record;
 * - a nurse recording a colleague as an alert's acknowledger, backdating or undoing it.
 */
import { maxWritesPerCommit } from '@nemuri/shared/documents/transaction';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DocumentStore } from '../documents/store.ts';
import { ok, signedIn, startTestServer, type DatabaseChoice, type DocumentsClient, type TestServer } from '../documents/testing.ts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { LiveSocket } from '../live/testing.ts';
import { BrowserClient } from '../testing/browserClient.ts';

const A = DEMO_DOMAINS.facilityA;
const B = DEMO_DOMAINS.facilityB;
const AGENCY = DEMO_DOMAINS.agency;

/** What a polluted `Object.prototype` would carry. */
function polluted(): unknown {
  return (Object.prototype as Record<string, unknown>).polluted;
}

export function documentEngineHolds(choice: DatabaseChoice): void {
  let test: TestServer;
  let store: DocumentStore;
  let staff: DocumentsClient;
  let admin: DocumentsClient;
  let individual: DocumentsClient;
  let agency: DocumentsClient;
  let individualUid = '';

  beforeAll(async () => {
    test = await startTestServer(choice);
    store = test.server.app.documents;
    const put = (path: string, data: Record<string, unknown>) => store.set(SYSTEM_PRINCIPAL, path, data, false);
    await put('domains/demo-corp', { name: '法人', kind: 'corporation' });
    await put(`domains/${AGENCY}`, { name: '代理店', kind: 'agency' });
    await put(`domains/${A}`, { name: '施設A', kind: 'facility', parentDomainId: 'demo-corp', rootDomainId: 'demo-corp' });
    await put(`domains/${B}`, { name: '施設B', kind: 'facility', parentDomainId: 'demo-corp', rootDomainId: 'demo-corp' });
    await put('domains/victim', { name: '他法人', kind: 'corporation' });
    await put('devices/dev-a', { deviceTypeId: 'bed', status: 'lent', domainId: A });
    await put('devices/dev-victim', { deviceTypeId: 'bed', status: 'lent', domainId: 'victim' });
    await put('rooms/room-a', { domainId: A, name: '101号室', residentName: '山田 花子', residentNote: '夜間せん妄あり' });
    await put('rooms/room-victim', { domainId: 'victim', name: '他201号室', residentName: '他 太郎' });
    [staff, admin, individual, agency] = await Promise.all([
      signedIn(test.server, 'staff@example.com'),
      signedIn(test.server, 'admin@example.com'),
      signedIn(test.server, 'individual@example.com'),
      signedIn(test.server, 'agency@example.com'),
    ]);
    individualUid = ((await individual.me()) as { uid: string }).uid;
  });
  afterAll(async () => {
    await test?.stop();
  });

  it('refuses __proto__, constructor and prototype in every path and key, and the process stays unpolluted', async () => {
    const attacks = [
      () => staff.updateDocument('rooms/room-a', { '__proto__.polluted': 1 }),
      () => staff.updateDocument('rooms/room-a', { 'constructor.prototype.polluted': 1 }),
      () => staff.updateDocument('rooms/room-a', { prototype: 1 }),
      () => staff.setDocument('rooms/room-a', JSON.parse('{"__proto__": {"polluted": 1}}'), true),
      () =>
        staff.setDocument(
          'rooms/room-a',
          JSON.parse('{"name": "x", "domainId": "demo-facility-a", "address": {"constructor": {"prototype": {"polluted": 1}}}}'),
          true,
        ),
      () => staff.query({ collection: 'rooms', where: [['__proto__.polluted', '==', 1]] }),
      () => staff.query({ collection: 'rooms', orderBy: [['constructor']] }),
      () => staff.post('/api/documents/commit', { reads: [], writes: [{ op: 'update', path: 'rooms/room-a', data: { '__proto__.polluted': 1 } }] }),
      () => staff.getDocument('rooms/__proto__'),
    ];
    for (const attack of attacks) {
      const reply = await attack();
      expect([reply.status, polluted()], reply.text).toEqual([400, undefined]);
    }
    const socket = await LiveSocket.open(test.server.url, staff.cookieHeader);
    try {
      socket.subscribe('p', { query: { collection: 'rooms', where: [['__proto__.polluted', '==', 1]] } });
      expect(await socket.until('p')).toMatchObject({ type: 'error', code: 'invalid-argument' });
    } finally {
      await socket.close();
    }
    expect(polluted()).toBeUndefined();
    // Everyone still writes and signs in.
    ok(await staff.updateDocument('rooms/room-a', { floor: '1F' }));
    expect((await new BrowserClient(test.server.url).signIn('owner@example.com', 'nemuri-demo-2026')).status).toBe(200);
  });

  it('refuses a room taking another tenant’s device, a device another tenant’s room, and an alert another tenant’s room', async () => {
    const refused = await admin.updateDocument('rooms/room-a', { deviceSerial: 'dev-victim' });
    expect(refused.status, refused.text).toBe(400);
    // Exactly like a device that does not exist.
    const absent = await admin.updateDocument('rooms/room-a', { deviceSerial: 'no-such-device' });
    expect([absent.status, (absent.body as { code: string }).code]).toEqual([400, (refused.body as { code: string }).code]);
    // The same through a transaction and a replacing set.
    expect(
      (await admin.post('/api/documents/commit', { reads: [], writes: [{ op: 'update', path: 'rooms/room-a', data: { deviceSerial: 'dev-victim' } }] })).status,
    ).toBe(400);
    expect((await admin.setDocument('rooms/room-new', { domainId: A, name: '新室', deviceSerial: 'dev-victim' })).status).toBe(400);
    expect((await admin.updateDocument('devices/dev-a', { roomId: 'room-victim' })).status).toBe(400);
    // An alert with one's own domain and another tenant's room.
    expect((await staff.setDocument('alerts/forged', { domainId: A, roomId: 'room-victim', type: 'button', startedAt: '2026-11-24T01:00:00Z' })).status).toBe(
      400,
    );
    expect((await test.server.database.query(`select path from documents where path in ('alerts/forged', 'rooms/room-new')`)).rows).toEqual([]);
    expect((await store.get(SYSTEM_PRINCIPAL, 'rooms/room-a'))?.document.deviceSerial).toBeUndefined();
    // One's own device, in one's own domain, is fine, both ways.
    ok(
      await admin.post('/api/documents/commit', {
        reads: [],
        writes: [
          { op: 'update', path: 'rooms/room-a', data: { deviceSerial: 'dev-a' } },
          { op: 'update', path: 'devices/dev-a', data: { roomId: 'room-a' } },
        ],
      }),
    );
    ok(await staff.setDocument('alerts/own', { domainId: A, roomId: 'room-a', deviceSerial: 'dev-a', type: 'button', startedAt: '2026-11-24T01:00:00Z' }));
  });

  it('answers another tenant’s records exactly like missing ones', async () => {
    const strip = (body: unknown) => ({ ...(body as object), message: String((body as { message: string }).message).replace(/rooms\/[\w-]+/, 'rooms/…') });
    const [other, none] = await Promise.all([staff.getDocument('rooms/room-victim'), staff.getDocument('rooms/no-such-room')]);
    expect([other.status, strip(other.body)]).toEqual([none.status, strip(none.body)]);
    expect(other.status).toBe(404);
    const [otherUpdate, noneUpdate] = await Promise.all([
      staff.updateDocument('rooms/room-victim', { name: 'x' }),
      staff.updateDocument('rooms/no-such-room', { name: 'x' }),
    ]);
    expect([otherUpdate.status, strip(otherUpdate.body)]).toEqual([noneUpdate.status, strip(noneUpdate.body)]);
    const [otherDelete, noneDelete] = await Promise.all([admin.deleteDocument('rooms/room-victim'), admin.deleteDocument('rooms/no-such-room')]);
    expect([otherDelete.status, otherDelete.text]).toEqual([noneDelete.status, noneDelete.text]);
    expect((await store.get(SYSTEM_PRINCIPAL, 'rooms/room-victim'))?.document.name).toBe('他201号室');
    // A transaction reads it as absent (version 0) and cannot write it.
    expect(
      (
        await staff.post('/api/documents/commit', {
          reads: [{ path: 'rooms/room-victim', version: 0 }],
          writes: [{ op: 'update', path: 'rooms/room-victim', data: { name: 'x' } }],
        })
      ).status,
    ).toBe(404);
  });

  it('refuses a commit of more writes than the cap before touching a row', async () => {
    const max = maxWritesPerCommit(test.server.database.kind);
    expect(max).toBe(choice === 'pglite' ? 100 : 500);
    const writes = Array.from({ length: max + 1 }, () => ({ op: 'update', path: 'rooms/room-a', data: { floor: '2F' } }));
    const reply = await staff.post('/api/documents/commit', { reads: [], writes });
    expect([reply.status, (reply.body as { message: string }).message]).toEqual([400, `A transaction may write at most ${max} documents`]);
    expect((await store.get(SYSTEM_PRINCIPAL, 'rooms/room-a'))?.document.floor).toBe('1F');
  });

  it('gives the server identities’ exemptions to no caller by the shape of its claims', async () => {
    // A signed-in user at the highest level without a domain has the claims' shape of a server identity.
    const lookalike = { uid: 'someone', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
    await expect(store.update(lookalike, 'rooms/room-victim', { deviceSerial: 'dev-a' })).rejects.toMatchObject({ code: 'invalid-argument' });
    const max = maxWritesPerCommit(test.server.database.kind);
    const writes = Array.from({ length: max + 1 }, () => ({ op: 'update', path: 'rooms/room-victim', data: { floor: '3F' } }));
    await expect(store.commit(lookalike, { reads: [], writes })).rejects.toMatchObject({
      code: 'invalid-argument',
      message: `A transaction may write at most ${max} documents`,
    });
  });

  it('answers NUL, lone surrogates and deep nesting with 400, not 500', async () => {
    const bodies: unknown[] = [{ residentNote: 'a\u0000b' }, { residentNote: 'a\uD800b' }, { residentNote: '\uDC00' }, { 'bad\u0000key': 1 }];
    for (const body of bodies) {
      const reply = await staff.updateDocument('rooms/room-a', body);
      expect(reply.status, reply.text).toBe(400);
    }
    // 5,000 levels deep, written out as text (JSON.stringify itself would run out of stack).
    const deep = `{"data":{"address":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`;
    const reply = await staff.send('PATCH', '/api/documents/rooms/room-a', deep, { 'content-type': 'application/json' });
    expect(reply.status, reply.text).toBe(400);
    for (const depth of [40, 200]) {
      const nested = `{"data":{"address":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`;
      expect((await staff.send('PATCH', '/api/documents/rooms/room-a', nested, { 'content-type': 'application/json' })).status).toBe(400);
    }
    expect((await staff.query({ collection: 'rooms', where: [['name', '==', 'x\u0000']] })).status).toBe(400);
    ok(await staff.getDocument('rooms/room-a'));
  });

  it('gives a report viewer the report fields of the room only, and no way to filter by the others', async () => {
    await store.set(SYSTEM_PRINCIPAL, 'rooms/room-a', { reportViewerUids: [individualUid], reportComment: '良く眠れています' }, true);
    await store.set(
      SYSTEM_PRINCIPAL,
      'reportAccess/link-a',
      { roomId: 'room-a', createdBy: 'admin', tokenHash: 'hash-a', expiresAt: '2099-01-01T00:00:00Z', viewerUid: individualUid },
      false,
    );
    const room = ok(await individual.getDocument('rooms/room-a')).body as { document: Record<string, unknown> };
    expect(Object.keys(room.document).sort()).toEqual(['createdAt', 'documentPath', 'documentReferenceId', 'domainId', 'name', 'reportComment', 'updatedAt']);
    expect(await individual.ids({ collection: 'rooms' })).toEqual(['room-a']);
    // A filter on a field the viewer may not read finds nothing, rather than confirming the value.
    expect(await individual.ids({ collection: 'rooms', where: [['residentName', '==', '山田 花子']] })).toEqual([]);
    expect(await individual.ids({ collection: 'rooms', orderBy: [['residentNote']] })).toEqual([]);
  });

  it('gives an agency device and room status of its partners, never residents, notes, nights or alerts, and no writes in their domains', async () => {
    await store.set(SYSTEM_PRINCIPAL, `domains/${AGENCY}/partners/demo-corp`, { name: '法人', status: 'active' }, false);
    await store.set(SYSTEM_PRINCIPAL, 'rooms/room-a/sleeps/2026-11-23', { source: 'live', totalSleepMin: 400, heartRate: { avg: 60 } }, false);
    const room = ok(await agency.getDocument('rooms/room-a')).body as { document: Record<string, unknown> };
    expect(room.document).toMatchObject({ name: '101号室', deviceSerial: 'dev-a' });
    expect(room.document).not.toHaveProperty('residentName');
    expect(room.document).not.toHaveProperty('residentNote');
    expect((await agency.getDocument('rooms/room-a/sleeps/2026-11-23')).status).toBe(404);
    expect((await agency.getDocument('alerts/own')).status).toBe(404);
    expect(await agency.ids({ collection: 'alerts' })).toEqual([]);
    expect(await agency.ids({ collection: 'sleeps', collectionGroup: true })).toEqual([]);
    expect(await agency.ids({ collection: 'rooms', where: [['residentName', '==', '山田 花子']] })).toEqual([]);
    // No acknowledging the facility's alerts, no staff planted, no rooms edited.
    expect((await agency.updateDocument('alerts/own', { acknowledgedBy: 'agency', acknowledgedAt: '2026-11-24T02:00:00Z' })).status).toBe(404);
    expect(
      (
        await agency.setDocument(`domains/${A}/staff/planted`, {
          displayName: '侵入者',
          email: 'planted@example.com',
          accessLevel: ROLE_LEVELS.ownerAdministrator,
        })
      ).status,
    ).toBe(403);
    expect((await agency.updateDocument('rooms/room-a', { name: 'x' })).status).toBe(403);
    // The partner record itself is written only through the consent API.
    expect((await agency.setDocument(`domains/${AGENCY}/partners/victim`, { name: '他法人' })).status).toBe(403);
    // A live subscription minimises the same way.
    const socket = await LiveSocket.open(test.server.url, agency.cookieHeader);
    try {
      socket.subscribe('r', { document: 'rooms/room-a' });
      const snapshot = await socket.until('r', (message) => 'document' in message);
      expect('document' in snapshot ? snapshot.document : null).not.toHaveProperty('residentName');
    } finally {
      await socket.close();
    }
  });

  it('records who acknowledged an alert and when as the server saw them: no colleague named, no backdating, no undoing', async () => {
    await store.set(SYSTEM_PRINCIPAL, 'alerts/ack-http', { domainId: A, roomId: 'room-a', type: 'button', startedAt: '2026-11-24T01:00:00Z' }, false);
    const staffUid = ((await staff.me()) as { uid: string }).uid;
    const adminUid = ((await admin.me()) as { uid: string }).uid;
    const backdated = '2026-11-24T01:00:30Z';
    expect((await staff.updateDocument('alerts/ack-http', { acknowledgedBy: adminUid, acknowledgedAt: backdated })).status).toBe(400);
    const commit = (client: DocumentsClient, data: unknown) =>
      client.post('/api/documents/commit', { reads: [], writes: [{ op: 'update', path: 'alerts/ack-http', data }] });
    expect((await commit(staff, { acknowledgedBy: adminUid })).status).toBe(400);
    const before = Date.now() - 1000;
    const done = ok(await staff.updateDocument('alerts/ack-http', { acknowledgedBy: staffUid, acknowledgedAt: backdated })).body as {
      document: { acknowledgedBy: string; acknowledgedAt: string };
    };
    expect(done.document.acknowledgedBy).toBe(staffUid);
    expect(Date.parse(done.document.acknowledgedAt)).toBeGreaterThanOrEqual(before);
    for (const change of [{ acknowledgedBy: adminUid }, { acknowledgedBy: null, acknowledgedAt: null }]) {
      expect((await admin.updateDocument('alerts/ack-http', change)).status).toBe(400);
      expect((await commit(admin, change)).status).toBe(400);
    }
    expect((await store.get(SYSTEM_PRINCIPAL, 'alerts/ack-http'))?.document).toMatchObject(done.document);
  });

  it('counts only signed-up owner accounts: an owner cannot leave behind a made-up owner record', async () => {
    const owner = await signedIn(test.server, 'owner@example.com');
    const uid = ((await owner.me()) as { uid: string }).uid;
    await store.set(
      SYSTEM_PRINCIPAL,
      `domains/demo-corp/staff/${uid}`,
      { displayName: 'オーナー', email: 'owner@example.com', accessLevel: ROLE_LEVELS.ownerAdministrator },
      false,
    );
    ok(
      await owner.setDocument('domains/demo-corp/staff/placeholder', {
        displayName: '架空',
        email: 'nobody@example.com',
        accessLevel: ROLE_LEVELS.ownerAdministrator,
      }),
    );
    const reply = await owner.updateDocument(`domains/demo-corp/staff/${uid}`, { accessLevel: ROLE_LEVELS.administrator });
    expect([reply.status, (reply.body as { message: string }).message]).toEqual([400, 'A domain must keep at least one owner']);
  });
}
