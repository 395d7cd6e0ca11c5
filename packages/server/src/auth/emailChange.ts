/**
 * Changing the e-mail address, and taking a change back (/handleauth `recoverEmail`):
 *   POST /api/auth/email/change  { newEmail }   (a recent sign-in) mails a link to the new address
 *   POST /api/auth/email/confirm { token }      from that link: the address changes (verified), and the
 *                                               old address gets a mail with a link to undo it
 *   POST /api/auth/email/recover { token }      from that mail: the old address comes back and every
 *                                               session ends (someone else may have made the change)
 * Tokens are HMAC-signed with the sign-in secret and name the user, both addresses and an expiry;
 * each link works while the user's address is still what the token expects.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { APIError, createAuthEndpoint, sessionMiddleware } from 'better-auth/api';
import type { BetterAuthPlugin } from '@better-auth/core';
import { changeEmailInput, emailLinkTokenInput } from '@nemuri/shared/emailChange';
import type { MailMessage } from '../mail/mail.ts';
import { changeEmailMail, handleAuthUrl, recoverEmailMail } from '../mail/mailTexts.ts';

/** How long the link to the new address works. */
export const CHANGE_EMAIL_LINK_HOURS = 24;
/** How long the old address can take the change back. */
export const RECOVER_EMAIL_LINK_DAYS = 7;

interface EmailToken {
  kind: 'changeEmail' | 'recoverEmail';
  uid: string;
  from: string;
  to: string;
  /** ms since the epoch */
  exp: number;
}

export const EMAIL_CHANGE_ERRORS = {
  invalidEmail: { code: 'INVALID_EMAIL', message: 'Invalid email' },
  sameEmail: { code: 'EMAIL_IS_THE_SAME', message: 'Email is the same' },
  invalidToken: { code: 'INVALID_TOKEN', message: 'Invalid token' },
  expiredToken: { code: 'TOKEN_EXPIRED', message: 'Token expired' },
} as const;

function sign(secret: string, token: EmailToken): string {
  const body = Buffer.from(JSON.stringify(token)).toString('base64url');
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}

function verify(secret: string, raw: string, kind: EmailToken['kind']): EmailToken {
  const [body = '', mac = ''] = raw.split('.');
  const expected = createHmac('sha256', secret).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new APIError('BAD_REQUEST', EMAIL_CHANGE_ERRORS.invalidToken);
  const token = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as EmailToken;
  if (token.kind !== kind) throw new APIError('BAD_REQUEST', EMAIL_CHANGE_ERRORS.invalidToken);
  if (token.exp <= Date.now()) throw new APIError('BAD_REQUEST', EMAIL_CHANGE_ERRORS.expiredToken);
  return token;
}

export function emailChange({ baseURL, deliver }: { baseURL: string; deliver(message: MailMessage): void }) {
  return {
    id: 'nemuri-email-change',
    endpoints: {
      // The route schemas (ourAuthRoutes.ts) answer INVALID_EMAIL and INVALID_TOKEN for input off the schema.
      changeEmailRequest: createAuthEndpoint('/email/change', { method: 'POST', body: changeEmailInput, use: [sessionMiddleware] }, async (ctx) => {
        const { newEmail } = ctx.body;
        const { user } = ctx.context.session;
        if (newEmail === user.email.toLowerCase()) throw new APIError('BAD_REQUEST', EMAIL_CHANGE_ERRORS.sameEmail);
        // The answer is the same whether the address is taken: no account enumeration. A taken
        // address simply gets no mail; confirming would fail anyway.
        if ((await ctx.context.internalAdapter.findUserByEmail(newEmail)) === null) {
          const token = sign(ctx.context.secret, {
            kind: 'changeEmail',
            uid: user.id,
            from: user.email,
            to: newEmail,
            exp: Date.now() + CHANGE_EMAIL_LINK_HOURS * 3_600_000,
          });
          deliver(changeEmailMail(newEmail, handleAuthUrl(baseURL, 'changeEmail', token), CHANGE_EMAIL_LINK_HOURS));
        }
        return ctx.json({ status: true });
      }),

      changeEmailConfirm: createAuthEndpoint('/email/confirm', { method: 'POST', body: emailLinkTokenInput }, async (ctx) => {
        const token = verify(ctx.context.secret, ctx.body.token, 'changeEmail');
        const user = await ctx.context.internalAdapter.findUserById(token.uid);
        if (user === null || user.email.toLowerCase() !== token.from.toLowerCase()) throw new APIError('BAD_REQUEST', EMAIL_CHANGE_ERRORS.invalidToken);
        if ((await ctx.context.internalAdapter.findUserByEmail(token.to)) !== null)
          throw new APIError('BAD_REQUEST', { code: 'USER_ALREADY_EXISTS', message: 'User already exists' });
        await ctx.context.internalAdapter.updateUser(user.id, { email: token.to, emailVerified: true });
        const recover = sign(ctx.context.secret, {
          kind: 'recoverEmail',
          uid: user.id,
          from: token.from,
          to: token.to,
          exp: Date.now() + RECOVER_EMAIL_LINK_DAYS * 86_400_000,
        });
        deliver(recoverEmailMail(token.from, token.to, handleAuthUrl(baseURL, 'recoverEmail', recover), RECOVER_EMAIL_LINK_DAYS));
        return ctx.json({ email: token.to });
      }),

      recoverEmail: createAuthEndpoint('/email/recover', { method: 'POST', body: emailLinkTokenInput }, async (ctx) => {
        const token = verify(ctx.context.secret, ctx.body.token, 'recoverEmail');
        const user = await ctx.context.internalAdapter.findUserById(token.uid);
        if (user === null || user.email.toLowerCase() !== token.to.toLowerCase()) throw new APIError('BAD_REQUEST', EMAIL_CHANGE_ERRORS.invalidToken);
        await ctx.context.internalAdapter.updateUser(user.id, { email: token.from, emailVerified: true });
        await ctx.context.internalAdapter.deleteUserSessions(user.id);
        return ctx.json({ email: token.from });
      }),
    },
    rateLimit: [{ pathMatcher: (path: string) => path.startsWith('/email/'), window: 60, max: 10 }],
  } satisfies BetterAuthPlugin;
}
