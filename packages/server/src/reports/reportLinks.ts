/**
 * The administrator's side of report links (made at POST /api/auth/report-access/links): a room's
 * links with their state, and revoking one. Reads and writes go through the engine with the
 * administrator's claims, so the reportAccess rule (level 3+) and the room's scope apply.
 */
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { linkStateOf, type ReportLinksPage, type ReportLinkSummary } from '@nemuri/shared/report/reportApi';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { DocumentStore } from '../documents/store.ts';
import { keysetPage, UnknownCursor } from '../documents/keysetPage.ts';
import { ApiError } from '../http/errors.ts';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

function summaryOf(record: Record<string, unknown>): ReportLinkSummary {
  const base = {
    id: String(record.documentReferenceId),
    roomId: text(record.roomId) ?? '',
    createdAt: text(record.createdAt),
    createdBy: text(record.createdBy) ?? '',
    expiresAt: text(record.expiresAt) ?? new Date(0).toISOString(),
    revokedAt: text(record.revokedAt),
    redeemed: text(record.viewerUid) !== null,
    lastAccessAt: text(record.lastAccessAt),
    accessCount: typeof record.accessCount === 'number' ? record.accessCount : 0,
  };
  return { ...base, state: linkStateOf(base) };
}

function asApiError(error: unknown): unknown {
  if (error instanceof DocumentError && error.code === 'permission-denied')
    return new ApiError(403, 'permission-denied', "Report links are managed by administrators (level 3) of the room's facility");
  return error;
}

/**
 * A page of the room's links, newest first, keyset-paged (keysetPage.ts; the room must be in the
 * caller's scope: the caller checks that first). A cursor that is not a link of this room is 400.
 */
export async function reportLinksPage(
  store: DocumentStore,
  claims: Claims,
  roomId: string,
  limit: number,
  cursor: string | undefined,
): Promise<ReportLinksPage> {
  try {
    const page = await keysetPage(
      store,
      claims,
      { collection: 'reportAccess', where: [['roomId', '==', roomId]], orderBy: [['createdAt', 'desc']] },
      limit,
      cursor,
      (record) => record.roomId === roomId,
    );
    return { links: page.records.map(summaryOf), nextCursor: page.nextCursor };
  } catch (error) {
    if (error instanceof UnknownCursor) throw new ApiError(400, 'invalid-argument', error.message);
    throw asApiError(error);
  }
}

/**
 * Takes the viewer off the room's `reportViewerUids` unless another live link still gives them the
 * room. The scope check needs only the link; this change to the room also makes the viewer's open
 * live subscriptions evaluate their scope again at once (live/liveResults.ts).
 */
async function forgetViewer(store: DocumentStore, claims: Claims, roomId: string, viewer: string): Promise<void> {
  const links = await store.query(claims, {
    collection: 'reportAccess',
    where: [
      ['roomId', '==', roomId],
      ['viewerUid', '==', viewer],
    ],
    limit: 200,
  });
  if (links.some((link) => linkStateOf({ expiresAt: text(link.expiresAt) ?? '', revokedAt: text(link.revokedAt), redeemed: true }) === 'inUse')) return;
  const room = await store.get(claims, `rooms/${roomId}`);
  const viewers = room?.document.reportViewerUids;
  if (!Array.isArray(viewers) || !viewers.includes(viewer)) return;
  await store.update(claims, `rooms/${roomId}`, { reportViewerUids: viewers.filter((uid) => uid !== viewer) });
}

/** Revokes a link: from now on its viewer reads nothing through it (store.ts scopeOf checks every read). */
export async function revokeReportLink(store: DocumentStore, claims: Claims, id: string): Promise<ReportLinkSummary> {
  try {
    const found = await store.get(claims, `reportAccess/${id}`);
    if (found === null) throw new ApiError(404, 'not-found', `no report link ${id}`);
    if (text(found.document.revokedAt) !== null) return summaryOf(found.document);
    const updated = await store.update(claims, `reportAccess/${id}`, { revokedAt: new Date().toISOString() });
    const viewer = text(found.document.viewerUid);
    const roomId = text(found.document.roomId);
    if (viewer !== null && roomId !== null) await forgetViewer(store, claims, roomId, viewer);
    return summaryOf(updated ?? found.document);
  } catch (error) {
    // A link of a room outside the caller's scope answers like a missing one.
    if (error instanceof DocumentError && error.code === 'permission-denied' && claims.accessLevel >= ROLE_LEVELS.administrator)
      throw new ApiError(404, 'not-found', `no report link ${id}`);
    throw asApiError(error);
  }
}
