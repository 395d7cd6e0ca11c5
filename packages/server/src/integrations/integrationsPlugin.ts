/**
 * Integrations (issue 22; docs/api.md, "Integrations"):
 *   GET  /api/integrations/domains/:domainId/api-keys?page=     the domain's keys, newest first, paged
 *   POST /api/integrations/domains/:domainId/api-keys            `{ name, scopes }` → `{ key, secret }` (secret shown once)
 *   POST /api/integrations/domains/:domainId/api-keys/:keyId/revoke
 *   POST /api/integrations/alerts/:alertId/acknowledge          staff (2+) or a key with `alerts.acknowledge`
 *   GET  /api/fhir/rooms/:roomId/Observation?from=&to=           FHIR R4 Bundle of the nights' Observations
 *
 * Keys are managed by the facility administrators (levels 3-5) of a domain in their scope (the
 * document engine's scope for `domains/<id>`), from a signed-in session only: a key never manages
 * keys (its route grants exclude these routes, and the handlers check again). Out of scope answers
 * like missing (404).
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod/v3';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { errorResponses } from '@nemuri/shared/apiErrors';
import {
  ALERT_ACKNOWLEDGE_ROUTE,
  alertAcknowledgedResponseSchema,
  apiKeyCreatedResponseSchema,
  apiKeyCreateSchema,
  apiKeyListQuerySchema,
  apiKeyListResponseSchema,
  apiKeyRevokedResponseSchema,
  API_KEY_PAGE_SIZE,
  FHIR_ROOM_OBSERVATIONS_ROUTE,
  fhirObservationQuerySchema,
  MAX_ACTIVE_KEYS_PER_DOMAIN,
  type ApiKeyCreatedResponse,
  type ApiKeyListResponse,
  type ApiKeyView,
} from '@nemuri/shared/integrations';
import { fhirBundleSchema } from '@nemuri/shared/fhir';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Principal } from '../auth/signedInUser.ts';
import { ApiError } from '../http/errors.ts';
import type { ZodTypeProvider } from '../http/zodRouteSchemas.ts';
import { acknowledgeAlert } from '../monitoring/acknowledgeAlert.ts';
import { ApiKeyStore } from './apiKeys.ts';
import { observationBundle, type SleepRecord } from './fhir.ts';

const ID = /^[^/\s]{1,200}$/;
const KEY_ID = /^[A-Za-z0-9]{16}$/;
const DAY_MS = 86_400_000;

function signedIn(request: FastifyRequest): Principal {
  if (request.principal === null) throw new ApiError(401, 'unauthenticated', 'Sign in or present an API key');
  return request.principal;
}

/** The days from `from` to `to`, both included (the query schema bounds them to FHIR_MAX_NIGHTS). */
function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += DAY_MS) days.push(new Date(at).toISOString().slice(0, 10));
  return days;
}

const domainParams = z.object({ domainId: z.string() });
const keyParams = domainParams.extend({ keyId: z.string() });
const alertParams = z.object({ alertId: z.string() });

export const integrationsPlugin = fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { database } = app;
    const store = app.documents;
    const keys = new ApiKeyStore(database);

    /** The record as the caller may see it; null when absent or out of their scope (answered as missing). */
    const visible = async (claims: Claims, path: string): Promise<Record<string, unknown> | null> => {
      try {
        return (await store.get(claims, path))?.document ?? null;
      } catch (error) {
        if (error instanceof DocumentError && (error.code === 'permission-denied' || error.code === 'not-found' || error.code === 'invalid-argument'))
          return null;
        throw error;
      }
    };

    /** A facility administrator's domain, for key management; 404 when out of their scope. */
    const managedDomain = async (request: FastifyRequest, domainId: string): Promise<{ principal: Principal; domain: Record<string, unknown> }> => {
      const principal = signedIn(request);
      if (principal.apiKey !== undefined) throw new ApiError(403, 'permission-denied', 'API keys are managed by signed-in administrators');
      if (principal.accessLevel < ROLE_LEVELS.administrator || principal.accessLevel > ROLE_LEVELS.ownerAdministrator) {
        throw new ApiError(403, 'permission-denied', "API keys are managed by the facility's administrators (levels 3-5)");
      }
      const domain = ID.test(domainId) ? await visible(principal, `domains/${domainId}`) : null;
      if (domain === null) throw new ApiError(404, 'not-found', `No domain ${domainId}`);
      return { principal, domain };
    };

    app.get(
      '/api/integrations/domains/:domainId/api-keys',
      {
        schema: {
          summary: "A domain's integration API keys (no secrets)",
          params: domainParams,
          querystring: apiKeyListQuerySchema,
          response: { 200: apiKeyListResponseSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request): Promise<ApiKeyListResponse> => {
        await managedDomain(request, request.params.domainId);
        const { page } = request.query;
        const { keys: list, total } = await keys.list(request.params.domainId, page);
        return { keys: list, total, page, pageSize: API_KEY_PAGE_SIZE };
      },
    );

    app.post(
      '/api/integrations/domains/:domainId/api-keys',
      {
        schema: {
          summary: 'Creates an integration API key; its secret is shown once',
          params: domainParams,
          body: apiKeyCreateSchema,
          response: { 201: apiKeyCreatedResponseSchema, ...errorResponses(400, 401, 403, 404, 412) },
        },
      },
      async (request, reply): Promise<ApiKeyCreatedResponse> => {
        const { principal, domain } = await managedDomain(request, request.params.domainId);
        const input = request.body;
        const domainId = request.params.domainId;
        const rootDomainId = typeof domain.rootDomainId === 'string' && domain.rootDomainId !== '' ? domain.rootDomainId : domainId;
        const created = await keys.create({ domainId, rootDomainId, name: input.name, scopes: input.scopes, createdBy: principal.uid });
        if (created === null)
          throw new ApiError(412, 'failed-precondition', `A domain holds at most ${MAX_ACTIVE_KEYS_PER_DOMAIN} active API keys; revoke one first`);
        request.log.info({ keyId: created.key.id, domainId, scopes: created.key.scopes, by: principal.uid }, 'integrations: API key created');
        reply.code(201);
        return created;
      },
    );

    app.post(
      '/api/integrations/domains/:domainId/api-keys/:keyId/revoke',
      {
        schema: {
          summary: 'Revokes an integration API key (at once, for good)',
          params: keyParams,
          response: { 200: apiKeyRevokedResponseSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request): Promise<{ key: ApiKeyView }> => {
        const { principal } = await managedDomain(request, request.params.domainId);
        const revoked = KEY_ID.test(request.params.keyId) ? await keys.revoke(request.params.domainId, request.params.keyId) : null;
        if (revoked === null) throw new ApiError(404, 'not-found', `No API key ${request.params.keyId} in domain ${request.params.domainId}`);
        request.log.info({ keyId: revoked.id, domainId: revoked.domainId, by: principal.uid }, 'integrations: API key revoked');
        return { key: revoked };
      },
    );

    app.post(
      ALERT_ACKNOWLEDGE_ROUTE,
      {
        schema: {
          summary: 'Acknowledges an alert (API key scope alerts.acknowledge); twice keeps the first',
          params: alertParams,
          response: { 200: alertAcknowledgedResponseSchema, ...errorResponses(401, 403, 404) },
        },
      },
      async (request): Promise<{ alertId: string; acknowledgedAt: string; acknowledgedBy: string }> => {
        const principal = signedIn(request);
        const { alertId } = request.params;
        const path = `alerts/${alertId}`;
        const missing = new ApiError(404, 'not-found', `No alert ${alertId}`);
        const alert = ID.test(alertId) ? await visible(principal, path) : null;
        if (alert === null) throw missing;
        // Acknowledging twice keeps the first person and time.
        try {
          return { alertId, ...(await acknowledgeAlert(store, principal, alertId)) };
        } catch (error) {
          if (error instanceof DocumentError && error.code === 'permission-denied')
            throw new ApiError(403, 'permission-denied', "Acknowledging alerts needs the alert's own facility staff (level 2 to 5)");
          if (error instanceof DocumentError && error.code === 'not-found') throw missing;
          throw error;
        }
      },
    );

    app.get(
      FHIR_ROOM_OBSERVATIONS_ROUTE,
      {
        schema: {
          summary: "HL7 FHIR R4 Bundle of a room's nightly Observations (API key scope rooms.read)",
          params: z.object({ roomId: z.string() }),
          querystring: fhirObservationQuerySchema,
          response: { 200: fhirBundleSchema, ...errorResponses(400, 401, 403, 404, 429) },
        },
        config: { fairShare: 'download' },
      },
      async (request, reply) => {
        const principal = signedIn(request);
        const { roomId } = request.params;
        const { from, to } = request.query;
        const room = ID.test(roomId) ? await visible(principal, `rooms/${roomId}`) : null;
        if (room === null) throw new ApiError(404, 'not-found', `No room ${roomId}`);
        const records: SleepRecord[] = [];
        for (const day of daysBetween(from, to)) {
          const sleep = await visible(principal, `rooms/${roomId}/sleeps/${day}`);
          if (sleep !== null) records.push({ ...(sleep as Omit<SleepRecord, 'day'>), day });
        }
        reply.type('application/fhir+json; charset=utf-8');
        return observationBundle({ id: roomId, name: typeof room.name === 'string' ? room.name : roomId }, records, new Date());
      },
    );
  },
  { name: 'integrations', dependencies: ['documents', 'principal'], encapsulate: true },
);
