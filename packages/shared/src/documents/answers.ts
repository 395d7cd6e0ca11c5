/**
 * What the document engine answers over HTTP (/api/documents, docs/api.md "Documents"), for the
 * routes' response schemas and the OpenAPI document. A record's own fields are its collection's
 * (collections.ts), which the path chooses at run time; the answer's schema names the common fields
 * every record carries and leaves the rest open.
 */
import { z } from 'zod/v3';
import { apiErrorBody } from '../apiErrors.ts';

/** A record as read: its collection's fields plus the common ones the server sets (COMMON_FIELDS). */
export const storedRecordSchema = z.object({ documentReferenceId: z.string(), documentPath: z.string() }).passthrough();
export type StoredRecord = z.infer<typeof storedRecordSchema>;

/** `GET /api/documents/<path>`. */
export const documentReadSchema = z.object({ document: storedRecordSchema, version: z.number().int() }).strict();
/** `PUT` (always) and `PATCH` (unless the id was empty: `{}`). */
export const documentWrittenSchema = z.object({ document: storedRecordSchema.optional() }).strict();
/** `DELETE` and `POST /commit`. */
export const documentsDoneSchema = z.object({}).strict();
export const documentsQueryAnswerSchema = z.object({ documents: z.array(storedRecordSchema) }).strict();
export const documentsCountAnswerSchema = z.object({ count: z.number().int().min(0) }).strict();
export const documentLookupAnswerSchema = z.object({ document: storedRecordSchema.nullable() }).strict();

/** The engine's errors: the API's `{ code, message }`, plus each schema problem (DocumentIssue) when a record was refused. */
export const documentErrorBody = apiErrorBody
  .extend({ issues: z.array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() }).strict()).optional() })
  .strict();

/** The statuses the engine's errors answer (HTTP_STATUS_OF_CODE), and the API's own (body too large, fair share). */
export type DocumentErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 501;

export function documentErrorResponses<S extends DocumentErrorStatus>(...statuses: S[]): Record<S, typeof documentErrorBody> {
  return Object.fromEntries(statuses.map((status) => [status, documentErrorBody])) as Record<S, typeof documentErrorBody>;
}
