/**
 * The sign-in calls the web app makes to Better Auth under `/api/auth`, sent through the page's HTTP
 * client (lib/http). Errors come back as an `AuthError`, an `ApiError` like every other failed call,
 * whose `code` is ours and picks the Japanese message (`auth.errors.<code>` in the locales);
 * `serverCode` keeps Better Auth's.
 */
import { ApiError } from './http/apiError.ts';
import { http } from './http/httpClient.ts';
import { fetchCurrentUser, setCurrentUser } from './session.ts';
import type { SocialProviderId } from '@nemuri/shared/appInfo';
import type { InvitationPreview, RegisterDomainInput, ReportLinkPreview } from '@nemuri/shared/registration';
// Not from registration.ts: that module's schemas would bring zod to the sign-in page.
import { REGISTRATION_ERRORS, REPORT_LINK_ERRORS } from '@nemuri/shared/registrationErrors';
import type { SignedInUser } from '@nemuri/shared/user';

export type AuthErrorCode =
  | 'invalidCredentials'
  | 'userExists'
  | 'passwordTooShort'
  | 'passwordTooLong'
  | 'invalidEmail'
  | 'invalidToken'
  | 'expiredToken'
  | 'invalidCode'
  | 'challengeExpired'
  | 'accountLocked'
  | 'accountDisabled'
  | 'wrongPassword'
  | 'invitationNotFound'
  | 'invitationUsed'
  | 'invitationExpired'
  | 'invitationOtherAddress'
  | 'signInToAccept'
  | 'lastOwner'
  | 'invalidProvider'
  | 'lastProvider'
  | 'providerFailed'
  | 'sessionNotFresh'
  | 'noPassword'
  | 'sameEmail'
  | 'reportLinkNotFound'
  | 'reportLinkUsed'
  | 'reportLinkExpired'
  | 'reportLinkForViewers'
  | 'tooManyRequests'
  | 'starting'
  | 'network'
  | 'unknown';

export class AuthError extends ApiError {
  declare readonly code: AuthErrorCode;
  /** Better Auth's (or our server's) code, null when the answer had none or none came. */
  readonly serverCode: string | null;

  /** `from`: the failed call, whose status, reason and request id are kept. */
  constructor(code: AuthErrorCode, message: string, from?: ApiError) {
    super({
      status: from?.status ?? 0,
      code,
      reason: from?.reason ?? null,
      message,
      requestId: from?.requestId ?? null,
      retryAfterSeconds: from?.retryAfterSeconds ?? null,
      body: from?.body ?? null,
    });
    this.name = 'AuthError';
    this.serverCode = from === undefined ? null : serverCodeOf(from);
  }
}

/** The code the answer's body named (not the one inferred from the status). */
function serverCodeOf(error: ApiError): string | null {
  const body = error.body;
  return typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'string' ? body.code : null;
}

/** Better Auth's error codes, and the statuses it answers without one, mapped to ours. */
export const SERVER_CODES: Readonly<Record<string, AuthErrorCode>> = {
  INVALID_EMAIL_OR_PASSWORD: 'invalidCredentials',
  INVALID_PASSWORD: 'invalidCredentials',
  USER_NOT_FOUND: 'invalidCredentials',
  USER_ALREADY_EXISTS: 'userExists',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'userExists',
  PASSWORD_TOO_SHORT: 'passwordTooShort',
  PASSWORD_TOO_LONG: 'passwordTooLong',
  INVALID_EMAIL: 'invalidEmail',
  INVALID_TOKEN: 'invalidToken',
  TOKEN_EXPIRED: 'expiredToken',
  INVALID_CODE: 'invalidCode',
  INVALID_BACKUP_CODE: 'invalidCode',
  INVALID_TWO_FACTOR_COOKIE: 'challengeExpired',
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: 'challengeExpired',
  ACCOUNT_TEMPORARILY_LOCKED: 'accountLocked',
  ACCOUNT_DISABLED: 'accountDisabled',
  [REGISTRATION_ERRORS.invitationNotFound]: 'invitationNotFound',
  [REGISTRATION_ERRORS.invitationUsed]: 'invitationUsed',
  [REGISTRATION_ERRORS.invitationExpired]: 'invitationExpired',
  [REGISTRATION_ERRORS.invitationOtherAddress]: 'invitationOtherAddress',
  [REGISTRATION_ERRORS.signInToAccept]: 'signInToAccept',
  [REGISTRATION_ERRORS.lastOwner]: 'lastOwner',
  INVALID_PROVIDER: 'invalidProvider',
  LAST_PROVIDER: 'lastProvider',
  SESSION_NOT_FRESH: 'sessionNotFresh',
  CREDENTIAL_ACCOUNT_NOT_FOUND: 'noPassword',
  EMAIL_IS_THE_SAME: 'sameEmail',
  [REPORT_LINK_ERRORS.notFound]: 'reportLinkNotFound',
  [REPORT_LINK_ERRORS.used]: 'reportLinkUsed',
  [REPORT_LINK_ERRORS.expired]: 'reportLinkExpired',
  [REPORT_LINK_ERRORS.forViewersOnly]: 'reportLinkForViewers',
};

/**
 * A failed call as an AuthError (other errors, e.g. an abort, as they are): our code from the
 * server's by `codes`, else by status.
 */
export function authErrorOf(error: unknown, codes: Readonly<Record<string, AuthErrorCode>> = SERVER_CODES): unknown {
  if (!(error instanceof ApiError) || error instanceof AuthError) return error;
  if (error.isNetworkFailure) return new AuthError('network', error.message, error);
  if (error.status === 429) return new AuthError('tooManyRequests', error.message, error);
  // The server answers 503 at once while it completes its start (migrations, demo data).
  if (error.status === 503) return new AuthError('starting', error.message, error);
  const serverCode = serverCodeOf(error);
  const known = serverCode === null ? undefined : codes[serverCode];
  return new AuthError(known ?? (error.status === 401 ? 'invalidCredentials' : 'unknown'), error.message, error);
}

async function callAuth(method: 'GET' | 'POST', path: string, body?: Record<string, unknown>): Promise<unknown> {
  try {
    return await http.json<unknown>(method, `/api/auth${path}`, body === undefined ? {} : { body });
  } catch (error) {
    throw authErrorOf(error);
  }
}

function postAuth(path: string, body: Record<string, unknown>): Promise<unknown> {
  return callAuth('POST', path, body);
}

function getAuth(path: string): Promise<unknown> {
  return callAuth('GET', path);
}

async function refreshUser(): Promise<SignedInUser | null> {
  const user = await fetchCurrentUser();
  setCurrentUser(user);
  return user;
}

/** Signed in, or a second factor is due (the challenge at /mfaauth) before there is a session. */
export type SignInOutcome = { kind: 'signedIn'; user: SignedInUser | null } | { kind: 'secondFactor' };

export async function signInWithEmail(email: string, password: string): Promise<SignInOutcome> {
  const answer = await postAuth('/sign-in/email', { email, password });
  if (typeof answer === 'object' && answer !== null && 'twoFactorRedirect' in answer && answer.twoFactorRedirect === true) return { kind: 'secondFactor' };
  return { kind: 'signedIn', user: await refreshUser() };
}

export async function signUpWithEmail(name: string, email: string, password: string): Promise<SignedInUser | null> {
  await postAuth('/sign-up/email', { name, email, password });
  return refreshUser();
}

/**
 * Asks for a password-reset mail. The answer is the same whether the address has an account or
 * not; the mail's link opens /handleauth?mode=resetPassword&token=….
 */
export async function requestPasswordReset(email: string): Promise<void> {
  await postAuth('/request-password-reset', { email });
}

/** Sets a new password with the token of a reset mail; every session of the user ends. */
export async function resetPassword(token: string, newPassword: string): Promise<void> {
  await postAuth('/reset-password', { token, newPassword });
}

/** Verifies the address with the token of a verification mail, then reloads the signed-in user. */
export async function verifyEmail(token: string): Promise<void> {
  await getAuth(`/verify-email?token=${encodeURIComponent(token)}`);
  await refreshUser().catch(() => undefined);
}

/** What enabling TOTP gives: the otpauth URI (for the QR code) and backup codes, shown once. */
export interface TotpEnrolment {
  totpURI: string;
  backupCodes: string[];
}

/** Starts TOTP enrolment (the password again); enrolled once `confirmTotp` accepts a first code. */
export async function enableTotp(password: string): Promise<TotpEnrolment> {
  try {
    return (await postAuth('/two-factor/enable', { password })) as TotpEnrolment;
  } catch (error) {
    throw wrongPasswordOf(error);
  }
}

/** Confirms enrolment with a first code. The signed-in user is not reloaded: call `reloadUser` when done. */
export async function confirmTotp(code: string): Promise<void> {
  await postAuth('/two-factor/verify-totp', { code });
}

/** Completes a sign-in that waits for the second factor, with a TOTP code or a backup code. */
export async function completeSecondFactor(code: string, kind: 'totp' | 'backupCode'): Promise<SignedInUser | null> {
  await postAuth(kind === 'totp' ? '/two-factor/verify-totp' : '/two-factor/verify-backup-code', { code });
  return refreshUser();
}

export async function disableTotp(password: string): Promise<SignedInUser | null> {
  try {
    await postAuth('/two-factor/disable', { password });
  } catch (error) {
    throw wrongPasswordOf(error);
  }
  return refreshUser();
}

/** Changes the password; every other session ends. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  try {
    await postAuth('/change-password', { currentPassword, newPassword });
  } catch (error) {
    throw wrongPasswordOf(error);
  }
}

export async function updateDisplayName(name: string): Promise<SignedInUser | null> {
  await postAuth('/update-user', { name });
  return refreshUser();
}

/** Loads the signed-in user again (after enrolment, for instance). */
export function reloadUser(): Promise<SignedInUser | null> {
  return refreshUser();
}

/** Where the password re-entered is wrong, say so (not "wrong address or password"). */
function wrongPasswordOf(error: unknown): unknown {
  return error instanceof AuthError && error.code === 'invalidCredentials' ? new AuthError('wrongPassword', error.message) : error;
}

/** Anonymous sign-in: a level-1 user without a domain or an address. */
export async function signInAnonymously(): Promise<SignedInUser | null> {
  await postAuth('/sign-in/anonymous', {});
  return refreshUser();
}

/** /register: a new root domain with the caller as its owner, signed in at once. */
export async function registerDomain(input: RegisterDomainInput): Promise<SignedInUser | null> {
  await postAuth('/registration/domain', { ...input });
  return refreshUser();
}

/** What an invitation link (/registerUser/:domainId?invitation=…) offers. */
export async function previewInvitation(invitationId: string): Promise<InvitationPreview> {
  return (await getAuth(`/registration/invitation?id=${encodeURIComponent(invitationId)}`)) as InvitationPreview;
}

/** Joins through an invitation: with a name and password, a new account; without, the signed-in one. */
export async function acceptInvitation(input: { invitationId: string; domainId: string; name?: string; password?: string }): Promise<SignedInUser | null> {
  await postAuth('/registration/accept', input);
  return refreshUser();
}

/** An administrator invites someone to a domain by mail. */
export async function createInvitation(input: { email: string; accessLevel: number; domainId?: string }): Promise<{ id: string; expiresAt: string }> {
  return (await postAuth('/registration/invitations', input)) as { id: string; expiresAt: string };
}

/**
 * Starts sign-in with Google or LINE: the browser leaves for the provider and comes back to
 * `callbackPath` signed in (or to /login?error=… when the provider refused).
 */
export async function signInWithProvider(provider: SocialProviderId, callbackPath: string): Promise<void> {
  const answer = (await postAuth('/sign-in/social', { provider, callbackURL: callbackPath, errorCallbackURL: '/login', disableRedirect: true })) as {
    url?: string;
  };
  if (typeof answer.url !== 'string') throw new AuthError('unknown', 'no authorization URL');
  window.location.assign(answer.url);
}

/** Links Google or LINE to the signed-in user: the browser comes back to /link. */
export async function linkProvider(provider: SocialProviderId): Promise<void> {
  const answer = (await postAuth('/link-social', { provider, callbackURL: '/link', errorCallbackURL: '/link', disableRedirect: true })) as { url?: string };
  if (typeof answer.url !== 'string') throw new AuthError('unknown', 'no authorization URL');
  window.location.assign(answer.url);
}

/** A way the signed-in user can sign in (Better Auth's account row). */
export interface LinkedAccount {
  /** Better Auth's id of the link: what unlinking names. */
  id: string;
  /** Better Auth's provider id: `credential`, `google`, `line`, `saml.…`, `oidc.…`. */
  providerId: string;
  /** The user's id at the provider. */
  accountId: string;
  createdAt: string;
}

export async function listLinkedAccounts(): Promise<LinkedAccount[]> {
  return (await getAuth('/list-accounts')) as LinkedAccount[];
}

export async function unlinkAccount(id: string): Promise<SignedInUser | null> {
  await postAuth('/unlink-account', { accountId: id });
  return refreshUser();
}

/** Proves again who the signed-in user is (password), for changes that need a recent sign-in. */
export async function reauthenticate(password: string): Promise<void> {
  try {
    await postAuth('/reauthenticate', { password });
  } catch (error) {
    throw wrongPasswordOf(error);
  }
}

/**
 * A one-time sign-in token (the user's singleTimeToken), valid for a few minutes: a QR code or
 * link with it signs the same user in on another device, once.
 */
export async function issueSingleTimeToken(): Promise<string> {
  const answer = (await getAuth('/one-time-token/generate')) as { token?: string };
  if (typeof answer.token !== 'string') throw new AuthError('unknown', 'no token');
  const user = await fetchCurrentUser();
  setCurrentUser(user === null ? null : { ...user, singleTimeToken: answer.token });
  return answer.token;
}

/** Signs in with a one-time token (from a QR code or link). */
export async function signInWithSingleTimeToken(token: string): Promise<SignedInUser | null> {
  try {
    await postAuth('/one-time-token/verify', { token });
  } catch (error) {
    // Better Auth answers a used, expired or unknown token with a bare 400.
    throw error instanceof AuthError && error.code === 'unknown' ? new AuthError('invalidToken', error.message) : error;
  }
  return refreshUser();
}

/** Mails a confirmation link to the new address (a recent sign-in is needed: `sessionNotFresh`). */
export async function requestEmailChange(newEmail: string): Promise<void> {
  await postAuth('/email/change', { newEmail });
}

/** From the link mailed to the new address: the address changes. */
export async function confirmEmailChange(token: string): Promise<void> {
  await postAuth('/email/confirm', { token });
  await refreshUser();
}

/** From the mail to the old address: the change is taken back and every session ends. */
export async function recoverEmail(token: string): Promise<void> {
  await postAuth('/email/recover', { token });
  setCurrentUser(null);
}

/** What a report link (/register-report-access-user?token=…) offers. */
export async function previewReportLink(token: string): Promise<ReportLinkPreview> {
  return (await getAuth(`/report-access/preview?token=${encodeURIComponent(token)}`)) as ReportLinkPreview;
}

/** Makes the signed-in (usually anonymous) user a viewer of the link's room reports. */
export async function redeemReportLink(token: string): Promise<{ roomId: string }> {
  const answer = (await postAuth('/report-access/redeem', { token })) as { roomId: string };
  await refreshUser();
  return answer;
}

/** An administrator's report link for one room: give it to a family member or doctor. */
export async function createReportLink(roomId: string, validDays?: number): Promise<{ url: string; expiresAt: string }> {
  return (await postAuth('/report-access/links', validDays === undefined ? { roomId } : { roomId, validDays })) as { url: string; expiresAt: string };
}

/**
 * Starts single sign-on with an organisation's identity provider: the provider's sign-in URL. Better
 * Auth answers `INVALID_PROVIDER` (AuthError `invalidProvider`) for an id it does not know; the
 * provider's refusal comes back to `errorCallbackURL` with ?error=….
 */
export async function startSingleSignOn(providerId: string, callbackURL: string, errorCallbackURL: string): Promise<string> {
  const answer = (await postAuth('/sign-in/sso', { providerId, callbackURL, errorCallbackURL })) as { url?: unknown } | null;
  if (typeof answer?.url !== 'string') throw new AuthError('unknown', 'no sign-in URL');
  return answer.url;
}
