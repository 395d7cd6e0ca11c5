/**
 * Device lending on a real server (PGlite, demo accounts): who may lend, the refusals (lent, in
 * repair, retired, unknown domain), simultaneous lends of one device of which exactly one wins,
 * a return freeing the device and its room in one go, and the history kept across lends.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { signedInClient, startIngestServer, uniqueSerial, type IngestTestServer } from '../ingest/testing.ts';
import type { BrowserClient, ClientReply } from '../testing/browserClient.ts';

const A = DEMO_DOMAINS.facilityA;
const B = DEMO_DOMAINS.facilityB;
const AGENCY = DEMO_DOMAINS.agency;
const FROM = '2026-11-01T10:00:00+09:00';

describe('device lending', () => {
  let base: IngestTestServer;
  let developer: BrowserClient;
  let agency: BrowserClient;
  let admin: BrowserClient;

  const documents = () => base.server.app.documents;
  const putDevice = (serial: string, fields: Record<string, unknown> = {}) =>
    documents().set(
      SYSTEM_PRINCIPAL,
      `devices/${serial}`,
      { deviceTypeId: 'nemuri-pad', ownerAgencyDomainId: AGENCY, domainId: null, status: 'stock', ...fields },
      false,
    );
  const deviceOf = async (serial: string) => (await documents().get(SYSTEM_PRINCIPAL, `devices/${serial}`))?.document;
  const lend = (client: BrowserClient, serial: string, body: Record<string, unknown> = {}) =>
    client.post(`/api/devices/${serial}/borrows`, { toDomainId: B, from: FROM, ...body });
  const giveBack = (client: BrowserClient, serial: string, borrowId: string) => client.post(`/api/devices/${serial}/borrows/${borrowId}/return`, {});
  const borrowIdOf = (reply: ClientReply): string => {
    expect(reply.status, reply.text).toBe(201);
    return (reply.body as { borrowId: string }).borrowId;
  };

  beforeAll(async () => {
    base = await startIngestServer();
    const as = (email: string) => signedInClient(base.server, email);
    [developer, agency, admin] = await Promise.all([as('developer@example.com'), as('agency@example.com'), as('admin@example.com')]);
    // Under vitest the demo data set is not loaded: the domains and the agency's partner list.
    await documents().set(SYSTEM_PRINCIPAL, `domains/${AGENCY}`, { name: 'ねむり販売', kind: 'agency', rootDomainId: AGENCY }, true);
    for (const [id, name] of [
      [A, 'さくら苑'],
      [B, 'もみじ荘'],
    ] as const) {
      await documents().set(
        SYSTEM_PRINCIPAL,
        `domains/${id}`,
        { name, kind: 'facility', rootDomainId: DEMO_DOMAINS.corporation, parentDomainId: DEMO_DOMAINS.corporation, agencyDomainId: AGENCY },
        true,
      );
    }
    await documents().set(SYSTEM_PRINCIPAL, `domains/${AGENCY}/partners/${B}`, { name: 'もみじ荘', status: 'active' }, true);
  }, 120_000);

  afterAll(async () => {
    await base?.stop();
    await base?.remove();
  });

  it('lends a device in stock: a borrow record, and the device now belongs to the borrower, lent', async () => {
    const serial = uniqueSerial('lend');
    await putDevice(serial);
    const reply = await lend(developer, serial, { until: '2026-12-01T10:00:00+09:00', note: '試用' });
    const borrowId = borrowIdOf(reply);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.body).toMatchObject({
      device: { documentReferenceId: serial, domainId: B, status: 'lent' },
      borrow: { documentReferenceId: borrowId, toDomainId: B, from: FROM, until: '2026-12-01T10:00:00+09:00', returnedAt: null, note: '試用' },
    });
    const audit = await documents().query(SYSTEM_PRINCIPAL, { collection: 'auditLogs', where: [['path', '==', `devices/${serial}/borrows/${borrowId}`]] });
    expect(audit).toHaveLength(1);
  });

  it('keeps borrow records to the lending API: an agency cannot write one through the documents API', async () => {
    const serial = uniqueSerial('forged');
    await putDevice(serial);
    const forged = await agency.send('PUT', `/api/documents/devices/${serial}/borrows/b1`, JSON.stringify({ data: { toDomainId: B, from: FROM, by: 'me' } }), {
      'content-type': 'application/json',
    });
    expect(forged.status).toBe(403);
    expect(await deviceOf(serial)).toMatchObject({ status: 'stock' });
  });

  it('refuses a second lend while the device is out, and lends again after the return; the history keeps both', async () => {
    const serial = uniqueSerial('again');
    await putDevice(serial);
    const first = borrowIdOf(await lend(developer, serial));
    const refused = await lend(developer, serial, { toDomainId: A });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'already-exists', reason: 'already-lent' });
    expect(await deviceOf(serial)).toMatchObject({ domainId: B, status: 'lent' });

    const returned = await giveBack(developer, serial, first);
    expect(returned.status, returned.text).toBe(200);
    expect(returned.body).toMatchObject({ device: { status: 'stock', domainId: null, roomId: null }, borrow: { returnedAt: expect.any(String) } });
    const twice = await giveBack(developer, serial, first);
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ reason: 'already-returned' });

    const second = borrowIdOf(await lend(developer, serial, { toDomainId: A }));
    expect(await deviceOf(serial)).toMatchObject({ domainId: A, status: 'lent' });
    const history = await developer.get(`/api/devices/${serial}/borrows`);
    expect(history.status).toBe(200);
    const borrows = (history.body as { borrows: { documentReferenceId: string; returnedAt: unknown }[] }).borrows;
    // Both start at FROM: the one recorded later comes first.
    expect(borrows.map((borrow) => borrow.documentReferenceId)).toEqual([second, first]);
    expect(borrows.filter((borrow) => borrow.returnedAt === null).map((borrow) => borrow.documentReferenceId)).toEqual([second]);
  });

  it('of simultaneous lends of one device exactly one succeeds', async () => {
    const serial = uniqueSerial('race');
    await putDevice(serial);
    const replies = await Promise.all([B, A, B, A, B].map((toDomainId) => lend(developer, serial, { toDomainId })));
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses, replies.map((reply) => reply.text).join('\n')).toEqual([201, 409, 409, 409, 409]);
    for (const reply of replies.filter((candidate) => candidate.status === 409)) expect(reply.body).toMatchObject({ code: 'already-exists' });
    const borrows = await documents().query(SYSTEM_PRINCIPAL, { collection: `devices/${serial}/borrows` });
    expect(borrows).toHaveLength(1);
    const winner = replies.find((reply) => reply.status === 201)?.body as { borrow: { toDomainId: string } };
    expect(await deviceOf(serial)).toMatchObject({ status: 'lent', domainId: winner.borrow.toDomainId });
  });

  it('returning frees the room that held the device, in the same transaction', async () => {
    const serial = uniqueSerial('room');
    await putDevice(serial);
    const borrowId = borrowIdOf(await lend(developer, serial));
    const roomId = `room-${serial}`;
    await documents().set(SYSTEM_PRINCIPAL, `rooms/${roomId}`, { domainId: B, name: '201', deviceSerial: serial }, false);
    await documents().update(SYSTEM_PRINCIPAL, `devices/${serial}`, { roomId, status: 'in_use' });
    expect((await giveBack(developer, serial, borrowId)).status).toBe(200);
    expect((await documents().get(SYSTEM_PRINCIPAL, `rooms/${roomId}`))?.document.deviceSerial).toBeNull();
    expect(await deviceOf(serial)).toMatchObject({ status: 'stock', domainId: null, roomId: null });
  });

  it('refuses devices in repair or retired, unknown devices and domains, bad periods and unknown keys', async () => {
    const repair = uniqueSerial('repair');
    const retired = uniqueSerial('retired');
    await putDevice(repair, { status: 'repair' });
    await putDevice(retired, { status: 'retired' });
    expect((await lend(developer, repair)).body).toMatchObject({ code: 'failed-precondition', reason: 'device-in-repair' });
    expect((await lend(developer, retired)).body).toMatchObject({ code: 'failed-precondition', reason: 'device-retired' });
    expect((await lend(developer, 'NO-SUCH-DEVICE')).body).toMatchObject({ code: 'not-found', reason: 'device-not-found' });

    const serial = uniqueSerial('checks');
    await putDevice(serial);
    const unknownDomain = await lend(developer, serial, { toDomainId: 'no-such-domain' });
    expect(unknownDomain.status).toBe(404);
    expect(unknownDomain.body).toMatchObject({ reason: 'domain-not-found' });
    const period = await lend(developer, serial, { until: '2026-10-01T00:00:00+09:00' });
    expect(period.status).toBe(400);
    expect(period.body).toMatchObject({ reason: 'invalid-period' });
    const extra = await lend(developer, serial, { color: 'red' });
    expect(extra.status).toBe(400);
    expect(extra.text).toContain('Unrecognized key(s) in object');
    expect(await deviceOf(serial)).toMatchObject({ status: 'stock' });
    expect((await giveBack(developer, serial, 'no-such-borrow')).body).toMatchObject({ reason: 'borrow-not-found' });
  });

  it('is for developers and for agencies with their own devices to their partners; facilities are refused', async () => {
    const serial = uniqueSerial('who');
    await putDevice(serial);
    const byAdmin = await lend(admin, serial);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body).toMatchObject({ code: 'permission-denied' });
    expect((await admin.get(`/api/devices/${serial}/borrows`)).status).toBe(403);

    // Facility A is no partner of the agency: outside its scope, as if it did not exist.
    expect((await lend(agency, serial, { toDomainId: A })).body).toMatchObject({ reason: 'domain-not-found' });
    const borrowId = borrowIdOf(await lend(agency, serial));
    expect((await giveBack(admin, serial, borrowId)).status).toBe(403);
    expect((await giveBack(agency, serial, borrowId)).status).toBe(200);

    const foreign = uniqueSerial('foreign');
    await putDevice(foreign, { ownerAgencyDomainId: 'another-agency' });
    const refused = await lend(agency, foreign);
    expect([403, 404]).toContain(refused.status);
    expect(await deviceOf(foreign)).toMatchObject({ status: 'stock' });
  });

  it('answers 401 when signed out', async () => {
    const reply = await fetch(`${base.server.url}/api/devices/NM-0001/borrows`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base.server.url },
      body: JSON.stringify({ toDomainId: B, from: FROM }),
    });
    expect(reply.status).toBe(401);
  });
});
