/**
 * The audit log endpoints (docs/api.md "Audit log"; shared/auditLog.ts; scope in auditLog.ts):
 *   GET /api/audit-log?domainId&who&collection&operation&from&to&limit&cursor → AuditLogPage
 *   GET /api/audit-log.csv?domainId&who&collection&operation&from&to&encoding → text/csv (UTF-8 with BOM, or Windows-31J with encoding=sjis)
 * Signed out: 401; below level 4: 403; a domain outside the caller's scope: 404; bad filters, a
 * page above AUDIT_LOG_MAX_PAGE or a CSV period over AUDIT_CSV_MAX_DAYS: 400. The CSV holds at most
 * AUDIT_CSV_MAX_ROWS rows and takes a turn of the `download` kind (http/fairShare.ts).
 */
import fp from 'fastify-plugin';
import { errorResponses } from '@nemuri/shared/apiErrors';
import {
  AUDIT_CSV_HEADER,
  AUDIT_CSV_MAX_ROWS,
  AUDIT_LOG_CSV_PATH,
  AUDIT_LOG_PATH,
  AUDIT_OPERATION_LABELS_JA,
  auditCsvQuery,
  auditLogPageSchema,
  auditLogQuery,
  type AuditLogPage,
  type AuditLogRow,
} from '@nemuri/shared/auditLog';
import { reportDate } from '@nemuri/shared/report/columns';
import { toCsv } from '@nemuri/shared/report/csv';
import { csvContentType, encodeCsv } from '../http/csvDownload.ts';
import { sendBytes } from '../http/sendBytes.ts';
import { ApiError } from '../http/errors.ts';
import type { ZodTypeProvider } from '../http/zodRouteSchemas.ts';
import { answer, principalOf } from '../monitoring/alertHistoryRoutes.ts';
import { contentDisposition } from '../reports/reportsPlugin.ts';
import { auditScopeOf, checkDomainFilter, parseCursor, selectEntries, withNames, type AuditCursor, type AuditEntry } from './auditLog.ts';

/** Rows read per database round while the CSV is gathered. */
const CSV_BATCH = 500;

/** `2026/11/24 21:05:09` in Japan time: the product's date form (YYYY/MM/DD) with seconds, as an audit needs. */
function japanTime(iso: string): string {
  const jst = new Date(Date.parse(iso) + 9 * 3_600_000).toISOString();
  return `${reportDate(jst.slice(0, 10))} ${jst.slice(11, 19)}`;
}

function auditCsv(rows: readonly AuditLogRow[]): string {
  return toCsv([
    AUDIT_CSV_HEADER,
    ...rows.map((row) => [
      japanTime(row.when),
      row.whoName ?? '',
      row.who,
      AUDIT_OPERATION_LABELS_JA[row.operation],
      row.collection,
      row.path,
      row.changedKeys.join(' '),
      row.domainName ?? row.domainId ?? '',
    ]),
  ]);
}

export const auditLogPlugin = fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { database } = app;
    const store = app.documents;

    app.get(
      AUDIT_LOG_PATH,
      { schema: { summary: 'Audit log', querystring: auditLogQuery, response: { 200: auditLogPageSchema, ...errorResponses(400, 401, 403, 404) } } },
      async (request, reply) =>
        answer(reply, async (): Promise<AuditLogPage> => {
          const claims = principalOf(request);
          const scope = auditScopeOf(claims);
          const query = request.query;
          await checkDomainFilter(database, scope, query.domainId);
          // One more than the page tells whether another page follows.
          const found = await selectEntries(database, claims, scope, query, query.limit + 1, parseCursor(query.cursor));
          const page = found.slice(0, query.limit);
          return {
            rows: await withNames(database, claims, await store.scopeOf(claims), page),
            nextCursor: found.length > query.limit ? (page.at(-1)?.cursor ?? null) : null,
          };
        }),
    );

    app.get(
      AUDIT_LOG_CSV_PATH,
      {
        schema: { summary: 'Audit log as CSV', querystring: auditCsvQuery, produces: ['text/csv'], response: errorResponses(400, 401, 403, 404, 429) },
        config: { fairShare: 'download' },
      },
      async (request, reply) =>
        answer(reply, async () => {
          const claims = principalOf(request);
          const scope = auditScopeOf(claims);
          const query = request.query;
          await checkDomainFilter(database, scope, query.domainId);
          const found: AuditEntry[] = [];
          let after: AuditCursor | null = null;
          for (;;) {
            const batch = await selectEntries(database, claims, scope, query, CSV_BATCH, after);
            found.push(...batch);
            if (found.length > AUDIT_CSV_MAX_ROWS)
              throw new ApiError(400, 'invalid-argument', `More than ${AUDIT_CSV_MAX_ROWS} changes match: choose a shorter period or narrower filters`);
            const last = batch.at(-1);
            if (batch.length < CSV_BATCH || last === undefined) break;
            after = parseCursor(last.cursor);
          }
          const rows = await withNames(database, claims, await store.scopeOf(claims), found);
          const period = `${query.from.slice(0, 10)}_${query.to.slice(0, 10)}`;
          return sendBytes(
            reply.type(csvContentType(query.encoding)).header('content-disposition', contentDisposition(`audit-log_${period}.csv`, `監査ログ_${period}.csv`)),
            encodeCsv(auditCsv(rows), query.encoding),
          );
        }),
    );
  },
  { name: 'auditLog', dependencies: ['documents', 'principal'], encapsulate: true },
);
