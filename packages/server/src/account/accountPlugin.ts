/**
 * The profile fields of /account-info that Better Auth does not keep: the phone number, and the
 * photo's bytes (Better Auth's `user.image` holds only the URL this plugin serves it at, so the
 * user record and every /api/me answer stay small).
 *   GET    /api/account/profile        → AccountProfile
 *   PUT    /api/account/profile/phone  `{ phoneNumber: string | null }` → AccountProfile
 *   PUT    /api/account/profile/photo  `{ dataUrl }` (PNG, JPEG or WebP, at most PHOTO_MAX_BYTES) → AccountProfile
 *   DELETE /api/account/profile/photo  → AccountProfile
 *   GET    /api/account/photos/:uid    → the image, to its owner and to whoever may read their staff record
 * Every write acts on the caller's own record only. A photo is read under the one scope rule of the
 * staff records (`domains/{user.domainId}/staff/{uid}` through the document engine: level, tenant
 * and the staff level guard), so it reaches no one the staff list would not show the user to; a
 * photo out of the caller's sight answers exactly as a missing one (404 `not-found`), as the
 * product answers every read out of scope. Table `account_profiles` (migration 006_account_profiles). The bodies are the shared schemas (route schemas, checked before the
 * handler); the photo's content (its first bytes, its decoded size) is checked here.
 */
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import {
  ACCOUNT_PROFILE_ERRORS,
  accountProfileSchema,
  isPhotoType,
  PHOTO_DATA_URL_MAX_LENGTH,
  PHOTO_MAX_BYTES,
  PHOTO_TYPES,
  phoneNumberInput,
  photoInput,
  type AccountProfile,
  type PhotoType,
} from '@nemuri/shared/accountProfile';
import { errorResponses } from '@nemuri/shared/apiErrors';
import { DocumentError } from '@nemuri/shared/documents/errors';
import { z } from 'zod/v3';
import type { Queryable } from '../database/database.ts';
import { ApiError } from '../http/errors.ts';
import { sendBytes } from '../http/sendBytes.ts';
import type { Principal } from '../auth/signedInUser.ts';
import type { ZodTypeProvider } from '../http/zodRouteSchemas.ts';

interface ProfileRow {
  phone_number: string | null;
  photo_version: string | null;
}

/** The first bytes each accepted type starts with: the declared type must match the content. */
const SIGNATURES: Record<PhotoType, (bytes: Uint8Array) => boolean> = {
  'image/png': (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47,
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': (b) => String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...b.subarray(8, 12)) === 'WEBP',
};

export class AccountInputError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'AccountInputError';
  }
}

/** The photo in a data URL, checked: type allowed, content of that type, size within the cap. */
export function decodePhoto(dataUrl: string): { type: PhotoType; bytes: Buffer } {
  if (dataUrl.length > PHOTO_DATA_URL_MAX_LENGTH)
    throw new AccountInputError(ACCOUNT_PROFILE_ERRORS.photoTooLarge, `the photo may have at most ${PHOTO_MAX_BYTES} bytes`);
  const match = /^data:([a-z/]+);base64,([A-Za-z0-9+/]+={0,2})$/.exec(dataUrl);
  const type = match?.[1] ?? '';
  if (match === null || !isPhotoType(type)) throw new AccountInputError(ACCOUNT_PROFILE_ERRORS.invalidPhoto, 'the photo must be PNG, JPEG or WebP');
  const bytes = Buffer.from(match[2] ?? '', 'base64');
  if (bytes.length > PHOTO_MAX_BYTES) throw new AccountInputError(ACCOUNT_PROFILE_ERRORS.photoTooLarge, `the photo may have at most ${PHOTO_MAX_BYTES} bytes`);
  if (bytes.length < 12 || !SIGNATURES[type](bytes)) throw new AccountInputError(ACCOUNT_PROFILE_ERRORS.invalidPhoto, `the content is not ${type}`);
  return { type, bytes };
}

function signedIn(principal: Principal | null, message = 'Sign in to change your account'): Principal {
  if (principal === null) throw new ApiError(401, 'unauthenticated', message);
  return principal;
}

function photoUrlOf(uid: string, version: string | null): string | null {
  return version === null ? null : `/api/account/photos/${encodeURIComponent(uid)}?v=${version}`;
}

function sendInputError(reply: FastifyReply, error: AccountInputError): FastifyReply {
  return reply.code(400).type('application/json; charset=utf-8').send({ code: 'invalid-argument', reason: error.reason, message: error.message });
}

const photoParams = z.object({ uid: z.string().min(1).max(200) }).strict();

/** A single path segment: a uid or domain id that cannot reach another record's path. */
const SEGMENT = /^[^/]{1,200}$/;

/** The caller's phone number for `/api/me`, null when none is stored. */
export async function phoneNumberOf(database: Queryable, uid: string): Promise<string | null> {
  const { rows } = await database.query<{ phone_number: string | null }>('select phone_number from account_profiles where user_id = $1', [uid]);
  return rows[0]?.phone_number ?? null;
}

export const accountPlugin = fp(
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const { database, documents } = app;
    const profileOf = async (uid: string): Promise<AccountProfile> => {
      const { rows } = await database.query<ProfileRow>('select phone_number, photo_version from account_profiles where user_id = $1', [uid]);
      const row = rows[0];
      return { phoneNumber: row?.phone_number ?? null, photoURL: photoUrlOf(uid, row?.photo_version ?? null) };
    };

    /**
     * Whether the caller may read the user's staff record, the scope the staff list has: the
     * document engine decides (level, tenant, an agency's partners, the level guard hiding
     * administrators from general staff). A user without one is seen by nobody else.
     */
    const photoOwnerVisible = async (principal: Principal, uid: string): Promise<boolean> => {
      if (!SEGMENT.test(uid)) return false;
      const { rows } = await database.query<{ domainId: string | null }>('select "domainId" from "user" where id = $1', [uid]);
      const domainId = rows[0]?.domainId;
      if (domainId === undefined || domainId === null || !SEGMENT.test(domainId)) return false;
      try {
        return (await documents.get(principal, `domains/${domainId}/staff/${uid}`)) !== null;
      } catch (error) {
        // Below the staff records' level (an individual user): out of sight, as the list would be.
        if (error instanceof DocumentError) return false;
        throw error;
      }
    };

    /** Better Auth's user record points at the photo (or at none), so the shell's avatar follows. */
    const pointUserAt = (uid: string, url: string | null) => database.query('update "user" set image = $1, "updatedAt" = now() where id = $2', [url, uid]);

    app.get(
      '/api/account/profile',
      { schema: { summary: "The caller's phone number and photo address", response: { 200: accountProfileSchema, ...errorResponses(401) } } },
      async (request, reply) => {
        const { uid } = signedIn(request.principal);
        reply.header('cache-control', 'no-store');
        return profileOf(uid);
      },
    );

    const profileWrite = (summary: string) => ({ summary, response: { 200: accountProfileSchema, ...errorResponses(400, 401, 413) } });

    app.put(
      '/api/account/profile/phone',
      { schema: { ...profileWrite('Set or clear the caller’s phone number'), body: phoneNumberInput } },
      async (request) => {
        const { uid } = signedIn(request.principal);
        const phone = request.body.phoneNumber;
        await database.query(
          `insert into account_profiles (user_id, phone_number) values ($1, $2)
       on conflict (user_id) do update set phone_number = excluded.phone_number, updated_at = now()`,
          [uid, phone],
        );
        return profileOf(uid);
      },
    );

    app.put(
      '/api/account/profile/photo',
      { bodyLimit: PHOTO_DATA_URL_MAX_LENGTH + 1024, schema: { ...profileWrite('Store the caller’s photo (PNG, JPEG or WebP data URL)'), body: photoInput } },
      async (request, reply) => {
        const { uid } = signedIn(request.principal);
        let photo: { type: PhotoType; bytes: Buffer };
        try {
          photo = decodePhoto(request.body.dataUrl);
        } catch (error) {
          if (error instanceof AccountInputError) return sendInputError(reply, error);
          throw error;
        }
        const version = Date.now().toString(36);
        await database.query(
          `insert into account_profiles (user_id, photo, photo_type, photo_version) values ($1, $2, $3, $4)
       on conflict (user_id) do update set photo = excluded.photo, photo_type = excluded.photo_type, photo_version = excluded.photo_version, updated_at = now()`,
          [uid, new Uint8Array(photo.bytes), photo.type, version],
        );
        await pointUserAt(uid, photoUrlOf(uid, version));
        return profileOf(uid);
      },
    );

    app.delete('/api/account/profile/photo', { schema: profileWrite('Remove the caller’s photo') }, async (request) => {
      const { uid } = signedIn(request.principal);
      await database.query('update account_profiles set photo = null, photo_type = null, photo_version = null, updated_at = now() where user_id = $1', [uid]);
      await pointUserAt(uid, null);
      return profileOf(uid);
    });

    app.get(
      '/api/account/photos/:uid',
      { schema: { summary: 'A user’s photo (the image itself)', params: photoParams, produces: PHOTO_TYPES, response: errorResponses(400, 401, 404) } },
      async (request, reply) => {
        const principal = signedIn(request.principal, 'Sign in to see photos');
        const { uid } = request.params;
        // Both looked up whatever either answers: a photo out of sight costs the same queries as a missing one.
        const [visible, { rows }] = await Promise.all([
          uid === principal.uid || photoOwnerVisible(principal, uid),
          database.query<{ photo: Uint8Array | null; photo_type: string | null }>('select photo, photo_type from account_profiles where user_id = $1', [uid]),
        ]);
        const row = rows[0];
        if (!visible || row?.photo === null || row?.photo === undefined || row.photo_type === null || !isPhotoType(row.photo_type))
          throw new ApiError(404, 'not-found', 'no photo');
        // The URL changes with every upload (?v=), so the browser may keep a copy.
        reply.header('cache-control', 'private, max-age=86400').header('x-content-type-options', 'nosniff').type(row.photo_type);
        return sendBytes(reply, Buffer.from(row.photo));
      },
    );
  },
  { name: 'account', dependencies: ['database', 'documents', 'principal'], encapsulate: true },
);
