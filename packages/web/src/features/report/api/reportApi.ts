/**
 * The report endpoints (docs/api.md, "Reports"): the reports of rooms for a period, the download
 * addresses (PDF, CSV), the staff comment, and report links (make, list, revoke).
 */
import type { CsvEncoding, CsvKind, ReportLinksPage, ReportLinkSummary } from '@nemuri/shared/report/reportApi';
import type { RoomReport } from '@nemuri/shared/report/roomReport';
import { http, type HttpMethod } from '../../../lib/http/httpClient.ts';

export interface ReportSelection {
  roomIds: readonly string[];
  from: string;
  to: string;
}

/** A failure is the page's ApiError (lib/http/apiError.ts) with the server's code. */
function call<T>(method: HttpMethod, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  return http.json<T>(method, path, { body, ...(signal === undefined ? {} : { signal }) });
}

function queryOf(selection: ReportSelection): string {
  return new URLSearchParams({ rooms: selection.roomIds.join(','), from: selection.from, to: selection.to }).toString();
}

/** Aborting `signal` (the user cancels, asks again or leaves) also stops the server reading (reports/reportsPlugin.ts). */
export async function fetchReports(selection: ReportSelection, signal?: AbortSignal): Promise<RoomReport[]> {
  return (await call<{ reports: RoomReport[] }>('GET', `/api/reports/data?${queryOf(selection)}`, undefined, signal)).reports;
}

export function pdfUrl(selection: ReportSelection): string {
  return `/api/reports/pdf?${queryOf(selection)}`;
}

export function csvUrl(selection: ReportSelection, kind: CsvKind, encoding: CsvEncoding): string {
  return `/api/reports/csv?${queryOf(selection)}&kind=${kind}&encoding=${encoding}`;
}

export async function saveComment(roomId: string, comment: string): Promise<string | null> {
  return (await call<{ comment: string | null }>('PUT', `/api/reports/rooms/${encodeURIComponent(roomId)}/comment`, { comment })).comment;
}

/** For useCursorPages: a page of the room's report links, newest first. */
export function fetchLinksPage(filter: { roomId: string }, limit: number, cursor: string | null): Promise<ReportLinksPage> {
  const params = new URLSearchParams({ limit: String(limit) });
  if (cursor !== null) params.set('cursor', cursor);
  return call<ReportLinksPage>('GET', `/api/reports/rooms/${encodeURIComponent(filter.roomId)}/links?${params.toString()}`);
}

export function createLink(roomId: string, validDays: number): Promise<{ id: string; url: string; expiresAt: string }> {
  return call('POST', '/api/auth/report-access/links', { roomId, validDays });
}

export async function revokeLink(id: string): Promise<ReportLinkSummary> {
  return (await call<{ link: ReportLinkSummary }>('POST', `/api/reports/links/${encodeURIComponent(id)}/revoke`, {})).link;
}
