/**
 * Enterprise single sign-on (PRODUCT.md section 7): Better Auth's SSO plugin (SAML 2.0 and OpenID
 * Connect), with the product's rules put in front of it.
 *   - Provider ids are `saml.<name>` (a SAML identity provider) or `oidc.<name>` (an OpenID
 *     provider); the name is what a user types on /sso, and the id is what /api/me lists in
 *     `loginProviders`.
 *   - A provider belongs to one root domain (its `rootDomainId`, an additional field of the
 *     plugin's `ssoProvider` table). A privilege administrator (level 4 and above) registers,
 *     updates and deletes providers of their own root domain; a developer (100 and above) of any.
 *   - Someone signing in through a provider for the first time becomes general staff (level 2)
 *     of the provider's root domain: the user's level and domain are set, and a staff record is
 *     written through the document engine, as registration does. Signing in again does not
 *     change a user who belongs to a domain.
 * Endpoints are the plugin's (under /api/auth): POST /sso/register, /sso/update-provider,
 * /sso/delete-provider, GET /sso/providers; POST /sign-in/sso {providerId, callbackURL};
 * GET /sso/callback/:providerId (OIDC); POST /sso/saml2/sp/acs/:providerId (SAML ACS);
 * GET /sso/saml2/sp/metadata?providerId=… (the SP metadata an IdP administrator imports).
 */
import { sso, type SSOOptions } from '@better-auth/sso';
import { APIError, createAuthMiddleware, getSessionFromCtx } from 'better-auth/api';
import { getCurrentAuthContext } from '@better-auth/core/context';
import type { BetterAuthPlugin } from '@better-auth/core';
import type { Claims } from '@nemuri/shared/documents/access';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Database } from '../database/database.ts';
import type { DocumentStore } from '../documents/store.ts';
import { PROVIDER_ERRORS } from './providerLinks.ts';
import { claimsOfAuthUser, type AuthUserFields, type SecondFactorPolicy } from './secondFactorPolicy.ts';

/** `saml.` or `oidc.`, then a name that is safe in a URL path (it appears in /sso/:samlid and the callback paths). */
export const SSO_PROVIDER_ID = /^(saml|oidc)\.[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;

export const SSO_ERRORS = {
  invalidProviderId: { code: 'INVALID_SSO_PROVIDER_ID', message: 'an SSO provider id begins with "saml." or "oidc." followed by letters, digits, "-" or "_"' },
  protocolMismatch: { code: 'SSO_PROTOCOL_MISMATCH', message: 'a "saml." provider needs samlConfig, an "oidc." provider needs oidcConfig' },
  notAllowed: { code: 'SSO_NOT_ALLOWED', message: 'only a privilege administrator (level 4) may manage the SSO providers of their root domain' },
  noDomain: { code: 'SSO_UNKNOWN_DOMAIN', message: 'no such root domain' },
} as const;

/** The level new users of a provider get: general staff. */
export const SSO_USER_LEVEL = ROLE_LEVELS.generalStaff;

const MANAGE_PATHS = new Set(['/sso/register', '/sso/update-provider', '/sso/delete-provider']);

export interface EnterpriseSsoOptions {
  database: Database;
  /** The app's document store: provisioned users' staff records are written through it. */
  documents: DocumentStore;
  secondFactor: SecondFactorPolicy;
  log?: { warn(details: object, message: string): void; error(details: object, message: string): void };
}

const refuse = (status: 'BAD_REQUEST' | 'FORBIDDEN' | 'NOT_FOUND' | 'UNAUTHORIZED', error: { code: string; message: string }): never => {
  throw new APIError(status, { ...error });
};

const bodyOf = (ctx: { body?: unknown }): Record<string, unknown> =>
  typeof ctx.body === 'object' && ctx.body !== null ? (ctx.body as Record<string, unknown>) : {};

export function enterpriseSso({ database, documents: store, secondFactor, log }: EnterpriseSsoOptions) {
  const onBehalfOf = (uid: string): Claims => ({ uid, accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null });

  const domainExists = async (domainId: string) => (await database.query('select 1 from documents where path = $1', [`domains/${domainId}`])).rows.length > 0;

  /** Throws unless `user` may manage the providers of `rootDomainId`. */
  const checkManager = async (user: AuthUserFields, rootDomainId: string): Promise<void> => {
    const level = (await claimsOfAuthUser(user, secondFactor)).accessLevel;
    const own = level >= ROLE_LEVELS.privilegeAdministrator && rootDomainId === user.rootDomainId;
    if (own) return;
    if (level < ROLE_LEVELS.developer) refuse('FORBIDDEN', SSO_ERRORS.notAllowed);
    // A developer names the root domain: it must be one.
    if (!(await domainExists(rootDomainId))) refuse('BAD_REQUEST', SSO_ERRORS.noDomain);
  };

  const findProvider = async (
    ctx: { context: { adapter: { findOne<T>(query: { model: string; where: { field: string; value: string }[] }): Promise<T | null> } } },
    providerId: string,
  ) =>
    ctx.context.adapter.findOne<{ providerId: string; rootDomainId?: string | null }>({
      model: 'ssoProvider',
      where: [{ field: 'providerId', value: providerId }],
    });

  const options = {
    schema: { ssoProvider: { additionalFields: { rootDomainId: { type: 'string', required: false, input: true } } } },
    providersLimit: 50,
    // Also on later sign-ins, for a user whose first provisioning did not finish; a user who
    // belongs to a domain already is left as their administrators set them.
    provisionUserOnEveryLogin: true,
    async provisionUser({ user, provider }) {
      if (typeof user.rootDomainId === 'string' && user.rootDomainId !== '') return;
      const rootDomainId = (provider as { rootDomainId?: unknown }).rootDomainId;
      if (typeof rootDomainId !== 'string' || rootDomainId === '') {
        log?.warn({ providerId: provider.providerId }, 'SSO provider belongs to no root domain: its new user stays without a domain');
        return;
      }
      // The staff record first: should it fail, the user has no domain yet and the next sign-in tries again.
      await store.set(
        onBehalfOf(user.id),
        `domains/${rootDomainId}/staff/${user.id}`,
        { displayName: user.name, email: user.email, accessLevel: SSO_USER_LEVEL },
        false,
      );
      const fields = { accessLevel: SSO_USER_LEVEL, domainId: rootDomainId, rootDomainId };
      const { context } = await getCurrentAuthContext();
      await context.internalAdapter.updateUser(user.id, fields);
      // The session cookie is written from this object after provisioning.
      Object.assign(user, fields);
    },
  } satisfies SSOOptions;

  const plugin = sso(options);
  // Its declared type leaves out the hooks it has (SAML single logout, organisation assignment).
  const pluginHooks = (plugin as unknown as { hooks: Required<NonNullable<BetterAuthPlugin['hooks']>> }).hooks;

  const guard = createAuthMiddleware(async (ctx) => {
    const body = bodyOf(ctx);
    if (ctx.path === '/sign-in/sso') {
      // Sign-in names the provider: the organisation id the user typed on /sso.
      const providerId = body.providerId;
      if (typeof providerId !== 'string' || !SSO_PROVIDER_ID.test(providerId)) return refuse('BAD_REQUEST', PROVIDER_ERRORS.invalidProvider);
      if ((await findProvider(ctx, providerId)) === null) refuse('NOT_FOUND', PROVIDER_ERRORS.invalidProvider);
      return;
    }
    const session = await getSessionFromCtx(ctx);
    if (session === null) throw new APIError('UNAUTHORIZED');
    const user = session.user as AuthUserFields;
    const providerId = body.providerId;
    if (ctx.path === '/sso/register') {
      if (typeof providerId !== 'string' || !SSO_PROVIDER_ID.test(providerId)) return refuse('BAD_REQUEST', SSO_ERRORS.invalidProviderId);
      const protocol = providerId.slice(0, providerId.indexOf('.'));
      if (
        (protocol === 'saml' && body.samlConfig === undefined) ||
        (protocol === 'oidc' && body.oidcConfig === undefined) ||
        (body.samlConfig !== undefined && body.oidcConfig !== undefined)
      ) {
        refuse('BAD_REQUEST', SSO_ERRORS.protocolMismatch);
      }
      const requested = body.rootDomainId;
      const rootDomainId = typeof requested === 'string' && requested !== '' ? requested : user.rootDomainId;
      if (typeof rootDomainId !== 'string' || rootDomainId === '') return refuse('FORBIDDEN', SSO_ERRORS.notAllowed);
      await checkManager(user, rootDomainId);
      return { context: { ...ctx, body: { ...body, rootDomainId } } };
    }
    // Updating or deleting: the provider's own root domain decides, and so does a new one.
    if (typeof providerId !== 'string') return;
    const existing = await findProvider(ctx, providerId);
    if (existing === null) return;
    await checkManager(user, existing.rootDomainId ?? '');
    if (ctx.path === '/sso/update-provider' && typeof body.rootDomainId === 'string' && body.rootDomainId !== existing.rootDomainId)
      await checkManager(user, body.rootDomainId);
    return;
  });

  return {
    ...plugin,
    hooks: {
      ...pluginHooks,
      before: [
        ...pluginHooks.before,
        { matcher: (context: { path?: string }) => context.path === '/sign-in/sso' || MANAGE_PATHS.has(context.path ?? ''), handler: guard },
      ],
    },
  } satisfies BetterAuthPlugin;
}
