/**
 * What the report endpoints (server reports/, docs/api.md "Reports") and the /report screen agree
 * on besides the numbers: the CSV choices, the comment body, and how a report link is listed.
 */
import { z } from 'zod/v3';
import { MAX_REPORT_COMMENT, reportQueryFields, withReportPeriod } from './period.ts';

export const CSV_KINDS = ['days', 'epochs'] as const;
export const CSV_ENCODINGS = ['utf8bom', 'sjis'] as const;
export type CsvKind = (typeof CSV_KINDS)[number];
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

/** `kind` and `encoding` of GET /api/reports/csv (the rooms and period: period.ts reportQueryFields). */
const csvOptions = { kind: z.enum(CSV_KINDS).default('days'), encoding: z.enum(CSV_ENCODINGS).default('utf8bom') };

/** GET /api/reports/csv: the report's rooms and period, which CSV in which encoding, nothing else. */
export const reportCsvQuery = withReportPeriod({ ...reportQueryFields, ...csvOptions });

/** PUT /api/reports/rooms/:roomId/comment; a blank comment clears it. */
export const reportCommentInput = z.object({ comment: z.string().max(MAX_REPORT_COMMENT).nullable() }).strict();

export type ReportLinkState = 'unused' | 'inUse' | 'expired' | 'revoked';

/**
 * GET /api/reports/rooms/:roomId/links?limit&cursor: a keyset page of the room's links, newest
 * first; `nextCursor` (the last link's id) asks for the next page, null on the last.
 */
export const REPORT_LINKS_DEFAULT_PAGE = 20;
export const REPORT_LINKS_MAX_PAGE = 200;

export interface ReportLinksPage {
  links: ReportLinkSummary[];
  nextCursor: string | null;
}

/** A report link as administrators see it listed (never its token or the token's hash). */
export interface ReportLinkSummary {
  id: string;
  roomId: string;
  createdAt: string | null;
  createdBy: string;
  expiresAt: string;
  revokedAt: string | null;
  /** Whether someone has opened the link (it then serves that person only). */
  redeemed: boolean;
  lastAccessAt: string | null;
  accessCount: number;
  state: ReportLinkState;
}

export function linkStateOf(link: { expiresAt: string; revokedAt: string | null; redeemed: boolean }, now = Date.now()): ReportLinkState {
  if (link.revokedAt !== null) return 'revoked';
  if (!(Date.parse(link.expiresAt) > now)) return 'expired';
  return link.redeemed ? 'inUse' : 'unused';
}
