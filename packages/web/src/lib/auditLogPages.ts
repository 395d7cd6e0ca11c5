/**
 * Pages of the audit log (docs/api.md "Audit log"), for the /audit-log screen and the master
 * domain history: one page at a time, newest first (lib/cursorPages.ts).
 */
import { AUDIT_LOG_CSV_PATH, AUDIT_LOG_PATH, auditFilterParams, type AuditLogFilter, type AuditLogPage } from '@nemuri/shared/auditLog';
import { useCursorPages, type CursorPagesState } from './cursorPages.ts';
import { http } from './http/httpClient.ts';

export async function fetchAuditPage(filter: AuditLogFilter, limit: number, cursor: string | null): Promise<AuditLogPage> {
  const params = new URLSearchParams({ ...auditFilterParams(filter), limit: String(limit) });
  if (cursor !== null) params.set('cursor', cursor);
  return http.json<AuditLogPage>('GET', `${AUDIT_LOG_PATH}?${params.toString()}`);
}

export function auditCsvUrl(filter: AuditLogFilter): string {
  return `${AUDIT_LOG_CSV_PATH}?${new URLSearchParams(auditFilterParams(filter)).toString()}`;
}

export type AuditPagesState = CursorPagesState<AuditLogPage>;

export function useAuditPages(filter: AuditLogFilter, pageSize: number): AuditPagesState {
  return useCursorPages(filter, pageSize, fetchAuditPage);
}
