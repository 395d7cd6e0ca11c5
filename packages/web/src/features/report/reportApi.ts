/**
 * The report endpoints (docs/api.md, "Reports"): the reports of rooms for a period, the download
 * addresses (PDF, CSV), the staff comment, and report links (make, list, revoke).
 */
import type { CsvEncoding, CsvKind, ReportLinkSummary } from '@nemuri/shared/report/reportApi';
import type { RoomReport } from '@nemuri/shared/report/roomReport';
import { jsonRequest, stringField } from '../../lib/jsonRequest.ts';

export interface ReportSelection {
  roomIds: readonly string[];
  from: string;
  to: string;
}

/** An answer other than 2xx, with the server's code. */
export class ReportApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ReportApiError';
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const reply = await jsonRequest(method, path, body);
  if (!reply.ok) throw new ReportApiError(reply.status, stringField(reply.body, 'code') ?? 'internal', stringField(reply.body, 'message') ?? reply.text);
  return reply.body as T;
}

function queryOf(selection: ReportSelection): string {
  return new URLSearchParams({ rooms: selection.roomIds.join(','), from: selection.from, to: selection.to }).toString();
}

export async function fetchReports(selection: ReportSelection): Promise<RoomReport[]> {
  return (await call<{ reports: RoomReport[] }>('GET', `/api/reports/data?${queryOf(selection)}`)).reports;
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

export async function listLinks(roomId: string): Promise<ReportLinkSummary[]> {
  return (await call<{ links: ReportLinkSummary[] }>('GET', `/api/reports/rooms/${encodeURIComponent(roomId)}/links`)).links;
}

export function createLink(roomId: string, validDays: number): Promise<{ id: string; url: string; expiresAt: string }> {
  return call('POST', '/api/auth/report-access/links', { roomId, validDays });
}

export async function revokeLink(id: string): Promise<ReportLinkSummary> {
  return (await call<{ link: ReportLinkSummary }>('POST', `/api/reports/links/${encodeURIComponent(id)}/revoke`, {})).link;
}
