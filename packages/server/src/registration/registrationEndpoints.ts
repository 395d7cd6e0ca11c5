/**
 * Registration as a Better Auth plugin, so that it shares sign-in's rate limits, origin checks,
 * password rules and session cookies. Endpoints (under /api/auth):
 *   POST /registration/domain             a new root domain and its owner (level 5), signed in at once
 *   POST /registration/invitations        an administrator invites someone to a domain (mail with a link)
 *   GET  /registration/invitation?id=…    what the invitation page shows
 *   POST /registration/accept             join through an invitation: a new account, or the signed-in
 *                                         account whose address was invited
 * Bodies and queries are the shared schemas, checked by their route schemas (auth/ourAuthRoutes.ts)
 * before the endpoint runs. Domain, staff and invitation records are written through the document engine, so its schemas,
 * scope rules and audit log apply; the new user's own records are written on their behalf.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { APIError, createAuthEndpoint, getSessionFromCtx, sendVerificationEmailFn } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import type { BetterAuthPlugin } from '@better-auth/core';
import { guardAllowsWrite, isAgencyLevel, type Claims } from '@nemuri/shared/documents/access';
import { collectionByName } from '@nemuri/shared/documents/collections';
import { DocumentError } from '@nemuri/shared/documents/errors';
import {
  acceptInvitationInput,
  createInvitationInput,
  INVITATION_VALID_DAYS,
  invitationPreviewQuery,
  REGISTRATION_ERRORS,
  registerDomainInput,
  type InvitationPreview,
  type InvitationStatus,
} from '@nemuri/shared/registration';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Database } from '../database/database.ts';
import type { DocumentStore } from '../documents/store.ts';
import type { MailMessage } from '../mail/mail.ts';
import { invitationMail, invitationUrl } from '../mail/mailTexts.ts';
import { claimsOfAuthUser, type SecondFactorPolicy } from '../auth/secondFactorPolicy.ts';

export interface RegistrationOptions {
  database: Database;
  /** The app's document store: domains, staff and invitations are written through it. */
  documents: DocumentStore;
  secondFactor: SecondFactorPolicy;
  baseURL: string;
  /** Sends a mail without waiting (auth.ts `deliver`). */
  deliver(message: MailMessage): void;
}

interface RegisteredUser {
  id: string;
  email: string;
  name: string;
  accessLevel?: number | null;
  domainId?: string | null;
  rootDomainId?: string | null;
  twoFactorEnabled?: boolean | null;
  secondFactorEnrolledAt?: Date | null;
}

const STAFF = collectionByName('domains/staff');

function refuse(status: 'BAD_REQUEST' | 'NOT_FOUND' | 'FORBIDDEN' | 'GONE' | 'CONFLICT', code: string, message: string): never {
  throw new APIError(status, { code, message });
}

const NOT_YOUR_DOMAIN = 'you may not invite to this domain';

/**
 * Agency levels never create staff of a customer (security issue 17, finding 2): level 50 (read-only
 * in the agency area) invites nobody; level 51 invites only into its own agency domain, so it can
 * never grant a customer's levels, owners (5) included. Partner domains are in an agency's scope for
 * device and room status, not for its people.
 */
function refuseAgencyInvitation(claims: Claims, domainId: string): void {
  if (!isAgencyLevel(claims)) return;
  if (claims.accessLevel < ROLE_LEVELS.agencyAdmin) refuse('FORBIDDEN', REGISTRATION_ERRORS.invitationNotAllowed, 'an agency account (level 50) cannot invite');
  if (domainId !== claims.domainId) refuse('FORBIDDEN', REGISTRATION_ERRORS.invitationNotAllowed, NOT_YOUR_DOMAIN);
}

/** A short random domain id: it appears in invitation links. */
function newDomainId(): string {
  return `d${randomBytes(9).toString('base64url').replace(/[-_]/g, 'x').toLowerCase()}`;
}

/** The document engine's refusals as Better Auth errors (403 for scope and level, 400 for data). */
function asApiError(error: unknown): never {
  if (error instanceof DocumentError) {
    if (error.code === 'permission-denied' || error.code === 'unauthenticated') refuse('FORBIDDEN', REGISTRATION_ERRORS.invitationNotAllowed, error.message);
    refuse('BAD_REQUEST', REGISTRATION_ERRORS.invalidInput, error.message);
  }
  throw error;
}

export function registration({ database, documents: store, secondFactor, baseURL, deliver }: RegistrationOptions) {
  /** The engine acting for a user on their own new records (their level does not exist yet). */
  const onBehalfOf = (uid: string): Claims => ({ uid, accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null });

  const statusOf = (invitation: { usedAt?: unknown; expiresAt: unknown }): InvitationStatus => {
    if (typeof invitation.usedAt === 'string' && invitation.usedAt !== '') return 'used';
    return Date.parse(String(invitation.expiresAt)) <= Date.now() ? 'expired' : 'valid';
  };

  const readInvitation = async (id: string, domainId?: string) => {
    const found = await store.get(onBehalfOf('registration'), `invitations/${id}`).catch(() => null);
    const invitation = found?.document as { domainId: string; email: string; accessLevel: number; expiresAt: string; usedAt?: string | null } | undefined;
    if (invitation === undefined || (domainId !== undefined && invitation.domainId !== domainId))
      refuse('NOT_FOUND', REGISTRATION_ERRORS.invitationNotFound, 'no such invitation');
    return invitation;
  };

  const domainName = async (domainId: string): Promise<string> => {
    const found = await store.get(onBehalfOf('registration'), `domains/${domainId}`).catch(() => null);
    const name = found?.document.name;
    return typeof name === 'string' ? name : domainId;
  };

  /**
   * A user belongs to one domain: joining another ends their staff record in the current one,
   * unless they are its last owner (a domain always keeps one).
   */
  const leaveCurrentDomain = async (user: RegisteredUser, joining: string): Promise<void> => {
    const current = user.domainId;
    if (current === null || current === undefined || current === '' || current === joining) return;
    try {
      await store.delete(onBehalfOf(user.id), `domains/${current}/staff/${user.id}`);
    } catch (error) {
      // The engine keeps a domain's last owner (documents/store.ts).
      if (error instanceof DocumentError && error.code === 'failed-precondition')
        refuse('CONFLICT', REGISTRATION_ERRORS.lastOwner, 'you are the last owner of your current domain');
      asApiError(error);
    }
  };

  const writeStaff = (user: RegisteredUser, domainId: string, accessLevel: number) =>
    store.set(onBehalfOf(user.id), `domains/${domainId}/staff/${user.id}`, { displayName: user.name, email: user.email, accessLevel }, false);

  return {
    id: 'nemuri-registration',
    endpoints: {
      registerDomain: createAuthEndpoint('/registration/domain', { method: 'POST', body: registerDomainInput }, async (ctx) => {
        const input = ctx.body;
        const { internalAdapter, password } = ctx.context;
        if (input.password.length < ctx.context.password.config.minPasswordLength) refuse('BAD_REQUEST', 'PASSWORD_TOO_SHORT', 'Password too short');
        if (input.password.length > ctx.context.password.config.maxPasswordLength) refuse('BAD_REQUEST', 'PASSWORD_TOO_LONG', 'Password too long');
        if ((await internalAdapter.findUserByEmail(input.email)) !== null)
          refuse('BAD_REQUEST', 'USER_ALREADY_EXISTS', 'User already exists. Use another email.');
        const domainId = newDomainId();
        const hash = await password.hash(input.password);
        const user = (await internalAdapter.createUser(
          { email: input.email, name: input.name, emailVerified: false, accessLevel: ROLE_LEVELS.ownerAdministrator, domainId, rootDomainId: domainId },
          { method: 'email' },
        )) as RegisteredUser;
        try {
          await internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password: hash });
          await store.set(
            onBehalfOf(user.id),
            `domains/${domainId}`,
            { name: input.domainName, kind: input.domainKind, rootDomainId: domainId, timeZone: 'Asia/Tokyo', status: 'active' },
            false,
          );
          await writeStaff(user, domainId, ROLE_LEVELS.ownerAdministrator);
        } catch (error) {
          // Nothing half-made stays behind: without its domain the account could do nothing.
          await internalAdapter.deleteUser(user.id).catch(() => undefined);
          await database.query('delete from documents where path = $1 or parent_path = $1', [`domains/${domainId}`]).catch(() => undefined);
          asApiError(error);
        }
        // Registration does not wait for the address to be verified (as sign-up): the mail goes out now.
        await sendVerificationEmailFn(ctx, user as never);
        const session = await internalAdapter.createSession(user.id);
        await setSessionCookie(ctx, { session, user: user as never });
        return ctx.json({ domainId, userId: user.id });
      }),

      createInvitation: createAuthEndpoint('/registration/invitations', { method: 'POST', body: createInvitationInput }, async (ctx) => {
        const input = ctx.body;
        const session = await getSessionFromCtx(ctx);
        if (session === null) refuse('FORBIDDEN', REGISTRATION_ERRORS.invitationNotAllowed, 'sign in to invite');
        const inviter = session.user as unknown as RegisteredUser;
        const claims = await claimsOfAuthUser(inviter, secondFactor);
        const domainId = input.domainId ?? claims.domainId;
        if (domainId === null) refuse('FORBIDDEN', REGISTRATION_ERRORS.invitationNotAllowed, 'you belong to no domain');
        refuseAgencyInvitation(claims, domainId);
        // The staff rules: nobody grants a level above their own, and below level 4 nobody grants administrator rights.
        if (STAFF === undefined || !guardAllowsWrite(STAFF, claims, null, { accessLevel: input.accessLevel }))
          refuse('FORBIDDEN', REGISTRATION_ERRORS.invitationNotAllowed, 'you may not grant this level');
        // The engine would place an invitation to a domain without a record under the inviter's root.
        if ((await store.get(onBehalfOf('registration'), `domains/${domainId}`).catch(() => null)) === null)
          refuse('FORBIDDEN', REGISTRATION_ERRORS.invitationNotAllowed, NOT_YOUR_DOMAIN);
        const id = randomUUID();
        const expiresAt = new Date(Date.now() + INVITATION_VALID_DAYS * 86_400_000).toISOString();
        try {
          await store.set(claims, `invitations/${id}`, { domainId, email: input.email, accessLevel: input.accessLevel, expiresAt }, false);
        } catch (error) {
          // Another tenant's domain answers exactly as a missing one (no existence oracle).
          if (error instanceof DocumentError && error.code === 'permission-denied')
            refuse('FORBIDDEN', REGISTRATION_ERRORS.invitationNotAllowed, NOT_YOUR_DOMAIN);
          asApiError(error);
        }
        deliver(invitationMail(input.email, await domainName(domainId), inviter.name, invitationUrl(baseURL, domainId, id), INVITATION_VALID_DAYS));
        return ctx.json({ id, domainId, expiresAt });
      }),

      previewInvitation: createAuthEndpoint('/registration/invitation', { method: 'GET', query: invitationPreviewQuery }, async (ctx) => {
        const invitation = await readInvitation(ctx.query.id);
        const preview: InvitationPreview = {
          domainId: invitation.domainId,
          domainName: await domainName(invitation.domainId),
          email: invitation.email,
          accessLevel: invitation.accessLevel,
          expiresAt: invitation.expiresAt,
          status: statusOf(invitation),
        };
        return ctx.json(preview);
      }),

      acceptInvitation: createAuthEndpoint('/registration/accept', { method: 'POST', body: acceptInvitationInput }, async (ctx) => {
        const input = ctx.body;
        const invitation = await readInvitation(input.invitationId, input.domainId);
        const status = statusOf(invitation);
        if (status === 'used') refuse('GONE', REGISTRATION_ERRORS.invitationUsed, 'this invitation has been used');
        if (status === 'expired') refuse('GONE', REGISTRATION_ERRORS.invitationExpired, 'this invitation has expired');
        const { internalAdapter } = ctx.context;
        const domain = await store.get(onBehalfOf('registration'), `domains/${invitation.domainId}`).catch(() => null);
        const rootDomainId =
          typeof domain?.document.rootDomainId === 'string' && domain.document.rootDomainId !== '' ? domain.document.rootDomainId : invitation.domainId;
        const fields = { accessLevel: invitation.accessLevel, domainId: invitation.domainId, rootDomainId };
        const session = await getSessionFromCtx(ctx);
        let user: RegisteredUser;
        if (session !== null && session.user.isAnonymous !== true) {
          if (session.user.email.toLowerCase() !== invitation.email.toLowerCase())
            refuse('FORBIDDEN', REGISTRATION_ERRORS.invitationOtherAddress, 'this invitation is for another address');
          await leaveCurrentDomain(session.user as unknown as RegisteredUser, invitation.domainId);
          user = (await internalAdapter.updateUser(session.user.id, fields)) as RegisteredUser;
        } else {
          if ((await internalAdapter.findUserByEmail(invitation.email)) !== null)
            refuse('CONFLICT', REGISTRATION_ERRORS.signInToAccept, 'this address has an account: sign in, then accept');
          if (input.name === undefined || input.password === undefined)
            refuse('BAD_REQUEST', REGISTRATION_ERRORS.invalidInput, 'name and password are required');
          if (input.password.length < ctx.context.password.config.minPasswordLength) refuse('BAD_REQUEST', 'PASSWORD_TOO_SHORT', 'Password too short');
          if (input.password.length > ctx.context.password.config.maxPasswordLength) refuse('BAD_REQUEST', 'PASSWORD_TOO_LONG', 'Password too long');
          const hash = await ctx.context.password.hash(input.password);
          // The link came by mail to this address: it is verified.
          user = (await internalAdapter.createUser(
            { email: invitation.email, name: input.name, emailVerified: true, ...fields },
            { method: 'email' },
          )) as RegisteredUser;
          await internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password: hash });
          const created = await internalAdapter.createSession(user.id);
          await setSessionCookie(ctx, { session: created, user: user as never });
        }
        await writeStaff(user, invitation.domainId, invitation.accessLevel).catch(asApiError);
        await store.update(onBehalfOf(user.id), `invitations/${input.invitationId}`, { usedAt: new Date().toISOString() }).catch(asApiError);
        return ctx.json({ userId: user.id, domainId: invitation.domainId });
      }),
    },
    rateLimit: [
      { pathMatcher: (path: string) => path === '/registration/domain' || path === '/registration/accept', window: 60, max: 10 },
      { pathMatcher: (path: string) => path === '/registration/invitations', window: 60, max: 30 },
    ],
  } satisfies BetterAuthPlugin;
}
