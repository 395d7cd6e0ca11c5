/**
 * The documented answers of our own endpoints under /api/auth (auth/ourAuthRoutes.ts: registration,
 * invitations, report links, reauthentication, e-mail change) are the real ones
 * (responseConformance.ts): an outsider registers, accepts and confirms; an administrator invites and
 * makes a report link; an anonymous visitor redeems it; staff reauthenticate; and each error (input
 * off the schema with the endpoint's own code, signed out, not allowed, spent, unknown) is checked too.
 */
import { DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { REGISTRATION_ERRORS, REPORT_LINK_ERRORS } from '@nemuri/shared/registration';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOutbox } from '../mail/mail.ts';
import type { BrowserClient } from '../testing/browserClient.ts';
import { FACILITY_A as A, startConformanceServer, SYSTEM as system, type ConformanceServer } from './responseConformance.ts';

describe('documented response schemas match the answers: our endpoints under /api/auth', () => {
  let running: ConformanceServer;
  const conforms: ConformanceServer['conforms'] = (method, route, reply) => running.conforms(method, route, reply);

  /** The token of the newest link mailed to `to` (mail goes out without the request waiting: look a few times). */
  const tokenMailedTo = async (to: string): Promise<string> => {
    for (let attempt = 0; attempt < 40; attempt++) {
      const mail = (await listOutbox(running.server.database)).find((item) => item.to === to);
      const link = /https?:\/\/\S+/.exec(mail?.text ?? '')?.[0];
      if (link !== undefined) return new URL(link).searchParams.get('token') ?? '';
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no mail to ${to}`);
  };

  beforeAll(async () => {
    running = await startConformanceServer('nemuri-responses-auth-');
    await running.store.set(system, 'rooms/rs-a1', { domainId: A, name: '201号室' }, false);
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('our endpoints beside Better Auth: registration, invitations, report links, reauthentication and the e-mail change', async () => {
    const outsider = await running.client();
    const admin = await running.client('admin@example.com');
    const staff = await running.client('staff@example.com');
    const post = (who: BrowserClient, route: string, body: unknown) =>
      who.post(`/api/auth${route}`, body).then((reply) => conforms('POST', `/api/auth${route}`, reply));
    const get = (who: BrowserClient, route: string, query: string) =>
      who.get(`/api/auth${route}${query}`).then((reply) => conforms('GET', `/api/auth${route}`, reply));
    const owner = { name: '登録 太郎', email: 'new-owner@example.com', password: 'registration-pw-1', domainName: '新しい法人', domainKind: 'corporation' };

    // An outsider registers a domain; the taken address, bad input and extra keys are refused.
    const newOwner = await running.client();
    expect((await post(newOwner, '/registration/domain', owner)).status).toBe(200);
    expect((await post(outsider, '/registration/domain', { ...owner, email: 'admin@example.com' })).body).toMatchObject({ code: 'USER_ALREADY_EXISTS' });
    expect((await post(outsider, '/registration/domain', { ...owner, domainKind: 'agency' })).body).toMatchObject({ code: REGISTRATION_ERRORS.invalidInput });
    expect((await post(outsider, '/registration/domain', { ...owner, accessLevel: 200 })).status).toBe(400);

    // Invitations: an administrator invites; an outsider and a level above the inviter's are refused.
    const invited = await post(admin, '/registration/invitations', { email: 'invitee@example.com', accessLevel: ROLE_LEVELS.generalStaff });
    expect(invited.status).toBe(200);
    const { id: invitationId } = invited.body as { id: string };
    expect((await post(outsider, '/registration/invitations', { email: 'x@example.com', accessLevel: 2 })).status).toBe(403);
    expect((await post(admin, '/registration/invitations', { email: 'x@example.com', accessLevel: ROLE_LEVELS.ownerAdministrator })).status).toBe(403);
    expect((await post(admin, '/registration/invitations', { email: 'not-an-address', accessLevel: 2 })).status).toBe(400);
    const forStaff = await post(admin, '/registration/invitations', { email: 'staff@example.com', accessLevel: ROLE_LEVELS.generalStaff });

    expect((await get(outsider, '/registration/invitation', `?id=${invitationId}`)).body).toMatchObject({ email: 'invitee@example.com', status: 'valid' });
    expect((await get(outsider, '/registration/invitation', '')).body).toMatchObject({ code: REGISTRATION_ERRORS.invitationNotFound });
    expect((await get(outsider, '/registration/invitation', '?id=no-such-invitation')).status).toBe(404);

    // Accepting: signed out with a name and password; then spent, unknown, another address's, taken address.
    const accept = { invitationId, domainId: A, name: '招待 花子', password: 'invitee-pw-123' };
    expect((await post(await running.client(), '/registration/accept', accept)).status).toBe(200);
    expect((await post(await running.client(), '/registration/accept', accept)).body).toMatchObject({ code: REGISTRATION_ERRORS.invitationUsed });
    expect((await post(outsider, '/registration/accept', { ...accept, invitationId: 'no-such-invitation' })).status).toBe(404);
    expect((await post(outsider, '/registration/accept', { invitationId: '' })).body).toMatchObject({ code: REGISTRATION_ERRORS.invalidInput });
    const staffInvitation = { invitationId: (forStaff.body as { id: string }).id, domainId: A };
    expect((await post(admin, '/registration/accept', staffInvitation)).body).toMatchObject({ code: REGISTRATION_ERRORS.invitationOtherAddress });
    expect((await post(outsider, '/registration/accept', { ...staffInvitation, name: 'x', password: 'some-password-1' })).status).toBe(409);

    // Report links: an administrator makes one, an anonymous visitor redeems it; staff, outsiders and bad tokens are refused.
    const made = await post(admin, '/report-access/links', { roomId: 'rs-a1', validDays: 7 });
    expect(made.status).toBe(200);
    const token = new URL((made.body as { url: string }).url).searchParams.get('token') ?? '';
    expect((await post(outsider, '/report-access/links', { roomId: 'rs-a1' })).status).toBe(401);
    expect((await post(staff, '/report-access/links', { roomId: 'rs-a1' })).status).toBe(403);
    expect((await post(admin, '/report-access/links', { roomId: 'rs-a1', validDays: 0 })).status).toBe(400);
    expect((await get(outsider, '/report-access/preview', `?token=${token}`)).body).toMatchObject({ roomId: 'rs-a1', status: 'valid' });
    expect((await get(outsider, '/report-access/preview', '')).body).toMatchObject({ code: REPORT_LINK_ERRORS.notFound });
    const viewer = await running.client();
    expect((await viewer.post('/api/auth/sign-in/anonymous', {})).status).toBe(200);
    expect((await post(viewer, '/report-access/redeem', { token })).body).toEqual({ roomId: 'rs-a1' });
    const another = await running.client();
    await another.post('/api/auth/sign-in/anonymous', {});
    expect((await post(another, '/report-access/redeem', { token })).body).toMatchObject({ code: REPORT_LINK_ERRORS.used });
    expect((await post(another, '/report-access/redeem', { token: 'no-such-token' })).status).toBe(404);
    expect((await post(another, '/report-access/redeem', {})).body).toMatchObject({ code: REPORT_LINK_ERRORS.notFound });
    expect((await post(admin, '/report-access/redeem', { token })).body).toMatchObject({ code: REPORT_LINK_ERRORS.forViewersOnly });
    expect((await post(outsider, '/report-access/redeem', { token })).status).toBe(401);

    // Reauthentication: the right password, a wrong one, none, and no session.
    expect((await post(staff, '/reauthenticate', { password: DEMO_PASSWORD })).body).toEqual({ status: true });
    expect((await post(staff, '/reauthenticate', { password: 'wrong-password' })).body).toMatchObject({ code: 'INVALID_PASSWORD' });
    expect((await post(staff, '/reauthenticate', {})).body).toMatchObject({ code: 'INVALID_PASSWORD' });
    expect((await post(outsider, '/reauthenticate', { password: DEMO_PASSWORD })).status).toBe(401);

    // The e-mail change: requested by the new owner (a fresh session), confirmed from the mail, taken back from the other.
    expect((await post(newOwner, '/email/change', { newEmail: ' Changed-Owner@Example.com ' })).body).toEqual({ status: true });
    expect((await post(newOwner, '/email/change', { newEmail: 'not-an-address' })).body).toMatchObject({ code: 'INVALID_EMAIL' });
    expect((await post(newOwner, '/email/change', { newEmail: owner.email })).body).toMatchObject({ code: 'EMAIL_IS_THE_SAME' });
    expect((await post(outsider, '/email/change', { newEmail: 'x@example.com' })).status).toBe(401);
    const changeToken = await tokenMailedTo('changed-owner@example.com');
    expect((await post(outsider, '/email/confirm', { token: `${changeToken}x` })).body).toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await post(outsider, '/email/confirm', { token: 42 })).body).toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await post(outsider, '/email/confirm', { token: changeToken })).body).toEqual({ email: 'changed-owner@example.com' });
    const recoverToken = await tokenMailedTo(owner.email);
    expect((await post(outsider, '/email/recover', { token: recoverToken })).body).toEqual({ email: owner.email });
    expect((await post(outsider, '/email/recover', { token: recoverToken })).body).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('covered every success answer of these routes, and logged no answer off its schema', () => {
    expect([...running.seen].filter((label) => / 200$/.test(label))).toHaveLength(11);
    expect(running.offSchemaLines()).toEqual([]);
  });
});
