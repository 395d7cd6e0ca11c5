/**
 * Security issue 17, finding 2: an agency taking over a tenant. An agency administrator (51) tried
 * to make any domain its partner through the documents API (which put the domain in its scope),
 * then to plant an owner or demote the maker's developers through staff records and invitations.
 * Partnership is now by consent (agency/partnerRequests.ts), and agency levels create or change
 * nobody's staff outside their own agency. Attacked over HTTP the way an agency account would, on
 * PGlite and on PostgreSQL; then the legitimate path: request → the customer's owner accepts → the
 * agency sees the customer's devices and rooms → the customer ends it → the agency sees nothing.
 */
import { DEMO_DOMAINS, DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_PRINCIPAL } from '../documents/systemPrincipal.ts';
import { DocumentsClient, signedIn, startTestServer, type DatabaseChoice, type TestServer } from '../documents/testing.ts';
import { listOutbox } from '../mail/mail.ts';
import type { ClientReply } from '../testing/browserClient.ts';
import { describePostgres } from '../testing/postgres.ts';

const AGENCY = DEMO_DOMAINS.agency;
const MAKER = DEMO_DOMAINS.maker;
const CORP = DEMO_DOMAINS.corporation;
const FACILITY = DEMO_DOMAINS.facilityA;
const ROOM = 'takeover-room';
const DEVICE = 'TAKEOVER-0001';
const TERMS = { name: '社会福祉法人さくら会', contractStart: '2026-04-01', contractEnd: null, monthlyUnitPrice: 2980, message: 'よろしくお願いします' };

function agencyTakeoverHolds(choice: DatabaseChoice): void {
  let test: TestServer;
  let agencyAdmin: DocumentsClient;
  let agencyUser: DocumentsClient;
  let owner: DocumentsClient;
  let privileged: DocumentsClient;
  let staff: DocumentsClient;
  let ownerUid: string;
  let developerUid: string;

  const documents = () => test.server.app.documents;
  const put = (path: string, data: Record<string, unknown>) => documents().set(SYSTEM_PRINCIPAL, path, data, false);
  const json = (client: DocumentsClient, method: string, path: string, body: unknown) =>
    client.send(method, path, JSON.stringify(body), { 'content-type': 'application/json' });
  const refused = (reply: ClientReply) => expect([403, 404], `${reply.status} ${reply.text}`).toContain(reply.status);
  const ask = (client: DocumentsClient, domainId: string, terms: object = TERMS) =>
    json(client, 'PUT', `/api/agency/${AGENCY}/partner-requests/${domainId}`, terms);
  const customer = (client: DocumentsClient, path = '', body?: unknown) =>
    body === undefined
      ? client.get(`/api/domains/${CORP}/partner-requests${path}`)
      : json(client, 'POST', `/api/domains/${CORP}/partner-requests${path}`, body);

  /** What the agency administrator can see of the customer, through every door. */
  const agencySight = async () => {
    const device = await agencyAdmin.getDocument(`devices/${DEVICE}`);
    const room = await agencyAdmin.getDocument(`rooms/${ROOM}`);
    const rooms = await agencyAdmin.ids({ collection: 'rooms', limit: 1000 });
    const overview = (await agencyAdmin.get(`/api/agency/${AGENCY}/overview`)).body as { partners: { id: string }[] };
    // The devices and rooms lists are paged on their own (GET …/devices, …/rooms).
    const devices = (await agencyAdmin.get(`/api/agency/${AGENCY}/devices?limit=200`)).body as { devices: { serial: string }[] };
    const agencyRooms = (await agencyAdmin.get(`/api/agency/${AGENCY}/rooms?limit=200`)).body as { rooms: { id: string }[] };
    return {
      device: device.status,
      room: room.status,
      listed: rooms.includes(ROOM),
      partners: overview.partners.map((partner) => partner.id),
      overviewDevices: devices.devices.map((row) => row.serial).includes(DEVICE),
      overviewRooms: agencyRooms.rooms.map((row) => row.id).includes(ROOM),
    };
  };
  const expectBlind = async () => {
    const sight = await agencySight();
    expect([403, 404]).toContain(sight.device);
    expect([403, 404]).toContain(sight.room);
    expect(sight).toMatchObject({ listed: false, partners: [], overviewDevices: false, overviewRooms: false });
  };
  const levelOf = async (email: string) => ((await (await signedIn(test.server, email)).me()) as { accessLevel: number }).accessLevel;

  beforeAll(async () => {
    test = await startTestServer(choice);
    const as = (email: string) => signedIn(test.server, email);
    [agencyAdmin, agencyUser, owner, privileged, staff] = await Promise.all([
      as('agency-admin@example.com'),
      as('agency@example.com'),
      as('owner@example.com'),
      as('privilege@example.com'),
      as('staff@example.com'),
    ]);
    ownerUid = ((await owner.me()) as { uid: string }).uid;
    developerUid = ((await (await signedIn(test.server, 'developer@example.com')).me()) as { uid: string }).uid;
    await put(`domains/${MAKER}`, { name: 'ねむりテック株式会社', kind: 'developer', rootDomainId: MAKER });
    await put(`domains/${AGENCY}`, { name: 'ねむりケア販売株式会社', kind: 'agency', rootDomainId: AGENCY });
    await put(`domains/${CORP}`, { name: '社会福祉法人さくら会', kind: 'corporation', rootDomainId: CORP });
    await put(`domains/${FACILITY}`, { name: 'さくら苑', kind: 'facility', rootDomainId: CORP, parentDomainId: CORP });
    await put(`domains/${CORP}/staff/${ownerUid}`, { displayName: '田中 オーナー', email: 'owner@example.com', accessLevel: ROLE_LEVELS.ownerAdministrator });
    await put(`domains/${MAKER}/staff/${developerUid}`, { displayName: '中村 開発', email: 'developer@example.com', accessLevel: ROLE_LEVELS.developer });
    await put(`rooms/${ROOM}`, { domainId: FACILITY, name: '101号室', residentName: '入居 者', deviceSerial: DEVICE, status: 'active' });
    await put(`devices/${DEVICE}`, { deviceTypeId: 'nemuri-chest', domainId: FACILITY, roomId: ROOM, status: 'in_use' });
  }, 120_000);

  afterAll(async () => {
    await test?.stop();
  });

  it('the documents API writes no partner or partner request below level 100: no scope gained', async () => {
    for (const target of [CORP, MAKER]) {
      refused(await agencyAdmin.setDocument(`domains/${AGENCY}/partners/${target}`, { name: 'x', status: 'active' }));
      refused(
        await agencyAdmin.post('/api/documents/commit', {
          reads: [],
          writes: [{ op: 'set', path: `domains/${AGENCY}/partners/${target}`, data: { name: 'x' }, merge: false }],
        }),
      );
      refused(
        await agencyAdmin.setDocument(`domains/${AGENCY}/partnerRequests/${target}`, {
          customerDomainId: target,
          status: 'accepted',
          partnerName: 'x',
          requestedBy: 'me',
          requestedAt: '2026-01-01T00:00:00Z',
        }),
      );
    }
    await expectBlind();
  });

  it('the agency API no longer makes a partner without consent, and a domain that cannot be asked answers like a missing one', async () => {
    const put = await json(agencyAdmin, 'PUT', `/api/agency/${AGENCY}/partners/${CORP}`, { ...TERMS, message: undefined, status: 'active' });
    expect(put.status, put.text).toBe(404);
    const answers = await Promise.all([MAKER, FACILITY, 'no-such-domain'].map((id) => ask(agencyAdmin, id)));
    for (const reply of answers) {
      expect(reply.status, reply.text).toBe(404);
      expect(reply.body).toMatchObject({ code: 'not-found', reason: 'domain-not-found' });
    }
    // Level 50 reads the agency area but asks nobody.
    const asked = await ask(agencyUser, CORP);
    expect(asked.status).toBe(403);
    await expectBlind();
  });

  it('a request alone gives no scope; the customer is mailed; only levels 4-5 of that root see and answer it', async () => {
    const asked = await ask(agencyAdmin, CORP);
    expect(asked.status, asked.text).toBe(200);
    expect(asked.body).toMatchObject({ request: { domainId: CORP, status: 'requested', monthlyUnitPrice: 2980 } });
    await expectBlind();
    await expect
      .poll(async () => (await listOutbox(test.server.database)).some((mail) => mail.to === 'owner@example.com' && mail.subject.includes('取引先の申請')))
      .toBe(true);
    const listed = await customer(owner);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toMatchObject({ requests: [{ agencyId: AGENCY, agencyName: 'ねむりケア販売株式会社', status: 'requested', partner: false }] });
    expect((await customer(privileged)).status).toBe(200);
    // Level 2 of the customer, the agency itself, and an owner of another root: none may answer for it.
    expect((await customer(staff, `/${AGENCY}/answer`, { accept: true })).status).toBe(403);
    expect((await customer(agencyAdmin, `/${AGENCY}/answer`, { accept: true })).status).toBe(403);
    const stranger = await registeredOwner(test, 'takeover-stranger@example.com');
    const strangers = [
      await customer(stranger),
      await customer(stranger, `/${AGENCY}/answer`, { accept: true }),
      await stranger.get('/api/domains/no-such-root/partner-requests'),
    ];
    for (const reply of strangers) {
      expect(reply.status, reply.text).toBe(404);
      expect(reply.body).toMatchObject({ code: 'not-found', reason: 'domain-not-found' });
    }
    await expectBlind();
  });

  it('the owner accepts: the agency sees the customer’s device and room status', async () => {
    const accepted = await customer(owner, `/${AGENCY}/answer`, { accept: true });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ requests: [{ agencyId: AGENCY, status: 'accepted', partner: true }] });
    const sight = await agencySight();
    expect(sight).toMatchObject({ device: 200, listed: true, partners: [CORP], overviewDevices: true, overviewRooms: true });
    // Answered once: a second answer is refused.
    expect((await customer(owner, `/${AGENCY}/answer`, { accept: false })).status).toBe(409);
  });

  it('with a partner in scope, the agency still plants no owner and demotes nobody (staff records, invitations, second factors)', async () => {
    refused(
      await agencyAdmin.setDocument(`domains/${CORP}/staff/planted-owner`, {
        displayName: '乗っ取り',
        email: 'planted@example.com',
        accessLevel: ROLE_LEVELS.ownerAdministrator,
      }),
    );
    refused(await agencyAdmin.updateDocument(`domains/${CORP}/staff/${ownerUid}`, { accessLevel: ROLE_LEVELS.individualUser }));
    refused(await agencyAdmin.updateDocument(`domains/${MAKER}/staff/${developerUid}`, { accessLevel: ROLE_LEVELS.individualUser }));
    refused(
      await agencyAdmin.post('/api/documents/commit', {
        reads: [],
        writes: [{ op: 'update', path: `domains/${CORP}/staff/${ownerUid}`, data: { disabled: true } }],
      }),
    );
    refused(
      await agencyAdmin.setDocument('invitations/planted', {
        domainId: CORP,
        email: 'planted@example.com',
        accessLevel: ROLE_LEVELS.ownerAdministrator,
        expiresAt: '2030-01-01T00:00:00Z',
      }),
    );
    for (const [client, domainId, accessLevel] of [
      [agencyAdmin, CORP, ROLE_LEVELS.ownerAdministrator],
      [agencyAdmin, CORP, ROLE_LEVELS.generalStaff],
      [agencyAdmin, FACILITY, ROLE_LEVELS.administrator],
      [agencyAdmin, MAKER, ROLE_LEVELS.ownerAdministrator],
      [agencyUser, CORP, ROLE_LEVELS.ownerAdministrator],
      [agencyUser, AGENCY, ROLE_LEVELS.generalStaff],
    ] as const) {
      const reply = await client.post('/api/auth/registration/invitations', { email: 'planted@example.com', accessLevel, domainId });
      expect(reply.status, `${domainId} ${accessLevel}: ${reply.text}`).toBe(403);
    }
    expect((await agencyAdmin.post(`/api/staff/${CORP}/${ownerUid}/second-factor/reset`, {})).status).toBeGreaterThanOrEqual(403);
    expect(await documents().get(SYSTEM_PRINCIPAL, `domains/${CORP}/staff/planted-owner`)).toBeNull();
    expect(await documents().get(SYSTEM_PRINCIPAL, 'invitations/planted')).toBeNull();
    expect((await documents().get(SYSTEM_PRINCIPAL, `domains/${CORP}/staff/${ownerUid}`))?.document).toMatchObject({
      accessLevel: ROLE_LEVELS.ownerAdministrator,
    });
    expect(await levelOf('owner@example.com')).toBe(ROLE_LEVELS.ownerAdministrator);
    expect(await levelOf('developer@example.com')).toBe(ROLE_LEVELS.developer);
    // An agency administrator still invites into its own agency, at most its own level.
    expect(
      (
        await agencyAdmin.post('/api/auth/registration/invitations', {
          email: 'colleague@example.com',
          accessLevel: ROLE_LEVELS.generalStaff,
          domainId: AGENCY,
        })
      ).status,
    ).toBe(200);
  });

  it('a customer served by another agency (also through a partnership made before requests) cannot be asked or accepted', async () => {
    await put('domains/other-agency', { name: '別の代理店', kind: 'agency', rootDomainId: 'other-agency' });
    await put('domains/served-corp', { name: '他社の顧客法人', kind: 'corporation', rootDomainId: 'served-corp' });
    // A partnership of the other agency from before partner requests existed: a partner record, no request.
    await put('domains/other-agency/partners/served-corp', { name: '他社の顧客法人', status: 'active' });
    const candidates = await agencyAdmin.get(`/api/agency/${AGENCY}/partner-candidates`);
    expect(candidates.status).toBe(200);
    const ids = (candidates.body as { domains: { id: string }[] }).domains.map((domain) => domain.id);
    expect(ids).not.toContain('served-corp');
    const asked = await ask(agencyAdmin, 'served-corp');
    expect(asked.status, asked.text).toBe(404);
    // Once that partnership has ended, the customer can be asked.
    await put('domains/other-agency/partners/served-corp', { name: '他社の顧客法人', status: 'ended' });
    expect((await ask(agencyAdmin, 'served-corp')).status).toBe(200);
  });

  it('the customer ends the partnership: the agency loses the customer at once and cannot bring it back', async () => {
    const ended = await customer(owner, `/${AGENCY}/end`, {});
    expect(ended.status, ended.text).toBe(200);
    expect(ended.body).toMatchObject({ requests: [{ agencyId: AGENCY, status: 'ended', partner: false }] });
    await expectBlind();
    expect(
      (
        await json(agencyAdmin, 'PUT', `/api/agency/${AGENCY}/partners/${CORP}`, {
          name: 'x',
          contractStart: null,
          contractEnd: null,
          monthlyUnitPrice: 1,
          status: 'active',
        })
      ).status,
    ).toBe(404);
    expect((await customer(owner, `/${AGENCY}/end`, {})).status).toBe(404);
    // Asking again is allowed after an end; a decline then holds the agency off for a while.
    expect((await ask(agencyAdmin, CORP)).status).toBe(200);
    expect((await customer(owner, `/${AGENCY}/answer`, { accept: false })).status).toBe(200);
    await expectBlind();
    expect((await ask(agencyAdmin, CORP)).body).toMatchObject({ reason: 'recently-declined' });
  });
}

/** A new root domain's owner, registered the way anyone can (/register). */
async function registeredOwner(test: TestServer, email: string): Promise<DocumentsClient> {
  const client = new DocumentsClient(test.server.url);
  const reply = await client.post('/api/auth/registration/domain', {
    name: '他人 太郎',
    email,
    password: DEMO_PASSWORD,
    domainName: '他人の法人',
    domainKind: 'corporation',
  });
  if (reply.status !== 200) throw new Error(`registration answered ${reply.status}: ${reply.text}`);
  return client;
}

describe('agency takeover on PGlite', () => {
  agencyTakeoverHolds('pglite');
});

describePostgres('agency takeover on PostgreSQL', () => {
  agencyTakeoverHolds('postgresql');
});
