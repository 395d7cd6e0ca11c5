import { useSyncExternalStore } from 'react';
import type { CurrentUserResponse, SignedInUser } from '@nemuri/shared/user';
import { http, type HttpClient } from './http/httpClient.ts';

/**
 * The signed-in user as the web app knows it. It is loaded once at start-up from `GET /api/me`
 * (the backend client) and replaced when the user signs in or out; every screen reads it through
 * `useCurrentUser`.
 */
type Listener = () => void;

let currentUser: SignedInUser | null = null;
const listeners = new Set<Listener>();
const identityListeners = new Set<Listener>();

/** What the server acts on for this user: a change means connections opened earlier act for someone else. */
function identityOf(user: SignedInUser | null): string {
  return user === null ? '' : `${user.uid} ${user.accessLevel} ${user.domainId ?? ''} ${user.rootDomainId ?? ''}`;
}

export function setCurrentUser(user: SignedInUser | null): void {
  const changed = identityOf(user) !== identityOf(currentUser);
  currentUser = user;
  for (const listener of listeners) listener();
  if (changed) for (const listener of identityListeners) listener();
}

/**
 * Called when another user signs in, the user signs out, or their level or domain changes: long-lived
 * connections (the live WebSocket) reconnect to act for the session as it is now.
 */
export function onIdentityChange(listener: Listener): () => void {
  identityListeners.add(listener);
  return () => identityListeners.delete(listener);
}

export function getCurrentUser(): SignedInUser | null {
  return currentUser;
}

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useCurrentUser(): SignedInUser | null {
  return useSyncExternalStore(subscribe, getCurrentUser, getCurrentUser);
}

/**
 * Who is signed in now (`GET /api/me`); a failure is an ApiError (lib/http). At start-up the client
 * is one that takes index.html's early session check (lib/http/earlyAnswer.ts).
 */
export async function fetchCurrentUser(client: HttpClient = http): Promise<SignedInUser | null> {
  return (await client.json<CurrentUserResponse>('GET', '/api/me')).user;
}

/** Ends the session on the server, then forgets the user here. */
export async function signOut(): Promise<void> {
  await http.json('POST', '/api/auth/sign-out', { body: {} });
  setCurrentUser(null);
}
