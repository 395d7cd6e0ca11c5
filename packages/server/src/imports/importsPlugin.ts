/**
 * Imports of recordings (docs/api.md, "Imports"):
 *   POST   /api/rooms/:roomId/uploads                      body: the file (application/octet-stream), its name in
 *                                                          `X-File-Name` (URI-encoded), optionally
 *                                                          `X-Unknown-Columns: refuse|skip` → 201 `{ uploadId, upload }`,
 *                                                          or 409 `{ code: 'already-exists', uploadId, fileName }`
 *   POST   /api/rooms/:roomId/uploads/:uploadId/reprocess  body `{ unknownColumns?: 'refuse'|'skip' }` → 202 `{ uploadId }`
 *   DELETE /api/rooms/:roomId/uploads/:uploadId            → `{ deletedDays }`
 * The uploads themselves are read (live) through the documents API: `rooms/{roomId}/uploads`.
 * Uploading and reprocessing need general staff (2+) with the room in scope; deleting follows the
 * uploads collection's delete rule (administrators). A room outside the caller's scope reads as missing.
 */
import fp from 'fastify-plugin';
import { z } from 'zod/v3';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DocumentError } from '@nemuri/shared/documents/errors';
import {
  reprocessInput,
  UNKNOWN_COLUMN_CHOICES,
  UPLOAD_FILE_NAME_HEADER,
  UPLOAD_UNKNOWN_COLUMNS_HEADER,
  duplicateUploadSchema,
  reprocessAcceptedSchema,
  uploadCreatedSchema,
  uploadRemovedSchema,
  type DuplicateUpload,
  type UnknownColumnChoice,
} from '@nemuri/shared/imports';
import { errorResponses } from '@nemuri/shared/apiErrors';
import { apiErrorOfDocument, sendApiError, sendError } from '../http/errors.ts';
import type { ZodTypeProvider } from '../http/zodRouteSchemas.ts';
import { ImportError } from './importError.ts';
import { runImport } from './importRunner.ts';
import { ImportService } from './importService.ts';
import { UploadFiles } from './uploadFiles.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Uploads and their processing (imports/importService.ts). */
    imports: ImportService;
  }
}

export interface ImportsPluginOptions {
  /** Where uploaded files are kept (DATA_DIR/uploads). */
  uploadDir: string;
  /** The directory goes when the server stops (an in-memory database keeps nothing either). */
  temporary?: boolean;
  maxBytes?: number;
}

const FILE_NAME_MAX = 255;

function fileNameOf(header: unknown): string | null {
  if (typeof header !== 'string' || header === '') return null;
  let name: string;
  try {
    name = decodeURIComponent(header);
  } catch {
    return null;
  }
  name = name.replace(/^.*[\\/]/, '').trim();
  // eslint-disable-next-line no-control-regex -- control characters are what is refused here
  return name === '' || name.length > FILE_NAME_MAX || /[\u0000-\u001f]/.test(name) ? null : name;
}

/** The uploader's choice for unreadable columns: absent means refuse; anything but the two words is refused. */
function unknownColumnsOf(header: unknown): UnknownColumnChoice | null {
  if (header === undefined) return 'refuse';
  return (UNKNOWN_COLUMN_CHOICES as readonly unknown[]).includes(header) ? (header as UnknownColumnChoice) : null;
}

function sendFailure(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof DocumentError) return sendApiError(reply, apiErrorOfDocument(error));
  if (error instanceof ImportError) {
    const status = error.code === 'too-large' ? 413 : error.code === 'unsupported-format' ? 415 : 400;
    return reply.code(status).type('application/json; charset=utf-8').send({ code: 'invalid-argument', reason: error.code, message: error.message });
  }
  throw error;
}

// Not encapsulated: `app.imports` is the server's (tests wait for its work through it).
export const importsPlugin = fp<ImportsPluginOptions>(
  async (app, { uploadDir, temporary = false, maxBytes }) => {
    const service = new ImportService({
      documents: app.documents,
      files: new UploadFiles(uploadDir),
      sleepDayOf: (domainId) => app.monitoring.directory.sleepDayOf(domainId),
      log: app.log,
      run: (job, sink) => runImport(job, sink),
      storeChunks: (chunks) => app.signals.store.storeChunks(chunks),
      ...(maxBytes === undefined ? {} : { maxBytes }),
    });
    app.decorate('imports', service);
    app.addHook('onReady', async () => {
      const resumed = await service.resume();
      if (resumed > 0) app.log.info({ resumed }, 'uploads interrupted by a restart are processed again');
    });
    app.addHook('onClose', async () => {
      await service.stop();
      if (temporary) await rm(uploadDir, { recursive: true, force: true });
    });

    // The routes in a scope of their own: there the body is the file, handed over as a stream.
    await app.register(async (scope) => routes(scope, service));
  },
  { name: 'imports', dependencies: ['documents', 'signals', 'monitoring', 'principal'] },
);

async function routes(app: FastifyInstance, service: ImportService): Promise<void> {
  app.addContentTypeParser('application/octet-stream', (_request, payload, done) => done(null, payload));

  // Uploads and reprocessing are limited per user, tenant and process (http/fairShare.ts).
  app.post<{ Params: { roomId: string } }>(
    '/api/rooms/:roomId/uploads',
    {
      schema: {
        summary: 'Uploads a recording or CSV of a room (the file as application/octet-stream, its name in a header)',
        response: { 201: uploadCreatedSchema, 409: duplicateUploadSchema, ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
      config: { fairShare: 'upload' },
    },
    async (request, reply) => {
      const claims = request.principal;
      if (claims === null) return sendError(reply, 401, 'unauthenticated', 'Sign in to upload');
      const fileName = fileNameOf(request.headers[UPLOAD_FILE_NAME_HEADER]);
      if (fileName === null)
        return sendError(reply, 400, 'invalid-argument', `${UPLOAD_FILE_NAME_HEADER}: the file name, URI-encoded, at most ${FILE_NAME_MAX} characters`);
      const unknownColumns = unknownColumnsOf(request.headers[UPLOAD_UNKNOWN_COLUMNS_HEADER]);
      if (unknownColumns === null) return sendError(reply, 400, 'invalid-argument', `${UPLOAD_UNKNOWN_COLUMNS_HEADER}: ${UNKNOWN_COLUMN_CHOICES.join(' or ')}`);
      if (!request.headers['content-type']?.startsWith('application/octet-stream'))
        return sendError(reply, 415, 'invalid-argument', 'Send the file as application/octet-stream');
      try {
        const outcome = await service.upload(claims, request.params.roomId, fileName, request.body as Readable, unknownColumns);
        if (outcome.kind === 'duplicate') {
          const body: DuplicateUpload = {
            code: 'already-exists',
            message: `This file was already uploaded as ${outcome.fileName}`,
            uploadId: outcome.uploadId,
            fileName: outcome.fileName,
          };
          return reply.code(409).send(body);
        }
        return reply.code(201).send({ uploadId: outcome.uploadId, upload: outcome.upload });
      } catch (error) {
        return sendFailure(reply, error);
      }
    },
  );

  // No body (or an empty one) keeps the upload's choice.
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/rooms/:roomId/uploads/:uploadId/reprocess',
    {
      schema: {
        summary: 'Imports an uploaded recording again',
        params: z.object({ roomId: z.string(), uploadId: z.string() }),
        body: reprocessInput,
        response: { 202: reprocessAcceptedSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { fairShare: 'upload' },
    },
    async (request, reply) => {
      const claims = request.principal;
      if (claims === null) return sendError(reply, 401, 'unauthenticated', 'Sign in to reprocess');
      try {
        await service.reprocess(claims, request.params.roomId, request.params.uploadId, request.body.unknownColumns);
        return reply.code(202).send({ uploadId: request.params.uploadId });
      } catch (error) {
        return sendFailure(reply, error);
      }
    },
  );

  app.delete<{ Params: { roomId: string; uploadId: string } }>(
    '/api/rooms/:roomId/uploads/:uploadId',
    { schema: { summary: 'Deletes an upload and the sleep days it made', response: { 200: uploadRemovedSchema, ...errorResponses(400, 401, 403, 404) } } },
    async (request, reply) => {
      const claims = request.principal;
      if (claims === null) return sendError(reply, 401, 'unauthenticated', 'Sign in to delete');
      try {
        return await service.remove(claims, request.params.roomId, request.params.uploadId);
      } catch (error) {
        return sendFailure(reply, error);
      }
    },
  );
}
