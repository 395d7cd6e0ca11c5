/**
 * Rate limits for sign-in, with Better Auth's own limiter. Its built-in memory store is one map
 * for the whole process, shared by every auth instance in it; this store holds the same counts
 * (a fixed window per client address and path) for one instance only, so each server started in
 * a process (tests, restarts) counts afresh. One process: counts are not shared between processes.
 */
import type { BetterAuthRateLimitOptions, BetterAuthRateLimitStorage } from '@better-auth/core';

/** Attempts per client address and minute. */
export const SIGN_IN_PER_MINUTE = 10;
export const SIGN_UP_PER_MINUTE = 10;
export const PASSWORD_RESET_PER_MINUTE = 5;
/** Second-factor codes (TOTP or backup code), at enrolment and at sign-in. */
export const SECOND_FACTOR_PER_MINUTE = 5;
/** Every other auth endpoint. */
export const OTHER_PER_MINUTE = 100;

/**
 * Better Auth answers a limited request with 429, an `X-Retry-After` header (seconds) and
 * `{ message }` only; authPlugin adds this code and a standard `Retry-After`.
 */
export const RATE_LIMITED_CODE = 'too-many-requests';

const perMinute = (max: number) => ({ window: 60, max });

/**
 * The limits, per client address and path. `max` (AUTH_RATE_LIMIT_MAX) replaces every limit,
 * for test setups where all clients share one address.
 */
export function rateLimitOptions(max: number | null = null): BetterAuthRateLimitOptions {
  const limit = (fallback: number) => perMinute(max ?? fallback);
  return {
    enabled: true,
    ...limit(OTHER_PER_MINUTE),
    customRules: {
      '/sign-in/email': limit(SIGN_IN_PER_MINUTE),
      '/sign-up/email': limit(SIGN_UP_PER_MINUTE),
      '/sign-in/anonymous': limit(SIGN_UP_PER_MINUTE),
      '/request-password-reset': limit(PASSWORD_RESET_PER_MINUTE),
      '/reset-password': limit(PASSWORD_RESET_PER_MINUTE),
      '/reset-password/*': limit(PASSWORD_RESET_PER_MINUTE),
      '/two-factor/verify-totp': limit(SECOND_FACTOR_PER_MINUTE),
      '/two-factor/verify-backup-code': limit(SECOND_FACTOR_PER_MINUTE),
      // The plugin's own rule (3 per 10 s for every /two-factor/ path) would also hold up enrolment.
      '/two-factor/*': limit(OTHER_PER_MINUTE),
    },
    customStorage: memoryRateLimitStorage(),
  };
}

interface Window {
  startedAt: number;
  count: number;
  expiresAt: number;
}

/** Pruning expired windows is due after this many new windows. */
const PRUNE_EVERY = 1000;

export function memoryRateLimitStorage(now: () => number = Date.now): BetterAuthRateLimitStorage {
  const windows = new Map<string, Window>();
  let sincePrune = 0;
  return {
    async consume(key, rule) {
      const at = now();
      const windowMs = rule.window * 1000;
      const current = windows.get(key);
      if (current === undefined || at - current.startedAt >= windowMs) {
        if (++sincePrune >= PRUNE_EVERY) {
          sincePrune = 0;
          for (const [other, window] of windows) if (window.expiresAt <= at) windows.delete(other);
        }
        windows.set(key, { startedAt: at, count: 1, expiresAt: at + windowMs });
        return { allowed: true, retryAfter: null };
      }
      if (current.count >= rule.max) {
        return { allowed: false, retryAfter: Math.max(1, Math.ceil((current.startedAt + windowMs - at) / 1000)) };
      }
      current.count += 1;
      return { allowed: true, retryAfter: null };
    },
  };
}
