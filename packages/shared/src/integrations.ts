/**
 * API keys for integrations (issue 22): care-record software or nurse-call middleware reads a
 * domain's rooms, sleep records and alerts, and acknowledges alerts, with a key instead of a
 * signed-in browser. A key belongs to one domain and acts there as a principal with these scopes
 * only (server integrations/apiKeys.ts); the routes a scope opens are listed here, once, and every
 * other route refuses a key.
 */
import { z } from 'zod/v3';
import { ALERT_HISTORY_PATH } from './alertHistory.ts';
import { MONITORING_ROOMS_PATH } from './monitoring.ts';

export const API_KEY_SCOPES = ['rooms.read', 'alerts.read', 'alerts.acknowledge'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** `Authorization: Bearer nmk_<key id>_<secret>`; the secret is 256 random bits, base64url. */
export const API_KEY_PREFIX = 'nmk_';
export const API_KEY_PATTERN = /^nmk_([A-Za-z0-9]{16})_([A-Za-z0-9_-]{43})$/;

/** Active keys a domain may hold at once: enough for its systems, few enough to review. */
export const MAX_ACTIVE_KEYS_PER_DOMAIN = 20;
export const API_KEY_PAGE_SIZE = 20;

export const apiKeyCreateSchema = z
  .object({
    name: z.string().trim().min(1).max(80),
    scopes: z.array(z.enum(API_KEY_SCOPES)).min(1).max(API_KEY_SCOPES.length),
  })
  .strict();
export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

export const apiKeyListQuerySchema = z
  .object({
    /** Page of API_KEY_PAGE_SIZE keys, newest first. */
    page: z.coerce.number().int().min(0).max(10_000).default(0),
  })
  .strict();

/** A key as listed: never its secret (server integrations/apiKeys.ts). */
export const apiKeyViewSchema = z
  .object({
    id: z.string(),
    domainId: z.string(),
    name: z.string(),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    createdBy: z.string(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .strict();
export type ApiKeyView = z.infer<typeof apiKeyViewSchema>;

export const apiKeyListResponseSchema = z
  .object({
    keys: z.array(apiKeyViewSchema),
    /** Keys of the domain in all, revoked ones included. */
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  })
  .strict();
export type ApiKeyListResponse = z.infer<typeof apiKeyListResponseSchema>;

/** The only answer that holds the whole key: it is not stored and cannot be shown again. */
export const apiKeyCreatedResponseSchema = z.object({ key: apiKeyViewSchema, secret: z.string() }).strict();
export type ApiKeyCreatedResponse = z.infer<typeof apiKeyCreatedResponseSchema>;

/** POST …/api-keys/:keyId/revoke: the key with `revokedAt` set. */
export const apiKeyRevokedResponseSchema = z.object({ key: apiKeyViewSchema }).strict();

/** POST /api/integrations/alerts/:alertId/acknowledge: who acknowledged it first, and when. */
export const alertAcknowledgedResponseSchema = z.object({ alertId: z.string(), acknowledgedAt: z.string(), acknowledgedBy: z.string() }).strict();

export const apiKeysPath = (domainId: string): string => `/api/integrations/domains/${encodeURIComponent(domainId)}/api-keys`;
export const apiKeyRevokePath = (domainId: string, keyId: string): string => `${apiKeysPath(domainId)}/${encodeURIComponent(keyId)}/revoke`;

export const ALERT_ACKNOWLEDGE_ROUTE = '/api/integrations/alerts/:alertId/acknowledge';
export const alertAcknowledgePath = (alertId: string): string => `/api/integrations/alerts/${encodeURIComponent(alertId)}/acknowledge`;

/** FHIR R4 export of a room's nightly results (server integrations/fhir.ts). */
export const FHIR_ROOM_OBSERVATIONS_ROUTE = '/api/fhir/rooms/:roomId/Observation';
export const fhirRoomObservationsPath = (roomId: string): string => `/api/fhir/rooms/${encodeURIComponent(roomId)}/Observation`;

/** Nights one export covers at most: a month, one bounded read. */
export const FHIR_MAX_NIGHTS = 31;

export const fhirObservationQuerySchema = z
  .object({
    from: z.string().regex(/^\d{4}-\d\d-\d\d$/, 'must be YYYY-MM-DD'),
    to: z.string().regex(/^\d{4}-\d\d-\d\d$/, 'must be YYYY-MM-DD'),
  })
  .strict()
  .refine(({ from, to }) => from <= to, { message: 'from must not be after to', path: ['to'] })
  .refine(({ from, to }) => (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 < FHIR_MAX_NIGHTS, {
    message: `at most ${FHIR_MAX_NIGHTS} nights`,
    path: ['to'],
  });

/**
 * What a key may call: a route (Fastify's pattern) and method, and the scope it needs. For the
 * document API, `collections` names the document collections (registry names) the scope reads;
 * a key never writes through it.
 */
export interface ApiKeyRouteGrant {
  method: 'GET' | 'POST';
  route: string;
  scope: ApiKeyScope;
  collections?: readonly string[];
}

export const API_KEY_ROUTE_GRANTS: readonly ApiKeyRouteGrant[] = [
  { method: 'GET', route: '/api/documents/*', scope: 'rooms.read', collections: ['rooms', 'rooms/sleeps'] },
  { method: 'POST', route: '/api/documents/query', scope: 'rooms.read', collections: ['rooms', 'rooms/sleeps'] },
  { method: 'POST', route: '/api/documents/count', scope: 'rooms.read', collections: ['rooms', 'rooms/sleeps'] },
  { method: 'GET', route: '/api/documents/*', scope: 'alerts.read', collections: ['alerts'] },
  { method: 'POST', route: '/api/documents/query', scope: 'alerts.read', collections: ['alerts'] },
  { method: 'POST', route: '/api/documents/count', scope: 'alerts.read', collections: ['alerts'] },
  { method: 'GET', route: MONITORING_ROOMS_PATH, scope: 'rooms.read' },
  { method: 'GET', route: FHIR_ROOM_OBSERVATIONS_ROUTE, scope: 'rooms.read' },
  { method: 'GET', route: ALERT_HISTORY_PATH, scope: 'alerts.read' },
  { method: 'POST', route: ALERT_ACKNOWLEDGE_ROUTE, scope: 'alerts.acknowledge' },
];
