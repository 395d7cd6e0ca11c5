/**
 * Linking and unlinking sign-in providers (/link, PRODUCT.md section 7), as checks in front of
 * Better Auth's /link-social, /sign-in/social and /unlink-account, with the specification's
 * messages: an unknown provider name is `invalid provider`; unlinking the only way in is
 * `cannot unlink the last provider`.
 */
import { APIError } from 'better-auth/api';

export const PROVIDER_ERRORS = {
  invalidProvider: { code: 'INVALID_PROVIDER', message: 'invalid provider' },
  lastProvider: { code: 'LAST_PROVIDER', message: 'cannot unlink the last provider' },
} as const;

interface HookContext {
  path: string;
  body?: unknown;
}

/** Throws when a social sign-in or link names a provider this installation does not offer. */
export function checkSocialProvider(ctx: HookContext, offered: readonly string[]): void {
  if (ctx.path !== '/link-social' && ctx.path !== '/sign-in/social') return;
  const provider = typeof ctx.body === 'object' && ctx.body !== null ? (ctx.body as { provider?: unknown }).provider : undefined;
  if (typeof provider !== 'string' || !offered.includes(provider)) throw new APIError('BAD_REQUEST', PROVIDER_ERRORS.invalidProvider);
}

/** Throws when unlinking would leave the user no way to sign in. */
export async function checkUnlink(ctx: HookContext, accountsOf: () => Promise<readonly { id: string }[] | null>): Promise<void> {
  if (ctx.path !== '/unlink-account') return;
  const accounts = await accountsOf();
  if (accounts === null) return;
  const accountId = typeof ctx.body === 'object' && ctx.body !== null ? (ctx.body as { accountId?: unknown }).accountId : undefined;
  if (typeof accountId !== 'string' || !accounts.some((account) => account.id === accountId))
    throw new APIError('BAD_REQUEST', PROVIDER_ERRORS.invalidProvider);
  if (accounts.length <= 1) throw new APIError('BAD_REQUEST', PROVIDER_ERRORS.lastProvider);
}
