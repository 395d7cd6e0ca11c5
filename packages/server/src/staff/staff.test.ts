/**
 * Staff management over real sockets (PGlite): a facility registered here, with an administrator
 * and two general staff members invited into it. Levels and `disabled` edited on staff records
 * through the document engine reach the member's account; the staff rules refuse an administrator
 * raising anyone to level 3 or above (staff records and invitations alike); a member's second
 * factor is reset only by someone the rules allow, and the reset is audited.
 */
import { join } from 'node:path';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { URI } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient, type ClientReply } from '../testing/browserClient.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';

const PASSWORD = 'staff-rules-and-futons';

interface Member {
  client: BrowserClient;
  uid: string;
  email: string;
}

describe('staff management', () => {
  let dir: TempDir;
  let server: RunningServer;
  let address = 10;
  let domainId = '';
  let otherDomainId = '';
  let owner: Member;
  let admin: Member;
  let staff: Member;
  let second: Member;
  let otherOwner: Member;
  const client = () => new BrowserClient(server.url, { from: `127.0.3.${address++}` });

  const patch = (browser: BrowserClient, path: string, data: Record<string, unknown>): Promise<ClientReply> =>
    browser.send('PATCH', `/api/documents/${path}`, JSON.stringify({ data }), { 'content-type': 'application/json' });
  const reset = (browser: BrowserClient, domain: string, uid: string) => browser.post(`/api/staff/${domain}/${uid}/second-factor/reset`, {});
  const meOf = async (browser: BrowserClient) => (await browser.me()) as { id?: string; uid?: string; accessLevel: number; mfas: unknown[] } | null;

  /** Account changes follow the change feed: look a few times. */
  const eventually = async (check: () => Promise<boolean>): Promise<void> => {
    for (let attempt = 0; attempt < 60; attempt++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the condition never held');
  };

  const register = async (email: string): Promise<{ member: Member; domainId: string }> => {
    const browser = client();
    const reply = await browser.post('/api/auth/registration/domain', {
      name: 'オーナー',
      email,
      password: PASSWORD,
      domainName: 'すずらん苑',
      domainKind: 'facility',
    });
    expect(reply.status, reply.text).toBe(200);
    const body = reply.body as { domainId: string; userId: string };
    return { member: { client: browser, uid: body.userId, email }, domainId: body.domainId };
  };

  const joinDomain = async (inviter: BrowserClient, email: string, accessLevel: number): Promise<Member> => {
    const invitation = await inviter.post('/api/auth/registration/invitations', { email, accessLevel });
    expect(invitation.status, invitation.text).toBe(200);
    const browser = client();
    const accepted = await browser.post('/api/auth/registration/accept', {
      invitationId: (invitation.body as { id: string }).id,
      domainId,
      name: email.split('@')[0],
      password: PASSWORD,
    });
    expect(accepted.status, accepted.text).toBe(200);
    return { client: browser, uid: (accepted.body as { userId: string }).userId, email };
  };

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-staff-');
    server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'memory://', DATA_DIR: dir.path, DEMO: '0', SIMULATE: '0', WEB_DIST: join(dir.path, 'no-web') }),
      { logger: false },
    );
    const registered = await register('staff-owner@example.com');
    owner = registered.member;
    domainId = registered.domainId;
    admin = await joinDomain(owner.client, 'staff-admin@example.com', ROLE_LEVELS.administrator);
    staff = await joinDomain(owner.client, 'staff-general@example.com', ROLE_LEVELS.generalStaff);
    second = await joinDomain(owner.client, 'staff-second@example.com', ROLE_LEVELS.generalStaff);
    const other = await register('staff-other@example.com');
    otherOwner = other.member;
    otherDomainId = other.domainId;
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('gives the member the level set on their staff record', async () => {
    expect((await patch(owner.client, `domains/${domainId}/staff/${staff.uid}`, { accessLevel: ROLE_LEVELS.individualUser })).status).toBe(200);
    await eventually(async () => (await meOf(staff.client))?.accessLevel === ROLE_LEVELS.individualUser);
    expect((await patch(admin.client, `domains/${domainId}/staff/${staff.uid}`, { accessLevel: ROLE_LEVELS.generalStaff })).status).toBe(200);
    await eventually(async () => (await meOf(staff.client))?.accessLevel === ROLE_LEVELS.generalStaff);
  });

  it('refuses an administrator granting level 3 or above, on staff records and on invitations', async () => {
    expect((await patch(admin.client, `domains/${domainId}/staff/${staff.uid}`, { accessLevel: ROLE_LEVELS.administrator })).status).toBe(403);
    expect((await patch(admin.client, `domains/${domainId}/staff/${staff.uid}`, { accessLevel: ROLE_LEVELS.ownerAdministrator })).status).toBe(403);
    expect((await patch(admin.client, `domains/${domainId}/staff/${owner.uid}`, { disabled: true })).status).toBe(403);
    expect((await patch(staff.client, `domains/${domainId}/staff/${second.uid}`, { accessLevel: ROLE_LEVELS.administrator })).status).toBe(403);
    expect((await admin.client.post('/api/auth/registration/invitations', { email: 'raise@example.com', accessLevel: ROLE_LEVELS.administrator })).status).toBe(
      403,
    );
    const invitation = await admin.client.post('/api/auth/registration/invitations', { email: 'raise@example.com', accessLevel: ROLE_LEVELS.generalStaff });
    expect(invitation.status).toBe(200);
    const id = (invitation.body as { id: string }).id;
    expect((await patch(admin.client, `invitations/${id}`, { accessLevel: ROLE_LEVELS.privilegeAdministrator })).status).toBe(403);
    expect((await patch(admin.client, `invitations/${id}`, { revokedAt: new Date().toISOString(), expiresAt: new Date().toISOString() })).status).toBe(200);
    expect((await meOf(staff.client))?.accessLevel).toBe(ROLE_LEVELS.generalStaff);
  });

  it('signs a disabled member out at once', async () => {
    const member = await joinDomain(owner.client, 'staff-leaving@example.com', ROLE_LEVELS.generalStaff);
    expect(await meOf(member.client)).not.toBeNull();
    expect((await patch(admin.client, `domains/${domainId}/staff/${member.uid}`, { disabled: true })).status).toBe(200);
    await eventually(async () => (await meOf(member.client)) === null);
    // …and cannot sign in again until enabled.
    const refused = await member.client.signIn('staff-leaving@example.com', PASSWORD);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'ACCOUNT_DISABLED' });
    expect((await patch(admin.client, `domains/${domainId}/staff/${member.uid}`, { disabled: false })).status).toBe(200);
    expect((await member.client.signIn('staff-leaving@example.com', PASSWORD)).status).toBe(200);
  });

  it('resets a second factor for those the staff rules allow, and audits it', async () => {
    const enabled = await staff.client.post('/api/auth/two-factor/enable', { password: PASSWORD });
    expect(enabled.status, enabled.text).toBe(200);
    const totp = URI.parse((enabled.body as { totpURI: string }).totpURI);
    if (!('period' in totp)) throw new Error('not a TOTP URI');
    expect((await staff.client.post('/api/auth/two-factor/verify-totp', { code: totp.generate() })).status).toBe(200);
    expect((await meOf(staff.client))?.mfas).toHaveLength(1);

    // Not general staff, not out of scope (404: nobody learns who is staff elsewhere), not for an owner below level 4, not oneself.
    expect((await reset(second.client, domainId, staff.uid)).status).toBe(403);
    expect((await reset(otherOwner.client, domainId, staff.uid)).status).toBe(404);
    expect((await reset(admin.client, domainId, owner.uid)).status).toBe(403);
    expect((await reset(admin.client, domainId, admin.uid)).status).toBe(400);
    expect((await reset(admin.client, domainId, 'nobody')).status).toBe(404);
    expect((await reset(otherOwner.client, otherDomainId, staff.uid)).status).toBe(404);

    const done = await reset(admin.client, domainId, staff.uid);
    expect(done.status, done.text).toBe(200);
    expect(done.body).toEqual({ reset: true });
    // Signed out; the next sign-in asks for no code, and the member has no second factor.
    expect(await meOf(staff.client)).toBeNull();
    const again = await staff.client.signIn(staff.email, PASSWORD);
    expect(again.status).toBe(200);
    expect(again.body).not.toHaveProperty('twoFactorRedirect');
    expect(await meOf(staff.client)).toMatchObject({ accessLevel: ROLE_LEVELS.generalStaff, mfas: [] });

    const audit = await owner.client.post('/api/documents/query', {
      query: { collection: 'auditLogs', where: [['path', '==', `domains/${domainId}/staff/${staff.uid}`]], limit: 50 },
    });
    expect(audit.status, audit.text).toBe(200);
    const entries = (audit.body as { documents: { who: string; changedKeys: string[] }[] }).documents;
    expect(entries).toContainEqual(expect.objectContaining({ who: admin.uid, changedKeys: ['secondFactor'] }));
  });

  it('lets level 4 and above reset an administrator, and refuses the signed-out', async () => {
    expect((await reset(owner.client, domainId, admin.uid)).status).toBe(200);
    expect((await reset(client(), domainId, admin.uid)).status).toBe(401);
  });
});
