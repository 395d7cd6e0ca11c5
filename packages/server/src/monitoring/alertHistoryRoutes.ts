/**
 * The alert history endpoints (docs/api.md "Alert history"; shared/alertHistory.ts):
 *   GET /api/monitoring/alerts?roomId&types&state&from&to&limit&cursor → AlertHistoryPage
 *   GET /api/monitoring/alerts.csv?roomId&types&state&from&to&encoding → text/csv (UTF-8 with BOM, or Windows-31J with encoding=sjis)
 *   GET /api/monitoring/night-summary?day&roomId                      → NightSummaryAnswer (nightSummary.ts)
 * Signed out: 401; a level that may not list alerts: 403; a room or cursor outside the caller's
 * scope: 404 like a missing one; bad filters and pages beyond ALERT_HISTORY_MAX_PAGE: 400. The CSV
 * reads up to ALERT_CSV_MAX_ROWS alerts of at most ALERT_CSV_MAX_DAYS days and takes a turn of the
 * `download` kind (http/fairShare.ts), like the report downloads.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ALERT_CSV_MAX_ROWS,
  ALERT_HISTORY_CSV_PATH,
  ALERT_HISTORY_PATH,
  alertCsvQuery,
  alertHistoryPageSchema,
  alertHistoryQuery,
  NIGHT_SUMMARY_PATH,
  nightSummaryAnswerSchema,
  nightSummaryQuery,
  type AlertHistoryPage,
} from '@nemuri/shared/alertHistory';
import { errorResponses } from '@nemuri/shared/apiErrors';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import type { DocumentStore } from '../documents/store.ts';
import { ApiError, apiErrorOfDocument, sendApiError } from '../http/errors.ts';
import { sendBytes } from '../http/sendBytes.ts';
import type { ZodTypeProvider } from '../http/zodRouteSchemas.ts';
import { contentDisposition } from '../reports/reportsPlugin.ts';
import { checkRoomFilter, historyRows, pageStartOf, selectAlerts, type AlertSelection } from './alertHistory.ts';
import { csvContentType, encodeCsv } from '../http/csvDownload.ts';
import { alertCsvText } from './alertHistoryCsv.ts';
import { nightSummaries } from './nightSummary.ts';

/** Rows read per database round while the CSV is gathered. */
const CSV_BATCH = 500;

export function principalOf(request: FastifyRequest): Claims {
  if (request.principal === null) throw new ApiError(401, 'unauthenticated', 'Sign in to read the alerts');
  return request.principal;
}

/** Runs a handler, answering the document engine's and the API's errors in the one error shape. */
export async function answer<T>(reply: FastifyReply, fn: () => Promise<T>): Promise<T | FastifyReply> {
  reply.header('cache-control', 'no-store');
  try {
    return await fn();
  } catch (error) {
    if (error instanceof DocumentError) return sendApiError(reply, apiErrorOfDocument(error));
    if (error instanceof ApiError) return sendApiError(reply, error);
    throw error;
  }
}

export interface AlertHistoryRoutesOptions {
  store: DocumentStore;
  /** The facility's time zone (the CSV's clock). */
  timeZoneOf: (domainId: string) => string;
}

export function alertHistoryRoutes(fastify: FastifyInstance, { store, timeZoneOf }: AlertHistoryRoutesOptions): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    ALERT_HISTORY_PATH,
    {
      schema: {
        summary: 'Alert history (API key scope alerts.read)',
        querystring: alertHistoryQuery,
        response: { 200: alertHistoryPageSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) =>
      answer(reply, async (): Promise<AlertHistoryPage> => {
        const claims = principalOf(request);
        const query = request.query;
        await checkRoomFilter(store, claims, query.roomId);
        const after = await pageStartOf(store, claims, query.cursor);
        // One more than the page tells whether another page follows.
        const found = await selectAlerts(store, claims, { filter: query, limit: query.limit + 1, after });
        const at = Date.now();
        const page = found.slice(0, query.limit);
        return { at, rows: await historyRows(store, claims, page, at), nextCursor: found.length > query.limit ? (page.at(-1)?.row.id ?? null) : null };
      }),
  );

  app.get(
    ALERT_HISTORY_CSV_PATH,
    {
      schema: { summary: 'Alert history as CSV', querystring: alertCsvQuery, produces: ['text/csv'], response: errorResponses(400, 401, 403, 404, 429) },
      config: { fairShare: 'download' },
    },
    async (request, reply) =>
      answer(reply, async () => {
        const claims = principalOf(request);
        const query = request.query;
        await checkRoomFilter(store, claims, query.roomId);
        const found: Awaited<ReturnType<typeof selectAlerts>> = [];
        let after: AlertSelection['after'];
        for (;;) {
          const batch = await selectAlerts(store, claims, { filter: query, limit: CSV_BATCH, after });
          found.push(...batch);
          if (found.length > ALERT_CSV_MAX_ROWS)
            throw new ApiError(400, 'invalid-argument', `More than ${ALERT_CSV_MAX_ROWS} alerts match: choose a shorter period or fewer rooms or types`);
          const last = batch.at(-1);
          if (batch.length < CSV_BATCH || last === undefined) break;
          after = { startedAt: new Date(String(last.record.startedAt)).toISOString(), path: last.row.path };
        }
        const rows = await historyRows(store, claims, found, Date.now());
        const period = `${query.from.slice(0, 10)}_${query.to.slice(0, 10)}`;
        return sendBytes(
          reply
            .type(csvContentType(query.encoding))
            .header('content-disposition', contentDisposition(`alert-history_${period}.csv`, `アラート履歴_${period}.csv`)),
          encodeCsv(
            alertCsvText(rows, (row) => timeZoneOf(row.domainId)),
            query.encoding,
          ),
        );
      }),
  );

  // Every room's night reads the alerts and a sleep record per room: a `download` turn; one room's is cheap.
  app.get(
    NIGHT_SUMMARY_PATH,
    {
      schema: {
        summary: 'Night summary of alerts',
        querystring: nightSummaryQuery,
        response: { 200: nightSummaryAnswerSchema, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { fairShare: 'download', fairShareExempt: (request) => typeof (request.query as { roomId?: unknown }).roomId === 'string' },
    },
    async (request, reply) =>
      answer(reply, async () => {
        const claims = principalOf(request);
        return nightSummaries(store, claims, request.query);
      }),
  );
}
