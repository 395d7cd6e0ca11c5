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

export const REPORT_LINK_STATES = ['unused', 'inUse', 'expired', 'revoked'] as const;
export type ReportLinkState = (typeof REPORT_LINK_STATES)[number];

/** PUT /api/reports/rooms/:roomId/comment answers the comment as kept (trimmed; null when cleared). */
export const reportCommentAnswerSchema = z.object({ comment: z.string().nullable() }).strict();
export type ReportCommentAnswer = z.infer<typeof reportCommentAnswerSchema>;

/**
 * GET /api/reports/rooms/:roomId/links?limit&cursor: a keyset page of the room's links, newest
 * first; `nextCursor` (the last link's id) asks for the next page, null on the last.
 */
export const REPORT_LINKS_DEFAULT_PAGE = 20;
export const REPORT_LINKS_MAX_PAGE = 200;

/** A report link as administrators see it listed (never its token or the token's hash). */
export const reportLinkSummarySchema = z
  .object({
    id: z.string(),
    roomId: z.string(),
    createdAt: z.string().nullable(),
    createdBy: z.string(),
    expiresAt: z.string(),
    revokedAt: z.string().nullable(),
    /** Whether someone has opened the link (it then serves that person only). */
    redeemed: z.boolean(),
    lastAccessAt: z.string().nullable(),
    accessCount: z.number().int(),
    state: z.enum(REPORT_LINK_STATES),
  })
  .strict();
export type ReportLinkSummary = z.infer<typeof reportLinkSummarySchema>;

export const reportLinksPageSchema = z.object({ links: z.array(reportLinkSummarySchema), nextCursor: z.string().nullable() }).strict();
export type ReportLinksPage = z.infer<typeof reportLinksPageSchema>;

/** POST /api/reports/links/:id/revoke: the link as it now is (revoking twice answers it unchanged). */
export const reportLinkRevokedSchema = z.object({ link: reportLinkSummarySchema }).strict();

export function linkStateOf(link: { expiresAt: string; revokedAt: string | null; redeemed: boolean }, now = Date.now()): ReportLinkState {
  if (link.revokedAt !== null) return 'revoked';
  if (!(Date.parse(link.expiresAt) > now)) return 'expired';
  return link.redeemed ? 'inUse' : 'unused';
}
