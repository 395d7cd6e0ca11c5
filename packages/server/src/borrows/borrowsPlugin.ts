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
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { z } from 'zod/v3';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError, HTTP_STATUS_OF_CODE } from '@nemuri/shared/documents/errors';
import { timestamp } from '@nemuri/shared/documents/types';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Database } from '../database/database.ts';
import { DocumentStore } from '../documents/store.ts';
import { ApiError, type ErrorCode } from '../http/errors.ts';
import type { DeviceRegistry } from '../ingest/deviceRegistry.ts';
import { DeviceLending } from './deviceLending.ts';
import { LendingError } from './lendingError.ts';

export interface BorrowsPluginOptions {
  database: Database;
  /** The ingest's device cache: a lent or returned device belongs to another domain from now on. */
  registry: DeviceRegistry;
}

const NOTE_MAX = 1000;

export const lendBody = z
  .object({
    toDomainId: z.string().min(1).max(200),
    from: timestamp,
    until: timestamp.nullable().optional(),
    note: z.string().max(NOTE_MAX).nullable().optional(),
  })
  .strict();

const returnBody = z.object({}).strict();

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (!parsed.success) {
    throw new LendingError(400, 'invalid-argument', 'invalid-argument', parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '));
  }
  return parsed.data;
}

/** Lending is for agencies (their own devices) and the maker. */
function lender(principal: Claims | null): Claims {
  if (principal === null) throw new ApiError(401, 'unauthenticated', 'Sign in to use the data');
  if (principal.accessLevel < ROLE_LEVELS.agency) throw new LendingError(403, 'permission-denied', 'permission-denied', 'Lending devices needs an agency (level 50) or developer (level 100) account');
  return principal;
}

function replyError(reply: FastifyReply, error: ApiError): FastifyReply {
  const reason = error instanceof LendingError ? error.reason : error.code;
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send({ code: error.code, message: error.message, reason });
}

/** The engine's errors as API errors (same codes and statuses as /api/documents). */
function apiErrorOf(error: DocumentError): ApiError {
  const code: ErrorCode = error.code === 'aborted' ? 'already-exists' : error.code === 'unimplemented' ? 'internal' : error.code;
  return new ApiError(HTTP_STATUS_OF_CODE[error.code], code, error.message);
}

export const borrowsPlugin: FastifyPluginAsync<BorrowsPluginOptions> = async (app, { database, registry }) => {
  const lending = new DeviceLending(new DocumentStore(database, app.log));

  const answer = async <T>(reply: FastifyReply, fn: () => Promise<T>): Promise<T | FastifyReply> => {
    reply.header('cache-control', 'no-store');
    try {
      return await fn();
    } catch (error) {
      const apiError = error instanceof DocumentError ? apiErrorOf(error) : error;
      if (apiError instanceof ApiError) return replyError(reply, apiError);
      throw error;
    }
  };

  app.post<{ Params: { serial: string } }>('/api/devices/:serial/borrows', async (request, reply) =>
    answer(reply, async () => {
      const claims = lender(request.principal);
      const body = parseBody(lendBody, request.body);
      const { serial } = request.params;
      const lent = await lending.lend(claims, serial, body);
      registry.forget(serial);
      request.log.info({ serial, by: claims.uid, toDomainId: body.toDomainId, borrowId: lent.borrowId }, 'device lent');
      return reply.code(201).send(lent);
    }),
  );

  app.post<{ Params: { serial: string; borrowId: string } }>('/api/devices/:serial/borrows/:borrowId/return', async (request, reply) =>
    answer(reply, async () => {
      const claims = lender(request.principal);
      parseBody(returnBody, request.body);
      const { serial, borrowId } = request.params;
      const returned = await lending.giveBack(claims, serial, borrowId);
      registry.forget(serial);
      request.log.info({ serial, by: claims.uid, borrowId }, 'device returned');
      return returned;
    }),
  );

  app.get<{ Params: { serial: string } }>('/api/devices/:serial/borrows', async (request, reply) =>
    answer(reply, async () => ({ borrows: await lending.history(lender(request.principal), request.params.serial) })),
  );
};
