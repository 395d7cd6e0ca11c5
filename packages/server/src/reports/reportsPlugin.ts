/**
 * Sleep reports (docs/api.md, "Reports"):
 *   GET  /api/reports/data?rooms=a,b&from=YYYY-MM-DD&to=YYYY-MM-DD   → { reports: RoomReport[] } (what /report shows)
 *   GET  /api/reports/pdf?rooms=…&from=…&to=…                        → application/pdf, a room per page(s)
 *   GET  /api/reports/csv?rooms=…&from=…&to=…&kind=days|epochs&encoding=utf8bom|sjis → text/csv
 *   PUT  /api/reports/rooms/:roomId/comment   { comment: string | null } → { comment } (staff, level 2+)
 *   GET  /api/reports/rooms/:roomId/links?limit&cursor → { links, nextCursor } newest first, keyset-paged (administrators, level 3+)
 *   POST /api/reports/links/:id/revoke        {} → { link } (administrators, level 3+)
 * Everything reads through the document engine with the caller's claims: a room outside the
 * caller's scope answers 404 like a missing one; a family member or doctor (level 1) reads only
 * the room of their live report link, and each read is recorded (reportAccessLog.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod/v3';
import { recordIdParam } from '@nemuri/shared/periodQuery';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { reportQuery, type ReportQuery } from '@nemuri/shared/report/period';
import { reportDate } from '@nemuri/shared/report/columns';
import {
  REPORT_LINKS_DEFAULT_PAGE,
  REPORT_LINKS_MAX_PAGE,
  reportCommentAnswerSchema,
  reportCommentInput,
  reportCsvQuery,
  reportLinkRevokedSchema,
  reportLinksPageSchema,
} from '@nemuri/shared/report/reportApi';
import { reportDataSchema } from '@nemuri/shared/report/roomReport';
import { errorResponses } from '@nemuri/shared/apiErrors';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { ApiError, apiErrorOfDocument, sendApiError } from '../http/errors.ts';
import { sendBytes } from '../http/sendBytes.ts';
import type { ZodTypeProvider } from '../http/zodRouteSchemas.ts';
import { recordReportAccess } from './reportAccessLog.ts';
import { csvContentType } from '../http/csvDownload.ts';
import { readRoom, readRooms, roomRecords } from './reportData.ts';
import { reportLinksPage, revokeReportLink } from './reportLinks.ts';
import { ReportCancelled, ReportThreads, type ReportJob } from './reportThreads.ts';

const idParam = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^/]+$/);
const linksQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(REPORT_LINKS_MAX_PAGE).default(REPORT_LINKS_DEFAULT_PAGE),
    /** The last link's id of the previous page. */
    cursor: recordIdParam.optional(),
  })
  .strict();

const roomParams = z.object({ roomId: idParam });

function signedIn(request: FastifyRequest, minLevel: number = ROLE_LEVELS.individualUser): Claims {
  const claims = request.principal;
  if (claims === null) throw new ApiError(401, 'unauthenticated', 'Sign in to read reports');
  if (claims.accessLevel < minLevel) throw new ApiError(403, 'permission-denied', `This needs level ${minLevel} or above`);
  return claims;
}

/** `attachment` with an ASCII fallback name and the Japanese name as RFC 5987 `filename*`. */
export function contentDisposition(asciiName: string, name: string): string {
  const encoded = encodeURIComponent(name).replace(/['()*!]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${asciiName}"; filename*=UTF-8''${encoded}`;
}

/** `睡眠レポート_101号室_2026-11-01_2026-11-30` (one room) or `睡眠レポート_3部屋_…` (several). */
function fileStem(query: ReportQuery, roomName: string | undefined): string {
  const rooms = query.rooms.length === 1 && roomName !== undefined ? roomName.replace(/[\\/:*?"<>|\s]+/g, '_') : `${query.rooms.length}部屋`;
  return `睡眠レポート_${rooms}_${query.from}_${query.to}`;
}

/** Now in Japan time, as the PDF's "作成日時" (the facilities are in Japan). */
function generatedAt(): string {
  return reportDate(new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 16).replace('T', ' '));
}

export const reportsPlugin = fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const store = app.documents;
    // PDFs (seconds each) and the reports of the screen and the CSV (a fraction of that) have threads
    // of their own, so that the screen never waits behind someone's month of PDF.
    const pdfThreads = new ReportThreads();
    const buildThreads = new ReportThreads(1);
    app.addHook('onClose', () => Promise.all([pdfThreads.stop(), buildThreads.stop()]).then(() => undefined));

    const answer = async <T>(reply: FastifyReply, fn: () => Promise<T>): Promise<T | FastifyReply> => {
      reply.header('cache-control', 'no-store');
      try {
        return await fn();
      } catch (error) {
        if (error instanceof ReportCancelled) {
          // The browser is gone (cancel, closed tab): nobody reads this answer.
          return reply.code(499).send({ code: 'cancelled', message: error.message });
        }
        if (error instanceof DocumentError) return sendApiError(reply, apiErrorOfDocument(error));
        if (error instanceof ApiError) return sendApiError(reply, error);
        throw error;
      }
    };

    /** Aborts when the request's connection closes before its answer is sent (the browser cancelled). */
    const abandoned = (reply: FastifyReply): AbortSignal => {
      const controller = new AbortController();
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) controller.abort(new ReportCancelled());
      });
      return controller.signal;
    };

    /**
     * The query's records, read with the caller's claims (a viewer's read is recorded) and handed
     * room by room to a report thread, which `finish` asks for its result. When the browser goes
     * away, reading stops before the next record and the thread drops the job (reportThreads.ts).
     */
    const withReportJob = async <T>(
      request: FastifyRequest,
      reply: FastifyReply,
      query: ReportQuery,
      threads: ReportThreads,
      finish: (job: ReportJob) => Promise<T>,
      keepSleeps = false,
    ) => {
      const claims = signedIn(request);
      const rooms = await readRooms(store, claims, query.rooms);
      const signal = abandoned(reply);
      const job = await threads.open(query.from, query.to, signal);
      try {
        for await (const records of roomRecords(store, claims, query, rooms, signal)) await job.add(records, keepSleeps);
        // Recorded once read (a cancelled read showed nothing); its write also ends the scope kept for the viewer (scopeCache.ts).
        await recordReportAccess(store, claims, query.rooms);
        return { query, rooms, result: await finish(job) };
      } catch (error) {
        job.cancel();
        if (error instanceof ReportCancelled)
          request.log.info({ roomsRead: job.rooms, rooms: query.rooms.length }, 'report cancelled by the client: reading and building stopped');
        throw error;
      }
    };

    // Each of these reads a whole period of records: limited per user and tenant (http/fairShare.ts).
    app.get(
      '/api/reports/data',
      {
        schema: {
          summary: 'Sleep report data of rooms over a period',
          querystring: reportQuery,
          // The report thread writes the JSON itself, so the serializer never sees it; responses.reports.test.ts checks it.
          response: { 200: reportDataSchema, ...errorResponses(400, 401, 404, 429) },
        },
        config: { fairShare: 'download' },
      },
      async (request, reply) =>
        answer(reply, async () => {
          // `{ reports }` as the report thread wrote it: nothing of it is parsed or serialised here.
          const { result } = await withReportJob(request, reply, request.query, buildThreads, (job) => job.json());
          return sendBytes(reply.type('application/json; charset=utf-8'), result);
        }),
    );

    app.get(
      '/api/reports/pdf',
      {
        schema: { summary: 'Sleep report as PDF', querystring: reportQuery, produces: ['application/pdf'], response: errorResponses(400, 401, 404, 429) },
        config: { fairShare: 'pdf' },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const { query, rooms, result: pdf } = await withReportJob(request, reply, request.query, pdfThreads, (job) => job.pdf(generatedAt()));
          const firstName = rooms[0]?.record.name;
          return sendBytes(
            reply
              .type('application/pdf')
              .header(
                'content-disposition',
                contentDisposition(
                  `sleep-report_${query.from}_${query.to}.pdf`,
                  `${fileStem(query, typeof firstName === 'string' && firstName !== '' ? firstName : rooms[0]?.id)}.pdf`,
                ),
              ),
            pdf,
          );
        }),
    );

    app.get(
      '/api/reports/csv',
      {
        schema: {
          summary: 'Sleep report as CSV (per day or per epoch)',
          querystring: reportCsvQuery,
          produces: ['text/csv'],
          response: errorResponses(400, 401, 404, 429),
        },
        config: { fairShare: 'download' },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const { kind, encoding } = request.query;
          const {
            query,
            rooms,
            result: bytes,
          } = await withReportJob(request, reply, request.query, buildThreads, (job) => job.csv(kind, encoding), kind === 'epochs');
          const firstName = rooms[0]?.record.name;
          const suffix = kind === 'days' ? '日別' : '分別';
          return sendBytes(
            reply
              .type(csvContentType(encoding))
              .header(
                'content-disposition',
                contentDisposition(
                  `sleep-report_${kind}_${query.from}_${query.to}.csv`,
                  `${fileStem(query, typeof firstName === 'string' && firstName !== '' ? firstName : rooms[0]?.id)}_${suffix}.csv`,
                ),
              ),
            bytes,
          );
        }),
    );

    app.put(
      '/api/reports/rooms/:roomId/comment',
      {
        schema: {
          summary: "The report's comment for a room",
          params: roomParams,
          body: reportCommentInput,
          response: { 200: reportCommentAnswerSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const claims = signedIn(request, ROLE_LEVELS.generalStaff);
          const { roomId } = request.params;
          const { comment } = request.body;
          await readRoom(store, claims, roomId);
          const text = comment === null || comment.trim() === '' ? null : comment.trim();
          await store.update(claims, `rooms/${roomId}`, { reportComment: text });
          return { comment: text };
        }),
    );

    app.get(
      '/api/reports/rooms/:roomId/links',
      {
        schema: {
          summary: "A room's report links, newest first",
          params: roomParams,
          querystring: linksQuery,
          response: { 200: reportLinksPageSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const claims = signedIn(request, ROLE_LEVELS.administrator);
          const { roomId } = request.params;
          const { limit, cursor } = request.query;
          await readRoom(store, claims, roomId);
          return reportLinksPage(store, claims, roomId, limit, cursor);
        }),
    );

    app.post(
      '/api/reports/links/:id/revoke',
      {
        schema: {
          summary: 'Revokes a report link',
          params: z.object({ id: idParam }),
          response: { 200: reportLinkRevokedSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const claims = signedIn(request, ROLE_LEVELS.administrator);
          const { id } = request.params;
          const link = await revokeReportLink(store, claims, id);
          request.log.info({ linkId: id, roomId: link.roomId, by: claims.uid }, 'report link revoked');
          return { link };
        }),
    );
  },
  { name: 'reports', dependencies: ['documents', 'principal'], encapsulate: true },
);
