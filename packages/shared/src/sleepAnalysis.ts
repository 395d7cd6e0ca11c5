/**
 * A sleep day analysed again from the stored signals on request (server sleep/sleepPlugin.ts,
 * docs/api.md): `POST /api/rooms/:roomId/sleeps/:day/analysis` answers what was done.
 */
import { z } from 'zod/v3';

export const analyzedDaySchema = z
  .object({
    roomId: z.string(),
    day: z.string(),
    /** Signal frames read for the day. */
    frames: z.number().int(),
    /** False when the day's record came from an import, which is kept. */
    written: z.boolean(),
  })
  .strict();
export type AnalyzedDay = z.infer<typeof analyzedDaySchema>;
