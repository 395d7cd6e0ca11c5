/**
 * The calls /account-info makes beyond lib/authClient.ts: the profile fields our server keeps
 * (server account/accountPlugin.ts) and Better Auth's session list, through the page's HTTP client.
 * Failures come back as `AuthError` (an ApiError with the codes of lib/authClient.ts); a refused
 * phone number or photo carries the server's `reason` (one of ACCOUNT_PROFILE_ERRORS).
 */
import type { AccountProfile } from '@nemuri/shared/accountProfile';
import { authErrorOf, type AuthErrorCode } from '../../../lib/authClient.ts';
import { http, type HttpMethod } from '../../../lib/http/httpClient.ts';

/** The photo chosen cannot be used (checked here before sending); `reason` is one of ACCOUNT_PROFILE_ERRORS. */
export class ProfileInputError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'ProfileInputError';
  }
}

/** Better Auth's codes on these calls, mapped to ours. */
const AUTH_CODES: Record<string, AuthErrorCode> = {
  INVALID_PASSWORD: 'wrongPassword',
  PASSWORD_TOO_SHORT: 'passwordTooShort',
  PASSWORD_TOO_LONG: 'passwordTooLong',
  SESSION_NOT_FRESH: 'sessionNotFresh',
  CREDENTIAL_ACCOUNT_NOT_FOUND: 'noPassword',
};

async function call<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
  try {
    return await http.json<T>(method, url, { body });
  } catch (error) {
    throw authErrorOf(error, AUTH_CODES);
  }
}

export function fetchProfile(): Promise<AccountProfile> {
  return call('GET', '/api/account/profile');
}

/** null or '' removes the number. */
export function savePhoneNumber(phoneNumber: string | null): Promise<AccountProfile> {
  return call('PUT', '/api/account/profile/phone', { phoneNumber });
}

export function savePhoto(dataUrl: string): Promise<AccountProfile> {
  return call('PUT', '/api/account/profile/photo', { dataUrl });
}

export function removePhoto(): Promise<AccountProfile> {
  return call('DELETE', '/api/account/profile/photo');
}

/**
 * Changes the password and ends every other session (the server insists on the latter too), so a
 * password someone else learnt stops working everywhere at once.
 */
export async function changePasswordEverywhere(currentPassword: string, newPassword: string): Promise<void> {
  await call('POST', '/api/auth/change-password', { currentPassword, newPassword, revokeOtherSessions: true });
}

/** A signed-in session of the user (Better Auth's session row). */
export interface AccountSession {
  id: string;
  token: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
}

/** The user's sessions, newest activity first, and which one is this browser's. */
export async function listSessions(): Promise<{ sessions: AccountSession[]; currentId: string | null }> {
  const [sessions, current] = await Promise.all([
    call<AccountSession[]>('GET', '/api/auth/list-sessions'),
    call<{ session?: { id?: string } } | null>('GET', '/api/auth/get-session'),
  ]);
  const sorted = [...sessions].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt));
  return { sessions: sorted, currentId: current?.session?.id ?? null };
}

export async function revokeSession(token: string): Promise<void> {
  await call('POST', '/api/auth/revoke-session', { token });
}

export async function revokeOtherSessions(): Promise<void> {
  await call('POST', '/api/auth/revoke-other-sessions', {});
}
