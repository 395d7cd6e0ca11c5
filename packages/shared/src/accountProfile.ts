/**
 * Rules for the profile fields of /account-info that Better Auth does not keep (phone number) or
 * keeps without limits (photo): the browser checks them for a quick answer, the server
 * (server account/accountPlugin.ts) enforces them: its route schemas are the request bodies below.
 */
import { z } from 'zod/v3';

/** Longest phone number accepted as typed (digits, hyphens, spaces, brackets, a leading +81). */
export const PHONE_MAX_LENGTH = 20;

/**
 * A Japanese phone number in its national form, digits only (`09012345678`), or null when it is not
 * one: 10 digits for fixed lines and 0120, 11 digits for mobiles (070/080/090), 050 and 0800. The
 * international form `+81 90-1234-5678` is accepted and turned into the national one.
 */
export function normalizePhoneNumber(input: string): string | null {
  const trimmed = input.trim();
  if (trimmed.length === 0 || trimmed.length > PHONE_MAX_LENGTH) return null;
  if (!/^\+?[\d\s\-()（）－]+$/.test(trimmed)) return null;
  let digits = trimmed.replace(/[^\d+]/g, '');
  if (digits.startsWith('+81')) digits = `0${digits.slice(3).replace(/^0/, '')}`;
  if (digits.includes('+')) return null;
  if (/^0[5789]0\d{8}$/.test(digits) || /^0800\d{7}$/.test(digits)) return digits;
  if (/^0[1-9]\d{8}$/.test(digits) && !/^0[5789]0/.test(digits)) return digits;
  return null;
}

/** A national number written with hyphens for display: mobiles 3-4-4, Tokyo and Osaka 2-4-4, others 3-3-4 or as given. */
export function formatPhoneNumber(digits: string): string {
  if (/^0[5789]0\d{8}$/.test(digits)) return `${digits.slice(0, 3)}-${digits.slice(3, 7)}-${digits.slice(7)}`;
  if (/^0120\d{6}$/.test(digits) || /^0800\d{7}$/.test(digits)) return `${digits.slice(0, 4)}-${digits.slice(4, 7)}-${digits.slice(7)}`;
  if (/^0[36]\d{8}$/.test(digits)) return `${digits.slice(0, 2)}-${digits.slice(2, 6)}-${digits.slice(6)}`;
  if (/^0\d{9}$/.test(digits)) return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
  return digits;
}

/** Image types a profile photo may have (no SVG: it can carry script). */
export const PHOTO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];

/** Largest stored photo, in bytes. The browser scales a picture down to PHOTO_MAX_PIXELS before sending it. */
export const PHOTO_MAX_BYTES = 256 * 1024;

/** Width and height a photo is scaled down to in the browser. */
export const PHOTO_MAX_PIXELS = 256;

/** Largest file the browser accepts to scale down (a phone camera picture). */
export const PHOTO_SOURCE_MAX_BYTES = 10 * 1024 * 1024;

export function isPhotoType(value: string): value is PhotoType {
  return (PHOTO_TYPES as readonly string[]).includes(value);
}

/** What GET /api/account/profile answers. */
export interface AccountProfile {
  /** National form, digits only; null when none is set. */
  phoneNumber: string | null;
  /** Where the photo is served (`/api/account/photos/:uid?v=…`), or null. */
  photoURL: string | null;
}

/** Error codes of the account endpoints, beside the API's usual `{ code, message }`. */
export const ACCOUNT_PROFILE_ERRORS = {
  invalidPhone: 'invalid-phone',
  invalidPhoto: 'invalid-photo',
  photoTooLarge: 'photo-too-large',
} as const;

/** A data URL's base64 text is 4/3 of the bytes; a longer one is refused before decoding. */
export const PHOTO_DATA_URL_MAX_LENGTH = Math.ceil((PHOTO_MAX_BYTES * 4) / 3) + 64;

/** The data URL forms accepted: an allowed type, then base64. */
const PHOTO_DATA_URL = /^data:(image\/png|image\/jpeg|image\/webp);base64,[A-Za-z0-9+/]+={0,2}$/;

/** `params.reason` of an issue becomes the 400 answer's `reason` (server http/zodRouteSchemas.ts). */
const because = (reason: string) => ({ reason });

/** PUT /api/account/profile/phone: a number in any accepted form, stored in its national form; null or blank clears it. */
export const phoneNumberInput = z
  .object({
    phoneNumber: z
      .string()
      .max(PHONE_MAX_LENGTH)
      .nullable()
      .superRefine((value, ctx) => {
        if (value !== null && value.trim() !== '' && normalizePhoneNumber(value) === null)
          ctx.addIssue({ code: 'custom', message: 'not a Japanese phone number', params: because(ACCOUNT_PROFILE_ERRORS.invalidPhone) });
      })
      .transform((value) => (value === null || value.trim() === '' ? null : normalizePhoneNumber(value))),
  })
  .strict();

/** PUT /api/account/profile/photo: the photo as a data URL of an allowed type (its content is checked by the server). */
export const photoInput = z
  .object({
    dataUrl: z
      .string()
      .max(PHOTO_DATA_URL_MAX_LENGTH)
      .superRefine((value, ctx) => {
        if (value.length > PHOTO_DATA_URL_MAX_LENGTH)
          ctx.addIssue({
            code: 'custom',
            message: `the photo may have at most ${PHOTO_MAX_BYTES} bytes`,
            params: because(ACCOUNT_PROFILE_ERRORS.photoTooLarge),
          });
        else if (!PHOTO_DATA_URL.test(value))
          ctx.addIssue({ code: 'custom', message: 'the photo must be a PNG, JPEG or WebP data URL', params: because(ACCOUNT_PROFILE_ERRORS.invalidPhoto) });
      }),
  })
  .strict();

/** GET /api/account/profile and every profile write answer this. */
export const accountProfileSchema = z.object({ phoneNumber: z.string().nullable(), photoURL: z.string().nullable() }).strict();
