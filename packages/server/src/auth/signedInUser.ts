/**
 * From a Better Auth session to what the product works with: the shared `SignedInUser` (GET
 * /api/me) and the request's `Principal` (the server's access checks). Both carry the level in
 * force: 0 while the user's domain requires a second factor the user has not enrolled.
 */
import type { ApiKeyScope } from '@nemuri/shared/integrations';
import { isAccessLevel, ROLE_LEVELS, roleOfLevel, type AccessLevel } from '@nemuri/shared/roles';
import type { EnrolledSecondFactor, LoginProvider, ProviderId, SignedInUser } from '@nemuri/shared/user';
import type { AuthSession } from './auth.ts';

/** Who a request acts for: read it as `request.principal` (principal.ts). */
export interface Principal {
  uid: string;
  accessLevel: AccessLevel;
  domainId: string | null;
  rootDomainId: string | null;
  /** Set when an integration API key acts (integrations/apiKeyPrincipal.ts): its id and scopes. */
  apiKey?: { id: string; scopes: readonly ApiKeyScope[] };
}

/** An account row: how the user can sign in (Better Auth's account table). */
export interface AuthAccount {
  providerId: string;
  accountId: string;
}

/** Enrolled second factors: TOTP once Better Auth's two-factor plugin has it enabled. */
export function secondFactorsOf(user: Pick<AuthSession['user'], 'twoFactorEnabled' | 'secondFactorEnrolledAt'>): EnrolledSecondFactor[] {
  if (user.twoFactorEnabled !== true) return [];
  const at = user.secondFactorEnrolledAt;
  return [{ kind: 'totp', enrolledAt: at ? new Date(at).toISOString() : new Date(0).toISOString() }];
}

/** The assigned level as stored; a value not in the role table rounds down to one that is. */
export function assignedLevel(stored: unknown): AccessLevel {
  if (isAccessLevel(stored)) return stored;
  const level = typeof stored === 'number' && Number.isFinite(stored) ? stored : 0;
  return ROLE_LEVELS[roleOfLevel(level)];
}

/**
 * The level in force: 0 while a second factor is required (secondFactorPolicy.ts, the user's
 * domain settings) and missing, else the assigned one.
 */
export function effectiveLevel(
  user: Pick<AuthSession['user'], 'accessLevel'>,
  secondFactors: readonly EnrolledSecondFactor[],
  secondFactorRequired: boolean,
): AccessLevel {
  if (secondFactors.length === 0 && secondFactorRequired) return ROLE_LEVELS.requestMfa;
  return assignedLevel(user.accessLevel);
}

export function principalOf({ user }: AuthSession, secondFactorRequired: boolean): Principal {
  return {
    uid: user.id,
    accessLevel: effectiveLevel(user, secondFactorsOf(user), secondFactorRequired),
    domainId: user.domainId ?? null,
    rootDomainId: user.rootDomainId ?? null,
  };
}

/** Better Auth's provider id as the specification names it; null for ones it does not know. */
export function providerIdOf(betterAuthProviderId: string): ProviderId | null {
  if (betterAuthProviderId === 'credential') return 'email';
  if (betterAuthProviderId === 'google' || betterAuthProviderId === 'line' || betterAuthProviderId === 'anonymous') return betterAuthProviderId;
  if (/^(saml|oidc)\.[^.]/.test(betterAuthProviderId)) return betterAuthProviderId as `saml.${string}` | `oidc.${string}`;
  return null;
}

export function toSignedInUser(
  { session, user }: AuthSession,
  accounts: readonly AuthAccount[],
  secondFactorRequired: boolean,
  phoneNumber: string | null = null,
): SignedInUser {
  const mfas = secondFactorsOf(user);
  const isAnonymous = user.isAnonymous === true;
  const loginProviders: LoginProvider[] = [];
  for (const account of accounts) {
    const provider = providerIdOf(account.providerId);
    if (provider !== null) loginProviders.push({ provider, uid: account.accountId });
  }
  // An anonymous user has no account row: the session is the only way in.
  if (isAnonymous && loginProviders.length === 0) loginProviders.push({ provider: 'anonymous', uid: user.id });
  return {
    uid: user.id,
    displayName: isAnonymous || user.name === '' ? null : user.name,
    // An anonymous user's address is a placeholder of Better Auth's, not the user's.
    email: isAnonymous ? null : user.email,
    phoneNumber,
    photoURL: user.image ?? null,
    // The way this user signs in: e-mail and password when they have one, else their first provider.
    providerId: isAnonymous ? 'anonymous' : ((loginProviders.find((login) => login.provider === 'email') ?? loginProviders[0])?.provider ?? 'email'),
    isEmailVerified: isAnonymous ? false : user.emailVerified,
    isAnonymous,
    loginProviders,
    accessLevel: effectiveLevel(user, mfas, secondFactorRequired),
    domainId: user.domainId ?? null,
    rootDomainId: user.rootDomainId ?? null,
    singleTimeToken: null,
    mfas,
    signInTime: new Date(session.createdAt).toISOString(),
    secondFactorRequired,
  };
}
