/**
 * Report links (/register-report-access-user): an administrator gives a family member or doctor
 * read access to one room's reports through a link. A Better Auth plugin (under /api/auth):
 *   POST /report-access/links { roomId, validDays? }   a new link (level 3+, the room in scope)
 *   GET  /report-access/preview?token=…                what the link page shows
 *   POST /report-access/redeem { token }                the signed-in level-1 user (often anonymous,
 *                                                       signed in on that page) becomes a report viewer
 * Bodies and queries are the shared schemas, checked by their route schemas (auth/ourAuthRoutes.ts:
 * a missing token answers as an unknown one) before the endpoint runs. Only a hash of the token is stored (`reportAccess.tokenHash`). A link serves one person: once
 * redeemed, it keeps working for that person only. Viewers read the room and its sleep records
 * (access.ts REPORT_COLLECTIONS), nothing else, and only while the link is neither expired nor
 * revoked (documents/store.ts scopeOf). Listing and revoking links: reports/reportLinks.ts.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { APIError, createAuthEndpoint, sessionMiddleware } from 'better-auth/api';
import type { BetterAuthPlugin } from '@better-auth/core';
import type { Claims } from '@nemuri/shared/documents/access';
import { DocumentError } from '@nemuri/shared/documents/errors';
import {
  createReportLinkInput,
  redeemReportLinkInput,
  REGISTRATION_ERRORS,
  REPORT_LINK_DEFAULT_DAYS,
  REPORT_LINK_ERRORS,
  reportLinkTokenQuery,
  type InvitationStatus,
  type ReportLinkPreview,
} from '@nemuri/shared/registration';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { DocumentStore } from '../documents/store.ts';
import { claimsOfAuthUser, type AuthUserFields, type SecondFactorPolicy } from '../auth/secondFactorPolicy.ts';

interface ReportAccess {
  roomId: string;
  createdBy: string;
  tokenHash: string;
  expiresAt: string;
  viewerUid?: string | null;
  /** Set by an administrator's revocation (reports/reportLinks.ts). */
  revokedAt?: string | null;
}

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export function reportAccessUrl(baseURL: string, token: string): string {
  const url = new URL('/register-report-access-user', baseURL);
  url.searchParams.set('token', token);
  return url.toString();
}

export function reportAccess({ documents: store, secondFactor, baseURL }: { documents: DocumentStore; secondFactor: SecondFactorPolicy; baseURL: string }) {
  const system = (uid: string): Claims => ({ uid, accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null });

  const find = async (token: string): Promise<{ id: string; access: ReportAccess }> => {
    const found = await store.lookup(system('report-access'), { collection: 'reportAccess', field: 'tokenHash', value: hashOf(token) });
    if (found === null) throw new APIError('NOT_FOUND', { code: REPORT_LINK_ERRORS.notFound, message: 'no such report link' });
    return { id: String(found.documentReferenceId), access: found as unknown as ReportAccess };
  };

  const statusOf = (access: ReportAccess, viewer?: string): InvitationStatus => {
    // A revoked link reads as an expired one: either way it no longer opens anything.
    if (Date.parse(access.expiresAt) <= Date.now() || (typeof access.revokedAt === 'string' && access.revokedAt !== '')) return 'expired';
    return typeof access.viewerUid === 'string' && access.viewerUid !== '' && access.viewerUid !== viewer ? 'used' : 'valid';
  };

  return {
    id: 'nemuri-report-access',
    endpoints: {
      createReportLink: createAuthEndpoint('/report-access/links', { method: 'POST', body: createReportLinkInput, use: [sessionMiddleware] }, async (ctx) => {
        const { roomId, validDays } = ctx.body;
        const claims = await claimsOfAuthUser(ctx.context.session.user as AuthUserFields, secondFactor);
        const token = randomBytes(24).toString('base64url');
        const id = randomUUID();
        const expiresAt = new Date(Date.now() + (validDays ?? REPORT_LINK_DEFAULT_DAYS) * 86_400_000).toISOString();
        try {
          // The engine checks the level (administrator) and that the room is in the caller's scope.
          if ((await store.get(claims, `rooms/${roomId}`)) === null) throw new DocumentError('permission-denied', 'no such room in your scope');
          await store.set(claims, `reportAccess/${id}`, { roomId, createdBy: claims.uid, tokenHash: hashOf(token), expiresAt }, false);
        } catch (error) {
          if (error instanceof DocumentError)
            throw new APIError(error.code === 'invalid-argument' ? 'BAD_REQUEST' : 'FORBIDDEN', {
              code: REGISTRATION_ERRORS.invitationNotAllowed,
              message: error.message,
            });
          throw error;
        }
        return ctx.json({ id, url: reportAccessUrl(baseURL, token), expiresAt });
      }),

      previewReportLink: createAuthEndpoint('/report-access/preview', { method: 'GET', query: reportLinkTokenQuery }, async (ctx) => {
        const { access } = await find(ctx.query.token);
        const room = await store.get(system('report-access'), `rooms/${access.roomId}`);
        const preview: ReportLinkPreview = {
          roomId: access.roomId,
          roomName: typeof room?.document.name === 'string' ? room.document.name : '',
          expiresAt: access.expiresAt,
          status: statusOf(access),
        };
        return ctx.json(preview);
      }),

      redeemReportLink: createAuthEndpoint('/report-access/redeem', { method: 'POST', body: redeemReportLinkInput, use: [sessionMiddleware] }, async (ctx) => {
        const user = ctx.context.session.user as AuthUserFields;
        if ((user.accessLevel ?? 0) > ROLE_LEVELS.individualUser)
          throw new APIError('FORBIDDEN', { code: REPORT_LINK_ERRORS.forViewersOnly, message: 'report links are for family members and doctors' });
        const { id, access } = await find(ctx.body.token);
        const status = statusOf(access, user.id);
        if (status === 'expired') throw new APIError('GONE', { code: REPORT_LINK_ERRORS.expired, message: 'this report link has expired' });
        if (status === 'used') throw new APIError('GONE', { code: REPORT_LINK_ERRORS.used, message: 'this report link has been used by someone else' });
        await store.commit(system(user.id), {
          reads: [],
          writes: [
            { op: 'update', path: `reportAccess/${id}`, data: { viewerUid: user.id } },
            { op: 'update', path: `rooms/${access.roomId}`, data: { reportViewerUids: [...new Set([...(await viewersOf(access.roomId)), user.id])] } },
          ],
        });
        return ctx.json({ roomId: access.roomId });
      }),
    },
    rateLimit: [{ pathMatcher: (path: string) => path.startsWith('/report-access/'), window: 60, max: 20 }],
  } satisfies BetterAuthPlugin;

  async function viewersOf(roomId: string): Promise<string[]> {
    const room = await store.get(system('report-access'), `rooms/${roomId}`);
    const viewers = room?.document.reportViewerUids;
    return Array.isArray(viewers) ? viewers.filter((uid): uid is string => typeof uid === 'string') : [];
  }
}
