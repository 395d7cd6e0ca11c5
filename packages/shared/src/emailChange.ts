/**
 * Changing the e-mail address and taking a change back (server auth/emailChange.ts, /account-info
 * and /handleauth): the bodies and answers its route schemas check. The new address is read as the
 * account form checks it (EMAIL_PATTERN, after trimming) and kept in lower case.
 */
import { z } from 'zod/v3';
import { EMAIL_PATTERN } from './constants.ts';

export const changeEmailInput = z.object({ newEmail: z.string().trim().toLowerCase().regex(EMAIL_PATTERN, 'not an e-mail address') }).strict();
export type ChangeEmailInput = z.infer<typeof changeEmailInput>;

/** The token from a mailed link (/handleauth `changeEmail` or `recoverEmail`). */
export const emailLinkTokenInput = z.object({ token: z.string().min(1) }).strict();

/** The address the account has now. */
export const emailChanged = z.object({ email: z.string() }).strict();
