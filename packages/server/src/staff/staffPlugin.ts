/**
 * Staff management beyond what a staff record holds (docs/api.md, "Staff").
 *   POST /api/staff/:domainId/:uid/second-factor/reset  → `{ reset: true }`
 *
 * Levels and `disabled` are edited on the staff record itself through the document engine, which
 * applies the staff rules of PRODUCT.md section 1 (its level guard) and the caller's scope; this
 * plugin makes the member's account follow those records (staffAccounts.ts).
 *
 * Resetting a member's second factor follows the same staff rules as editing their record: the
 * caller must be able to write the record (an administrator for members below level 3, levels 4
 * and above for everyone in scope), at level 3 or above, and not for themselves (their own second
 * factor is removed on the account page, with their password). Records the caller cannot see
 * answer 404, so that nobody learns who is staff elsewhere. Agency levels (50-51) see their
 * partners' staff but reset nobody's outside their own agency domain.
 */
import fp from 'fastify-plugin';
import { errorResponses } from '@nemuri/shared/apiErrors';
import { guardAllowsWrite, isAgencyLevel, type Claims } from '@nemuri/shared/documents/access';
import { collectionByName } from '@nemuri/shared/documents/collections';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { secondFactorResetSchema } from '@nemuri/shared/staff';
import { ApiError } from '../http/errors.ts';
import { resetSecondFactor, staffRecordFollower } from './staffAccounts.ts';

const STAFF = collectionByName('domains/staff');
const ID = /^[^/]{1,200}$/;

export const staffPlugin = fp(
  async (app) => {
    const { database } = app;
    const store = app.documents;
    // A member disabled or given another level: their live sockets close at once (live/socketRuntime.ts).
    const unsubscribe = app.changeFeed.subscribe(staffRecordFollower(database, app.log, (uid) => void app.live.userChanged(uid)));
    app.addHook('onClose', async () => unsubscribe());

    const administrator = (principal: Claims | null): Claims => {
      if (principal === null) throw new ApiError(401, 'unauthenticated', 'Sign in to use the data');
      if (principal.accessLevel < ROLE_LEVELS.administrator)
        throw new ApiError(403, 'permission-denied', 'Managing staff needs an administrator (level 3 or above)');
      return principal;
    };

    /** The staff record as the caller may see it; 404 when absent or out of their sight. */
    const staffRecord = async (claims: Claims, domainId: string, uid: string): Promise<Record<string, unknown>> => {
      const missing = new ApiError(404, 'not-found', `No staff member ${uid} in domain ${domainId}`);
      if (!ID.test(domainId) || !ID.test(uid)) throw missing;
      try {
        const found = await store.get(claims, `domains/${domainId}/staff/${uid}`);
        if (found === null) throw missing;
        return found.document;
      } catch (error) {
        if (error instanceof DocumentError && error.code === 'permission-denied') throw missing;
        throw error;
      }
    };

    app.post<{ Params: { domainId: string; uid: string } }>(
      '/api/staff/:domainId/:uid/second-factor/reset',
      {
        schema: {
          summary: "Removes a staff member's second factor",
          response: { 200: secondFactorResetSchema, ...errorResponses(400, 401, 403, 404) },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        const claims = administrator(request.principal);
        const { domainId, uid } = request.params;
        const record = await staffRecord(claims, domainId, uid);
        // An agency sees its partners' staff lists, but manages only its own people.
        if (isAgencyLevel(claims) && domainId !== claims.domainId) {
          throw new ApiError(403, 'permission-denied', 'An agency account manages the staff of its own agency only');
        }
        if (uid === claims.uid) throw new ApiError(400, 'invalid-argument', 'Remove your own second factor on the account page');
        if (STAFF === undefined || !guardAllowsWrite(STAFF, claims, record, record))
          throw new ApiError(403, 'permission-denied', 'You may not manage this staff member');
        if (!(await resetSecondFactor(database, claims, domainId, uid)))
          throw new ApiError(404, 'not-found', `Staff member ${uid} has no account in domain ${domainId}`);
        void app.live.userChanged(uid);
        request.log.info({ domainId, uid, by: claims.uid }, 'second factor reset');
        return { reset: true };
      },
    );
  },
  { name: 'staff', dependencies: ['documents', 'live', 'principal'], encapsulate: true },
);
