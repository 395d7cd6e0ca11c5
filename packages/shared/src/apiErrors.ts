/**
 * What every API error answers (server http/errors.ts): `{ code, message }` with the HTTP status, and
 * `reason` where a route names a finer cause a screen picks its message by. Route schemas list it
 * under each error status they can answer, so the OpenAPI document shows it.
 */
import { z } from 'zod/v3';

export const apiErrorBody = z
  .object({
    /** `invalid-argument`, `unauthenticated`, `permission-denied`, `not-found`, `already-exists`, `failed-precondition`, `too-many-requests`, … */
    code: z.string().min(1),
    message: z.string(),
    reason: z.string().optional(),
  })
  .strict();
export type ApiErrorBody = z.infer<typeof apiErrorBody>;

/** The statuses an error may answer with, as route schemas name them. */
export type ApiErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 412 | 413 | 415 | 429 | 503;

/** `{ 400: apiErrorBody, 401: apiErrorBody, … }` for a route schema's `response`. */
export function errorResponses<S extends ApiErrorStatus>(...statuses: S[]): Record<S, typeof apiErrorBody> {
  return Object.fromEntries(statuses.map((status) => [status, apiErrorBody])) as Record<S, typeof apiErrorBody>;
}

/** `{ 204: noContent }`: the route answers 204 with no body (the OpenAPI document shows it without content). */
export const noContent = z.undefined();
