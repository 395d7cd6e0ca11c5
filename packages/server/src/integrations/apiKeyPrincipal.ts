/**
 * A request with `Authorization: Bearer nmk_…` acts for an integration API key (auth/principal.ts
 * calls in here). The key becomes a principal of general-staff level (2) in its own domain, so the
 * document engine and every plugin apply the same tenant scope as for a member of that domain; and
 * it reaches only the routes its scopes grant (API_KEY_ROUTE_GRANTS in shared/integrations.ts):
 * reads of the granted document collections, and the acknowledgement. Every other route (account,
 * sign-in, staff, devices, key management, writes) refuses a key with 403 before its handler runs.
 *
 * Guessing is bounded twice: a secret has 256 random bits, and an address that presents
 * FAILED_KEYS_PER_WINDOW wrong keys within FAILURE_WINDOW_MS is refused with 429 until the window ends.
 */
import type { FastifyRequest } from 'fastify';
import { collectionByGroup, collectionByName } from '@nemuri/shared/documents/collections';
import { parseDocumentPath } from '@nemuri/shared/documents/paths';
import { isPlainObject } from '@nemuri/shared/documents/update';
import { API_KEY_ROUTE_GRANTS, type ApiKeyRouteGrant, type ApiKeyScope } from '@nemuri/shared/integrations';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Principal } from '../auth/signedInUser.ts';
import type { Queryable } from '../database/database.ts';
import { ApiError } from '../http/errors.ts';
import { ApiKeyStore, presentedApiKey } from './apiKeys.ts';

export const FAILED_KEYS_PER_WINDOW = 20;
export const FAILURE_WINDOW_MS = 10 * 60_000;
/** Addresses remembered at once; beyond it the oldest are forgotten (memory stays bounded under a spread attack). */
const MAX_TRACKED_ADDRESSES = 10_000;

/** The uid an API key acts under: never a user's (Better Auth ids have no colon). */
export const apiKeyUid = (keyId: string): string => `apikey:${keyId}`;

/** Wrong keys per client address, in fixed windows. */
export class KeyFailureCounter {
  readonly #failures = new Map<string, { count: number; since: number }>();

  blocked(address: string, now: number): boolean {
    const entry = this.#failures.get(address);
    if (entry === undefined) return false;
    if (now - entry.since >= FAILURE_WINDOW_MS) {
      this.#failures.delete(address);
      return false;
    }
    return entry.count >= FAILED_KEYS_PER_WINDOW;
  }

  fail(address: string, now: number): void {
    const entry = this.#failures.get(address);
    if (entry === undefined || now - entry.since >= FAILURE_WINDOW_MS) {
      if (this.#failures.size >= MAX_TRACKED_ADDRESSES) {
        const oldest = this.#failures.keys().next();
        if (oldest.done !== true) this.#failures.delete(oldest.value);
      }
      this.#failures.set(address, { count: 1, since: now });
    } else entry.count += 1;
  }
}

/** The registry name of the collection a document request touches; null when it names none. */
function documentCollectionOf(request: FastifyRequest, grant: ApiKeyRouteGrant): string | null {
  try {
    if (grant.method === 'GET') {
      const path = decodeURIComponent((request.params as { '*'?: string })['*'] ?? '');
      return parseDocumentPath(path).spec.name;
    }
    const query = isPlainObject(request.body) ? request.body.query : undefined;
    if (!isPlainObject(query) || typeof query.collection !== 'string') return null;
    if (query.collectionGroup === true) return collectionByGroup(query.collection)?.name ?? null;
    // `rooms/r1/sleeps` → `rooms/sleeps`: the collection ids without the document ids between them.
    const name = query.collection
      .split('/')
      .filter((_segment, index) => index % 2 === 0)
      .join('/');
    return collectionByName(name)?.name ?? null;
  } catch {
    return null;
  }
}

/** Whether these scopes open this route (with its method, and for the document API the collection). */
export function scopesAllow(request: FastifyRequest, scopes: readonly ApiKeyScope[]): boolean {
  const route = request.routeOptions.url;
  if (route === undefined) return false;
  return API_KEY_ROUTE_GRANTS.some((grant) => {
    if (grant.method !== request.method || grant.route !== route || !scopes.includes(grant.scope)) return false;
    if (grant.collections === undefined) return true;
    const collection = documentCollectionOf(request, grant);
    return collection !== null && grant.collections.includes(collection);
  });
}

export interface ApiKeyPrincipals {
  /** The principal of the request's API key; undefined when it presents none. Throws 401, 403 or 429. */
  principalOf(request: FastifyRequest): Promise<Principal | undefined>;
}

export function apiKeyPrincipals(database: Queryable, failures = new KeyFailureCounter()): ApiKeyPrincipals {
  const keys = new ApiKeyStore(database);
  return {
    async principalOf(request) {
      const presented = presentedApiKey(request.headers.authorization);
      // Only the API's routes know keys: /metrics stays hidden behind its own token (its 404). A
      // path no API route matches (unmatched, or only the static files' `/*`) is left to the
      // not-found handler: 404 with or without a key, as the API's paths are public
      // (/api/openapi.json) and a 403 there would claim a route that does not exist.
      const route = request.routeOptions.url;
      if (presented === null || !request.url.startsWith('/api/') || route === undefined || !route.startsWith('/api/')) return undefined;
      const now = Date.now();
      if (failures.blocked(request.ip, now)) throw new ApiError(429, 'resource-exhausted', 'Too many wrong API keys from this address; try again later');
      const key = await keys.resolve(presented);
      if (key === null) {
        failures.fail(request.ip, now);
        throw new ApiError(401, 'unauthenticated', 'This API key is unknown or revoked');
      }
      if (!scopesAllow(request, key.scopes)) throw new ApiError(403, 'permission-denied', "This API key's scopes do not allow this request");
      return {
        uid: apiKeyUid(key.id),
        accessLevel: ROLE_LEVELS.generalStaff,
        domainId: key.domainId,
        rootDomainId: key.rootDomainId,
        apiKey: { id: key.id, scopes: key.scopes },
      };
    },
  };
}
