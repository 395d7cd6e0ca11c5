/**
 * Proving again who the signed-in user is before a sensitive change (PRODUCT.md section 7): POST
 * /api/auth/reauthenticate with the password (server auth/reauthentication.ts). Its body and answer,
 * as the server's route schema checks them.
 */
import { z } from 'zod/v3';

export const reauthenticateInput = z.object({ password: z.string().min(1) }).strict();
export type ReauthenticateInput = z.infer<typeof reauthenticateInput>;

/** Better Auth's plain success answer, which these endpoints give too. */
export const authStatusAnswer = z.object({ status: z.literal(true) }).strict();
