/**
 * The calls /account-info makes beyond lib/authClient.ts: the profile fields our server keeps
 * (server account/accountPlugin.ts) and Better Auth's session list. Failures come back as
 * `AuthError` (codes of lib/authClient.ts) or, for refused profile input, `ProfileInputError`.
 */
import type { AccountProfile } from '@nemuri/shared/accountProfile';
import { AuthError, type AuthErrorCode } from '../../lib/authClient.ts';

/** The server refused a phone number or a photo; `reason` is one of ACCOUNT_PROFILE_ERRORS. */
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

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    throw new AuthError('network', error instanceof Error ? error.message : String(error));
  }
  const payload = (await response.json().catch(() => null)) as (T & { code?: string; reason?: string; message?: string }) | null;
  if (response.ok) return payload as T;
  const message = payload?.message ?? `${url} answered ${response.status}`;
  if (typeof payload?.reason === 'string') throw new ProfileInputError(payload.reason, message);
  if (response.status === 429) throw new AuthError('tooManyRequests', message);
  const known = payload?.code === undefined ? undefined : AUTH_CODES[payload.code];
  throw new AuthError(known ?? (response.status === 401 ? 'invalidCredentials' : 'unknown'), message);
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
