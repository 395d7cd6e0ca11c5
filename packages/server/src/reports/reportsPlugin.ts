/**
 * Sleep reports (docs/api.md, "Reports"):
 *   GET  /api/reports/data?rooms=a,b&from=YYYY-MM-DD&to=YYYY-MM-DD   → { reports: RoomReport[] } (what /report shows)
 *   GET  /api/reports/pdf?rooms=…&from=…&to=…                        → application/pdf, a room per page(s)
 *   GET  /api/reports/csv?rooms=…&from=…&to=…&kind=days|epochs&encoding=utf8bom|sjis → text/csv
 *   PUT  /api/reports/rooms/:roomId/comment   { comment: string | null } → { comment } (staff, level 2+)
 *   GET  /api/reports/rooms/:roomId/links     → { links } (administrators, level 3+)
 *   POST /api/reports/links/:id/revoke        {} → { link } (administrators, level 3+)
 * Everything reads through the document engine with the caller's claims: a room outside the
 * caller's scope answers 404 like a missing one; a family member or doctor (level 1) reads only
 * the room of their live report link, and each read is recorded (reportAccessLog.ts).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/v3';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError, HTTP_STATUS_OF_CODE } from '@nemuri/shared/documents/errors';
import { reportQuery, type ReportQuery } from '@nemuri/shared/report/period';
import { csvOptions, reportCommentInput } from '@nemuri/shared/report/reportApi';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { Database } from '../database/database.ts';
import { DocumentStore } from '../documents/store.ts';
import { ApiError, sendError, type ErrorCode } from '../http/errors.ts';
import { recordReportAccess } from './reportAccessLog.ts';
import { csvText, encodeCsv } from './reportCsv.ts';
import { loadReports, readRoom } from './reportData.ts';
import { listReportLinks, revokeReportLink } from './reportLinks.ts';
import { PdfRenderer } from './pdfRenderer.ts';

export interface ReportsPluginOptions {
  database: Database;
}

const idParam = z.string().min(1).max(200).regex(/^[^/]+$/);

function invalid(error: z.ZodError): ApiError {
  return new ApiError(400, 'invalid-argument', error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; '));
}

function parse<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalid(parsed.error);
  return parsed.data;
}

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
  return new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 16).replace('T', ' ');
}

export const reportsPlugin: FastifyPluginAsync<ReportsPluginOptions> = async (app, { database }) => {
  const store = new DocumentStore(database, app.log);
  const pdfs = new PdfRenderer();
  app.addHook('onClose', () => pdfs.stop());

  const answer = async (reply: FastifyReply, fn: () => Promise<unknown>): Promise<unknown> => {
    reply.header('cache-control', 'no-store');
    try {
      return await fn();
    } catch (error) {
      if (error instanceof DocumentError) {
        const code: ErrorCode = error.code === 'aborted' ? 'already-exists' : error.code === 'unimplemented' ? 'internal' : error.code;
        return sendError(reply, HTTP_STATUS_OF_CODE[error.code], code, error.message);
      }
      if (error instanceof ApiError) return sendError(reply, error.statusCode, error.code, error.message);
      throw error;
    }
  };

  /** The query's reports, read with the caller's claims; a viewer's read is recorded. */
  const reportsFor = async (request: FastifyRequest) => {
    const claims = signedIn(request);
    const query = parse(reportQuery, request.query);
    const loaded = await loadReports(store, claims, query);
    await recordReportAccess(store, claims, query.rooms);
    return { query, loaded };
  };

  // Each of these reads a whole period of records: limited per user and tenant (http/fairShare.ts).
  app.get('/api/reports/data', { config: { fairShare: 'download' } }, async (request, reply) =>
    answer(reply, async () => {
      const { loaded } = await reportsFor(request);
      return { reports: loaded.map((entry) => entry.report) };
    }),
  );

  app.get('/api/reports/pdf', { config: { fairShare: 'pdf' } }, async (request, reply) =>
    answer(reply, async () => {
      const { query, loaded } = await reportsFor(request);
      const pdf = await pdfs.render(
        loaded.map((entry) => entry.report),
        generatedAt(),
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', contentDisposition(`sleep-report_${query.from}_${query.to}.pdf`, `${fileStem(query, loaded[0]?.report.room.name)}.pdf`))
        .send(pdf);
    }),
  );

  app.get('/api/reports/csv', { config: { fairShare: 'download' } }, async (request, reply) =>
    answer(reply, async () => {
      const { kind, encoding } = parse(csvOptions, request.query);
      const { query, loaded } = await reportsFor(request);
      const bytes = encodeCsv(csvText(loaded, kind), encoding);
      const suffix = kind === 'days' ? '日別' : '分別';
      return reply
        .type(`text/csv; charset=${encoding === 'sjis' ? 'Shift_JIS' : 'utf-8'}`)
        .header('content-disposition', contentDisposition(`sleep-report_${kind}_${query.from}_${query.to}.csv`, `${fileStem(query, loaded[0]?.report.room.name)}_${suffix}.csv`))
        .send(bytes);
    }),
  );

  app.put<{ Params: { roomId: string } }>('/api/reports/rooms/:roomId/comment', async (request, reply) =>
    answer(reply, async () => {
      const claims = signedIn(request, ROLE_LEVELS.generalStaff);
      const roomId = parse(idParam, request.params.roomId);
      const { comment } = parse(reportCommentInput, request.body ?? {});
      await readRoom(store, claims, roomId);
      const text = comment === null || comment.trim() === '' ? null : comment.trim();
      await store.update(claims, `rooms/${roomId}`, { reportComment: text });
      return { comment: text };
    }),
  );

  app.get<{ Params: { roomId: string } }>('/api/reports/rooms/:roomId/links', async (request, reply) =>
    answer(reply, async () => {
      const claims = signedIn(request, ROLE_LEVELS.administrator);
      const roomId = parse(idParam, request.params.roomId);
      await readRoom(store, claims, roomId);
      return { links: await listReportLinks(store, claims, roomId) };
    }),
  );

  app.post<{ Params: { id: string } }>('/api/reports/links/:id/revoke', async (request, reply) =>
    answer(reply, async () => {
      const claims = signedIn(request, ROLE_LEVELS.administrator);
      const id = parse(idParam, request.params.id);
      const link = await revokeReportLink(store, claims, id);
      request.log.info({ linkId: id, roomId: link.roomId, by: claims.uid }, 'report link revoked');
      return { link };
    }),
  );
};
