/**
 * The audit log as people read it (docs/api.md, "Audit log"): what the server's endpoints and the
 * /audit-log screen (and the master domain history) agree on — the filters, the page and the CSV.
 *
 * - `GET /api/audit-log?domainId&who&collection&operation&from&to&limit&cursor` → `AuditLogPage`,
 *   newest first, keyset-paged by `cursor`;
 * - `GET /api/audit-log.csv?…the same filters, from and to required…` → text/csv (UTF-8 with BOM),
 *   at most AUDIT_CSV_MAX_ROWS rows of at most AUDIT_CSV_MAX_DAYS days.
 * Who reads what: privilege administrators and owners (4-5) their root domain's entries, agency
 * levels (50-51) their own agency's only (never their customers'), the maker's developers all.
 */
import { z } from 'zod/v3';
import { COLLECTIONS } from './documents/collections.ts';
import { instantParam, periodOrderMessage, periodOrdered, recordIdParam, withCsvPeriod } from './periodQuery.ts';

export const AUDIT_LOG_PATH = '/api/audit-log';
export const AUDIT_LOG_CSV_PATH = '/api/audit-log.csv';

export const AUDIT_LOG_DEFAULT_PAGE = 50;
export const AUDIT_LOG_MAX_PAGE = 200;
export const AUDIT_CSV_MAX_ROWS = 10_000;
export const AUDIT_CSV_MAX_DAYS = 93;

export const AUDIT_OPERATIONS = ['create', 'set', 'update', 'delete'] as const;
export type AuditOperation = (typeof AUDIT_OPERATIONS)[number];

/** The registry's collection names (`rooms`, `rooms/sleeps`, `domains/staff`…): what the collection filter takes. */
export const AUDITED_COLLECTIONS = COLLECTIONS.map((spec) => spec.name).filter((name) => name !== 'auditLogs');

const id = recordIdParam;
const instant = instantParam;
/** `{microseconds since the epoch}:{path}` of the last entry of the previous page. */
const cursor = z
  .string()
  .max(600)
  .regex(/^\d{1,17}:[^\s]+$/, 'must be a cursor from the previous page');

const filterFields = {
  domainId: id.optional(),
  /** The uid that made the change. */
  who: z.string().min(1).max(200).optional(),
  collection: z.enum(AUDITED_COLLECTIONS as [string, ...string[]]).optional(),
  operation: z.enum(AUDIT_OPERATIONS).optional(),
  /** Changes at or after `from` and before `to`. */
  from: instant.optional(),
  to: instant.optional(),
};

export const auditLogQuery = z
  .object({ ...filterFields, limit: z.coerce.number().int().min(1).max(AUDIT_LOG_MAX_PAGE).default(AUDIT_LOG_DEFAULT_PAGE), cursor: cursor.optional() })
  .strict()
  .refine(periodOrdered, periodOrderMessage);
export type AuditLogQuery = z.infer<typeof auditLogQuery>;

export const auditCsvQuery = withCsvPeriod({ ...filterFields, from: instant, to: instant }, AUDIT_CSV_MAX_DAYS);
export type AuditCsvQuery = z.infer<typeof auditCsvQuery>;

export type AuditLogFilter = Pick<AuditLogQuery, 'domainId' | 'who' | 'collection' | 'operation' | 'from' | 'to'>;

/** The query-string pairs of the filters that are set. */
export function auditFilterParams(filter: AuditLogFilter): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key of ['domainId', 'who', 'collection', 'operation', 'from', 'to'] as const) {
    const value = filter[key];
    if (value !== undefined && value !== '') params[key] = value;
  }
  return params;
}

export const auditLogRowSchema = z
  .object({
    /** The `auditLogs/{id}` record's id. */
    id: z.string(),
    /** ISO instant of the change. */
    when: z.string(),
    who: z.string(),
    /** The person's name when the caller may read their staff record; else null (the screen shows the uid). */
    whoName: z.string().nullable(),
    operation: z.enum(AUDIT_OPERATIONS),
    /** The changed record's path and collection (registry name). */
    path: z.string(),
    collection: z.string(),
    changedKeys: z.array(z.string()),
    /** The domain the changed record belongs to, and its name when the caller may read it. */
    domainId: z.string().nullable(),
    domainName: z.string().nullable(),
  })
  .strict();
export type AuditLogRow = z.infer<typeof auditLogRowSchema>;

export const auditLogPageSchema = z
  .object({
    rows: z.array(auditLogRowSchema),
    /** Give as `cursor` for the next page; null on the last. */
    nextCursor: z.string().nullable(),
  })
  .strict();
export type AuditLogPage = z.infer<typeof auditLogPageSchema>;

/** The CSV's columns, in Japanese like the other downloads. */
export const AUDIT_CSV_HEADER = ['日時', '操作者', '操作者ID', '操作', 'コレクション', 'パス', '変更した項目', 'ドメイン'];

export const AUDIT_OPERATION_LABELS_JA: Readonly<Record<AuditOperation, string>> = { create: '作成', set: '置換', update: '更新', delete: '削除' };
