/**
 * The sign-in calls the web app makes to Better Auth under `/api/auth`. Errors come back as an
 * `AuthError` whose `code` picks the Japanese message (`auth.errors.<code>` in the locales).
 */
import { fetchCurrentUser, setCurrentUser } from './session.ts';
import type { SignedInUser } from '@nemuri/shared/user';

export type AuthErrorCode =
  | 'invalidCredentials'
  | 'userExists'
  | 'passwordTooShort'
  | 'passwordTooLong'
  | 'invalidEmail'
  | 'tooManyRequests'
  | 'network'
  | 'unknown';

export class AuthError extends Error {
  constructor(
    readonly code: AuthErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AuthError';
  }
}

/** Better Auth's error codes, and the statuses it answers without one, mapped to ours. */
const SERVER_CODES: Record<string, AuthErrorCode> = {
  INVALID_EMAIL_OR_PASSWORD: 'invalidCredentials',
  INVALID_PASSWORD: 'invalidCredentials',
  USER_NOT_FOUND: 'invalidCredentials',
  USER_ALREADY_EXISTS: 'userExists',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'userExists',
  PASSWORD_TOO_SHORT: 'passwordTooShort',
  PASSWORD_TOO_LONG: 'passwordTooLong',
  INVALID_EMAIL: 'invalidEmail',
};

async function postAuth(path: string, body: Record<string, unknown>): Promise<void> {
  let response: Response;
  try {
    response = await fetch(`/api/auth${path}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new AuthError('network', error instanceof Error ? error.message : String(error));
  }
  if (response.ok) return;
  const payload = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
  if (response.status === 429) throw new AuthError('tooManyRequests', payload.message ?? 'too many requests');
  const known = payload.code ? SERVER_CODES[payload.code] : undefined;
  const code = known ?? (response.status === 401 ? 'invalidCredentials' : 'unknown');
  throw new AuthError(code, payload.message ?? `${path} answered ${response.status}`);
}

async function refreshUser(): Promise<SignedInUser | null> {
  const user = await fetchCurrentUser();
  setCurrentUser(user);
  return user;
}

export async function signInWithEmail(email: string, password: string): Promise<SignedInUser | null> {
  await postAuth('/sign-in/email', { email, password });
  return refreshUser();
}

export async function signUpWithEmail(name: string, email: string, password: string): Promise<SignedInUser | null> {
  await postAuth('/sign-up/email', { name, email, password });
  return refreshUser();
}
