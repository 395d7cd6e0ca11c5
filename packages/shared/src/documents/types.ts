/**
 * Value types beyond JSON (PRODUCT.md section 6): GeoPoint `{ latitude, longitude }` and Bytes (a
 * base64 string on the wire), with the specification's messages.
 */
import { z } from 'zod/v3';
import { MESSAGES } from './errors.ts';

export const geoPoint = z
  .object({
    latitude: z.number().superRefine((value, ctx) => {
      if (value < -90 || value > 90) ctx.addIssue({ code: z.ZodIssueCode.custom, message: MESSAGES.latitude });
    }),
    longitude: z.number().superRefine((value, ctx) => {
      if (value < -180 || value > 180) ctx.addIssue({ code: z.ZodIssueCode.custom, message: MESSAGES.longitude });
    }),
  })
  .strict();

export type GeoPoint = z.infer<typeof geoPoint>;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function isBase64(value: string): boolean {
  return BASE64.test(value);
}

/** Bytes as standard base64 with padding. */
export const bytes = z.string().refine(isBase64, { message: MESSAGES.base64 });

/** A point in time on the wire: an ISO 8601 string with offset. */
export const timestamp = z.string().datetime({ offset: true });

/** A non-empty string (ids, names). */
export const nonEmpty = z.string().min(1);
