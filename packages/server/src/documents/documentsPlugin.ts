/**
 * The document engine over HTTP, under /api/documents (docs/api.md, "Documents"):
 *   GET    /api/documents/<document path>            read → `{ document, version }`
 *   PUT    /api/documents/<document path>            set `{ data, merge? }`
 *   PATCH  /api/documents/<document path>            partial update `{ data }` (field paths)
 *   DELETE /api/documents/<document path>            delete
 *   POST   /api/documents/query                      `{ query }` → `{ documents }`
 *   POST   /api/documents/count                      `{ query }` → `{ count }`
 *   POST   /api/documents/lookup                     `{ collection, field, value }` → `{ document }`
 *   POST   /api/documents/commit                     `{ reads, writes }` (transactions) → `{}`
 * Every call acts for `request.principal` (401 signed out, 403 outside the caller's scope).
 * Errors answer `{ code, message }` with the specification's codes, plus `issues` for schema
 * failures.
 */
import type { FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { ZodTypeAny } from 'zod/v3';
import fp from 'fastify-plugin';
import { DocumentError, HTTP_STATUS_OF_CODE } from '@nemuri/shared/documents/errors';
import type { Claims } from '@nemuri/shared/documents/access';
import {
  documentErrorResponses,
  documentLookupAnswerSchema,
  documentReadSchema,
  documentsCountAnswerSchema,
  documentsDoneSchema,
  documentsQueryAnswerSchema,
  documentWrittenSchema,
  type DocumentErrorStatus,
} from '@nemuri/shared/documents/answers';
import { parseDocumentPath } from '@nemuri/shared/documents/paths';
import { isPlainObject } from '@nemuri/shared/documents/update';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { SMALL_COMMIT_WRITES } from '../http/fairShare.ts';

const PREFIX = '/api/documents';

function pathOf(request: FastifyRequest): string {
  return decodeURIComponent((request.params as { '*': string })['*']);
}

function writesOf(request: FastifyRequest): unknown[] {
  return isPlainObject(request.body) && Array.isArray(request.body.writes) ? request.body.writes : [];
}

function bodyOf(request: FastifyRequest): Record<string, unknown> {
  return isPlainObject(request.body) ? request.body : {};
}

/** Refuses a write to a collection another API keeps (CollectionSpec.managedBy), below the maker's developers. */
function refuseManaged(principal: Claims | null, path: unknown): void {
  if (typeof path !== 'string' || principal === null || principal.accessLevel >= ROLE_LEVELS.developer) return;
  let spec;
  try {
    spec = parseDocumentPath(path).spec;
  } catch {
    return; // The engine answers a bad path itself.
  }
  if (spec.managedBy !== undefined) throw new DocumentError('permission-denied', `${spec.name} records are written through ${spec.managedBy}`);
}

/** A route's summary and answers: `success` with 200, the engine's error body with each error status. */
function answers(summary: string, success: ZodTypeAny, ...errors: DocumentErrorStatus[]): FastifySchema {
  return { summary, response: { 200: success, ...documentErrorResponses(...errors) } };
}

export const documentsPlugin = fp(
  async (app) => {
    const store = app.documents;

    const handle =
      <T>(fn: (request: FastifyRequest) => Promise<T>) =>
      async (request: FastifyRequest, reply: FastifyReply): Promise<T | FastifyReply> => {
        try {
          reply.header('cache-control', 'no-store');
          return await fn(request);
        } catch (error) {
          if (!(error instanceof DocumentError)) throw error;
          const body = { code: error.code, message: error.message, ...(error.issues.length > 0 ? { issues: error.issues } : {}) };
          return reply.code(HTTP_STATUS_OF_CODE[error.code]).type('application/json; charset=utf-8').send(body);
        }
      };

    app.get(
      `${PREFIX}/*`,
      { schema: answers('Reads a record', documentReadSchema, 400, 401, 403, 404) },
      handle(async (request) => {
        const found = await store.get(request.principal, pathOf(request));
        if (found === null) throw new DocumentError('not-found', `No document at ${pathOf(request)}`);
        return found;
      }),
    );
    app.put(
      `${PREFIX}/*`,
      { schema: answers('Writes a record (`{ data, merge? }`)', documentWrittenSchema, 400, 401, 403, 404, 409, 413, 415) },
      handle(async (request) => {
        const body = bodyOf(request);
        refuseManaged(request.principal, pathOf(request));
        return { document: await store.set(request.principal, pathOf(request), body.data, body.merge === true) };
      }),
    );
    app.patch(
      `${PREFIX}/*`,
      { schema: answers('Updates fields of a record (`{ data }`)', documentWrittenSchema, 400, 401, 403, 404, 409, 413, 415) },
      handle(async (request) => {
        refuseManaged(request.principal, pathOf(request));
        const document = await store.update(request.principal, pathOf(request), bodyOf(request).data);
        return document === null ? {} : { document };
      }),
    );
    app.delete(
      `${PREFIX}/*`,
      { schema: answers('Deletes a record', documentsDoneSchema, 400, 401, 403, 404, 409) },
      handle(async (request) => {
        refuseManaged(request.principal, pathOf(request));
        await store.delete(request.principal, pathOf(request));
        return {};
      }),
    );
    app.post(
      `${PREFIX}/query`,
      { schema: answers('Records matching a query (`{ query }`)', documentsQueryAnswerSchema, 400, 401, 403, 404, 413, 415, 501) },
      handle(async (request) => ({ documents: await store.query(request.principal, bodyOf(request).query) })),
    );
    app.post(
      `${PREFIX}/count`,
      { schema: answers('How many records match a query (`{ query }`)', documentsCountAnswerSchema, 400, 401, 403, 404, 413, 415, 501) },
      handle(async (request) => ({ count: await store.count(request.principal, bodyOf(request).query) })),
    );
    app.post(
      `${PREFIX}/commit`,
      // Up to 500 writes in one transaction: limited per user, tenant and process (http/fairShare.ts).
      {
        schema: answers('Reads checked and writes made in one transaction (`{ reads, writes }`)', documentsDoneSchema, 400, 401, 403, 404, 409, 413, 415, 429),
        config: { fairShare: 'commit', fairShareExempt: (request) => writesOf(request).length <= SMALL_COMMIT_WRITES },
      },
      handle(async (request) => {
        const writes = writesOf(request);
        for (const write of writes) refuseManaged(request.principal, isPlainObject(write) ? write.path : undefined);
        await store.commit(request.principal, request.body);
        return {};
      }),
    );
    app.post(
      `${PREFIX}/lookup`,
      {
        schema: answers('The first record whose field has a value (`{ collection, field, value }`)', documentLookupAnswerSchema, 400, 401, 403, 404, 413, 415),
      },
      handle(async (request) => ({ document: await store.lookup(request.principal, request.body) })),
    );
  },
  { name: 'documentsApi', dependencies: ['documents', 'principal'], encapsulate: true },
);
