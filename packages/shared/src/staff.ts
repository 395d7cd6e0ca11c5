/**
 * Staff management beyond the staff record (docs/api.md "Staff"; server staff/staffPlugin.ts): what
 * `POST /api/staff/:domainId/:uid/second-factor/reset` answers once the member's second factor is gone.
 */
import { z } from 'zod/v3';

export const secondFactorResetSchema = z.object({ reset: z.literal(true) }).strict();
export type SecondFactorReset = z.infer<typeof secondFactorResetSchema>;
