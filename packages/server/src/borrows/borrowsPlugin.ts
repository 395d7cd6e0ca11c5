/**
 * Device lending (docs/api.md, "Device lending"): the maker, or an agency for its own devices,
 * lends a device to a domain for a period and takes it back.
 *   POST /api/devices/:serial/borrows                   `{ toDomainId, from, until?, note? }` → 201 `{ borrowId, borrow, device }`
 *   POST /api/devices/:serial/borrows/:borrowId/return  `{}` → `{ borrow, device }`
 *   GET  /api/devices/:serial/borrows                   → `{ borrows }` (newest first)
 *
 * The rules (no device lent twice at once, not while retired or in repair, only to an existing
 * domain) live in deviceLending.ts; this file is HTTP: who may call, bodies, and error answers
 * `{ code, message, reason }`.
 */
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod/v3';
import { errorResponses } from '@nemuri/shared/apiErrors';
import { borrowHistorySchema, deviceLentSchema, lendingResultSchema } from '@nemuri/shared/deviceLending';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { timestamp } from '@nemuri/shared/documents/types';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { ApiError, apiErrorOfDocument } from '../http/errors.ts';
import type { ZodTypeProvider } from '../http/zodRouteSchemas.ts';
import { DeviceLending } from './deviceLending.ts';
import { LendingError } from './lendingError.ts';

const NOTE_MAX = 1000;

const lendBody = z
  .object({
    toDomainId: z.string().min(1).max(200),
    from: timestamp,
    until: timestamp.nullable().optional(),
    note: z.string().max(NOTE_MAX).nullable().optional(),
  })
  .strict();

const returnBody = z.object({}).strict();
const deviceParams = z.object({ serial: z.string() });
const borrowParams = deviceParams.extend({ borrowId: z.string() });

/** Lending is for agencies (their own devices) and the maker. */
function lender(principal: Claims | null): Claims {
  if (principal === null) throw new ApiError(401, 'unauthenticated', 'Sign in to use the data');
  if (principal.accessLevel < ROLE_LEVELS.agency)
    throw new LendingError(403, 'permission-denied', 'permission-denied', 'Lending devices needs an agency (level 50) or developer (level 100) account');
  return principal;
}

function replyError(reply: FastifyReply, error: ApiError): FastifyReply {
  const reason = error instanceof LendingError ? error.reason : error.code;
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send({ code: error.code, message: error.message, reason });
}

export const borrowsPlugin = fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const registry = app.devices.registry;
    const lending = new DeviceLending(app.documents);

    const answer = async <T>(reply: FastifyReply, fn: () => Promise<T>): Promise<T | FastifyReply> => {
      reply.header('cache-control', 'no-store');
      try {
        return await fn();
      } catch (error) {
        const apiError = error instanceof DocumentError ? apiErrorOfDocument(error) : error;
        if (apiError instanceof ApiError) return replyError(reply, apiError);
        throw error;
      }
    };

    app.post(
      '/api/devices/:serial/borrows',
      {
        schema: {
          summary: 'Lends a device to a domain',
          params: deviceParams,
          body: lendBody,
          response: { 201: deviceLentSchema, ...errorResponses(400, 401, 403, 404, 409, 412) },
        },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const claims = lender(request.principal);
          const body = request.body;
          const { serial } = request.params;
          const lent = await lending.lend(claims, serial, body);
          registry.forget(serial);
          request.log.info({ serial, by: claims.uid, toDomainId: body.toDomainId, borrowId: lent.borrowId }, 'device lent');
          return reply.code(201).send(lent);
        }),
    );

    app.post(
      '/api/devices/:serial/borrows/:borrowId/return',
      {
        schema: {
          summary: 'Takes a lent device back',
          params: borrowParams,
          body: returnBody,
          response: { 200: lendingResultSchema, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const claims = lender(request.principal);
          const { serial, borrowId } = request.params;
          const returned = await lending.giveBack(claims, serial, borrowId);
          registry.forget(serial);
          request.log.info({ serial, by: claims.uid, borrowId }, 'device returned');
          return returned;
        }),
    );

    app.get(
      '/api/devices/:serial/borrows',
      {
        schema: { summary: "A device's borrows, newest first", params: deviceParams, response: { 200: borrowHistorySchema, ...errorResponses(401, 403, 404) } },
      },
      async (request, reply) => answer(reply, async () => ({ borrows: await lending.history(lender(request.principal), request.params.serial) })),
    );
  },
  { name: 'borrows', dependencies: ['documents', 'devices', 'principal'], encapsulate: true },
);
