/**
 * Every read of a report by a family member or doctor is recorded: the viewer's live report links
 * for the room get `lastAccessAt` and `accessCount`, and the engine's audit log keeps one entry per
 * read (who, when, which link). One small write per report request, none for staff.
 */
import type { Claims } from '@nemuri/shared/documents/access';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { DocumentStore } from '../documents/store.ts';

export async function recordReportAccess(store: DocumentStore, claims: Claims, roomIds: readonly string[]): Promise<void> {
  if (claims.accessLevel !== ROLE_LEVELS.individualUser) return;
  // The viewer may not write links; the server does, in the viewer's name (the audit log's `who`).
  const server: Claims = { uid: claims.uid, accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
  const now = Date.now();
  for (const roomId of roomIds) {
    const links = await store.query(server, {
      collection: 'reportAccess',
      where: [
        ['viewerUid', '==', claims.uid],
        ['roomId', '==', roomId],
      ],
      limit: 20,
    });
    for (const link of links) {
      const live = typeof link.expiresAt === 'string' && Date.parse(link.expiresAt) > now && (link.revokedAt === undefined || link.revokedAt === null);
      if (!live) continue;
      const count = typeof link.accessCount === 'number' ? link.accessCount : 0;
      await store.update(server, `reportAccess/${String(link.documentReferenceId)}`, { lastAccessAt: new Date(now).toISOString(), accessCount: count + 1 });
    }
  }
}
