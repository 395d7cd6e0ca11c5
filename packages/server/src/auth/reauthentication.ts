/**
 * Reauthentication before sensitive changes (PRODUCT.md section 7): linking or unlinking a way to
 * sign in, changing the e-mail address. Those need a session younger than FRESH_SESSION_SECONDS;
 * an older one gets `SESSION_NOT_FRESH`, and the user proves who they are again:
 *   POST /api/auth/reauthenticate { password }   for users with a password: a fresh session replaces the current one
 * Users without a password sign in again with their provider (/sign-in/social), which also gives
 * a fresh session. Both act on the current user only.
 */
import { APIError, createAuthEndpoint, getSessionFromCtx, sessionMiddleware } from 'better-auth/api';
import { setSessionCookie } from 'better-auth/cookies';
import type { BetterAuthPlugin } from '@better-auth/core';
import { reauthenticateInput } from '@nemuri/shared/reauthentication';

/** How long a sign-in counts as recent for sensitive changes. */
export const FRESH_SESSION_SECONDS = 15 * 60;

/** Endpoints that change how a user signs in (Better Auth guards unlinking itself too, after our checks). */
const SENSITIVE_PATHS = new Set(['/link-social', '/unlink-account', '/email/change']);

export const REAUTHENTICATION_ERRORS = {
  notFresh: { code: 'SESSION_NOT_FRESH', message: 'Session is not fresh' },
  invalidPassword: { code: 'INVALID_PASSWORD', message: 'Invalid password' },
  noPassword: { code: 'CREDENTIAL_ACCOUNT_NOT_FOUND', message: 'this account has no password: sign in again with its provider' },
} as const;

export function reauthentication() {
  return {
    id: 'nemuri-reauthentication',
    endpoints: {
      // The body's route schema (ourAuthRoutes.ts) answers INVALID_PASSWORD for a missing password.
      reauthenticate: createAuthEndpoint('/reauthenticate', { method: 'POST', body: reauthenticateInput, use: [sessionMiddleware] }, async (ctx) => {
        const { password } = ctx.body;
        const { session, user } = ctx.context.session;
        const account = await ctx.context.internalAdapter.findCredentialAccount(user.id);
        if (!account?.password) throw new APIError('BAD_REQUEST', REAUTHENTICATION_ERRORS.noPassword);
        if (!(await ctx.context.password.verify({ hash: account.password, password })))
          throw new APIError('BAD_REQUEST', REAUTHENTICATION_ERRORS.invalidPassword);
        const fresh = await ctx.context.internalAdapter.createSession(user.id);
        await setSessionCookie(ctx, { session: fresh, user });
        await ctx.context.internalAdapter.deleteSession(session.token);
        return ctx.json({ status: true });
      }),
    },
    rateLimit: [{ pathMatcher: (path: string) => path === '/reauthenticate', window: 60, max: 10 }],
  } satisfies BetterAuthPlugin;
}

/** Throws SESSION_NOT_FRESH for a sensitive change on a session older than FRESH_SESSION_SECONDS (auth.ts's before hook). */
export async function checkFreshSession(ctx: Parameters<typeof getSessionFromCtx>[0] & { path?: string }): Promise<void> {
  if (ctx.path === undefined || !SENSITIVE_PATHS.has(ctx.path)) return;
  const found = await getSessionFromCtx(ctx);
  if (found === null) return;
  if (Date.now() - new Date(found.session.createdAt).getTime() >= FRESH_SESSION_SECONDS * 1000)
    throw new APIError('FORBIDDEN', REAUTHENTICATION_ERRORS.notFresh);
}
