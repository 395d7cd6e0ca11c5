/**
 * Device lending (docs/api.md "Device lending"; server borrows/): what the endpoints answer. The
 * device and its borrows are their records as the caller reads them through the document engine
 * (`devices/{serial}`, `devices/{serial}/borrows/{borrowId}`); null where the caller can no longer
 * read one after the change.
 */
import { z } from 'zod/v3';
import { storedRecordSchema } from './documents/answers.ts';

/** `POST …/borrows/:borrowId/return` (and, with `borrowId`, `POST …/borrows`). */
export const lendingResultSchema = z.object({ device: storedRecordSchema.nullable(), borrow: storedRecordSchema.nullable() }).strict();
export type LendingResult = z.infer<typeof lendingResultSchema>;

/** `POST /api/devices/:serial/borrows`: 201 with the new borrow's id. */
export const deviceLentSchema = lendingResultSchema.extend({ borrowId: z.string() }).strict();

/** `GET /api/devices/:serial/borrows`: newest first. */
export const borrowHistorySchema = z.object({ borrows: z.array(storedRecordSchema) }).strict();
