/**
 * Per-account sign-in throttling (docs/security.md, "Sign-in throttling"), on top of the limits per
 * client address (rateLimit.ts): those alone let 5 addresses try 50 passwords a minute on one
 * account. After ACCOUNT_LOCK.failures consecutive wrong passwords for one e-mail address, from any
 * addresses, sign-in with that address is refused with 429 for ACCOUNT_LOCK.seconds, the right
 * password included, and the account's owner gets a mail. A successful sign-in outside a lock
 * resets the count. Unknown addresses are counted and locked exactly like known ones (same status,
 * same work), so the lock tells nothing about which addresses have accounts; only the mail, which
 * the owner alone reads, depends on it.
 *
 * Second-factor codes have Better Auth's own per-account lock (two-factor `accountLockout`, kept in
 * its twoFactor table): auth.ts sets it to the same duration, and this plugin mails the owner when it
 * locks, since it means that someone knows the password.
 *
 * The counts live in the database (the `signInThrottle` table, created with Better Auth's tables
 * from this plugin's schema): they survive restarts and are shared by every server process.
 */
import { randomUUID } from 'node:crypto';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import type { BetterAuthPlugin } from '@better-auth/core';
import type { Queryable } from '../database/database.ts';

export interface AccountLockPolicy {
  /** Consecutive failures (none more than `seconds` apart) that lock the account. */
  failures: number;
  /** How long a lock lasts. */
  seconds: number;
}

/** AUTH_ACCOUNT_LOCK_FAILURES and AUTH_ACCOUNT_LOCK_SECONDS when unset. */
export const ACCOUNT_LOCK: AccountLockPolicy = { failures: 5, seconds: 15 * 60 };

/**
 * Second-factor codes: Better Auth's default (10, NIST SP 800-63B section 5.2.2 allows up to 100).
 * Each sign-in challenge allows 5 codes, so an attacker who has the password spends two challenges.
 */
export const SECOND_FACTOR_LOCK_FAILURES = 10;

/** The answer while an account is locked; authPlugin answers 429 as `{ code: 'too-many-requests', message }`. */
export const ACCOUNT_LOCKED = {
  code: 'ACCOUNT_TEMPORARILY_LOCKED',
  message: 'Too many failed sign-in attempts for this account. Please try again later.',
} as const;

export type LockedStep = 'password' | 'secondFactor';

export interface SignInThrottleOptions {
  database: Queryable;
  policy: AccountLockPolicy;
  /** Mails the owner of `email` that sign-in was locked (called only for existing accounts). */
  notify(email: string, step: LockedStep): void;
  log?: { error(details: object, message: string): void };
}

const TABLE = '"signInThrottle"';
const SIGN_IN_PATH = '/sign-in/email';
const SECOND_FACTOR_PATHS = new Set(['/two-factor/verify-totp', '/two-factor/verify-backup-code', '/two-factor/verify-otp']);
/** Rows of addresses that stopped failing are pruned after this many recorded failures. */
const PRUNE_EVERY = 500;

function emailOf(body: unknown): string | null {
  const email = typeof body === 'object' && body !== null ? (body as { email?: unknown }).email : undefined;
  // As Better Auth looks the address up.
  return typeof email === 'string' && email !== '' ? email.toLowerCase() : null;
}

export function signInThrottle({ database, policy, notify, log }: SignInThrottleOptions) {
  let sincePrune = 0;

  /** Seconds until the lock on `email` ends; null when it is not locked. */
  const lockedFor = async (email: string): Promise<number | null> => {
    const { rows } = await database.query<{ seconds: number }>(
      `select greatest(1, ceil(extract(epoch from ("lockedUntil" - now()))))::int as seconds from ${TABLE} where email = $1 and "lockedUntil" > now()`,
      [email],
    );
    return rows[0]?.seconds ?? null;
  };

  /** Counts a failure; locks the account when it is the last one allowed. True when this call locked it. */
  const recordFailure = async (email: string): Promise<boolean> => {
    const { rows } = await database.query<{ failures: number }>(
      `insert into ${TABLE} (id, email, failures, "lastFailureAt", "lockedUntil") values ($1, $2, 1, now(), null)
       on conflict (email) do update set
         failures = case when ${TABLE}."lastFailureAt" < now() - make_interval(secs => $3::float8) then 1 else ${TABLE}.failures + 1 end,
         "lastFailureAt" = now()
       returning failures`,
      [randomUUID(), email, policy.seconds],
    );
    if (++sincePrune >= PRUNE_EVERY) {
      sincePrune = 0;
      await database.query(
        `delete from ${TABLE} where "lastFailureAt" < now() - make_interval(secs => $1::float8) and ("lockedUntil" is null or "lockedUntil" < now())`,
        [policy.seconds],
      );
    }
    if ((rows[0]?.failures ?? 0) < policy.failures) return false;
    // Only the request that sets the lock mails: concurrent failures find it set.
    const locked = await database.query(
      `update ${TABLE} set "lockedUntil" = now() + make_interval(secs => $2::float8), failures = 0
        where email = $1 and ("lockedUntil" is null or "lockedUntil" <= now())`,
      [email, policy.seconds],
    );
    return locked.rowCount === 1;
  };

  /** Mails the owner, if the address has an account; in the background, so that timing tells nothing. */
  const notifyOwner = (email: string, step: LockedStep): void => {
    database
      .query<{ email: string }>('select email from "user" where email = $1', [email])
      .then(({ rows }) => {
        if (rows[0] !== undefined) notify(rows[0].email, step);
      })
      .catch((error: unknown) => log?.error({ err: error }, 'sign-in lock: the owner could not be told'));
  };

  return {
    id: 'nemuri-sign-in-throttle',
    schema: {
      signInThrottle: {
        fields: {
          email: { type: 'string', required: true, unique: true, input: false },
          failures: { type: 'number', required: true, defaultValue: 0, input: false },
          lastFailureAt: { type: 'date', required: true, input: false },
          lockedUntil: { type: 'date', required: false, input: false },
        },
      },
    },
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === SIGN_IN_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const email = emailOf(ctx.body);
            if (email === null) return;
            const seconds = await lockedFor(email);
            if (seconds !== null) throw new APIError('TOO_MANY_REQUESTS', ACCOUNT_LOCKED, { 'X-Retry-After': String(seconds) });
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === SIGN_IN_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const email = emailOf(ctx.body);
            if (email === null) return;
            const returned: unknown = ctx.context.returned;
            if (isAPIError(returned)) {
              // Only a wrong password (or unknown address) counts; a malformed request or a disabled member does not.
              if (returned.statusCode !== 401) return;
              if (await recordFailure(email)) notifyOwner(email, 'password');
              return;
            }
            // Signed in, or the password was right and a second factor is due.
            await database.query(`delete from ${TABLE} where email = $1 and ("lockedUntil" is null or "lockedUntil" <= now())`, [email]);
          }),
        },
        {
          matcher: (ctx) => ctx.path !== undefined && SECOND_FACTOR_PATHS.has(ctx.path),
          handler: createAuthMiddleware(async (ctx) => {
            const returned: unknown = ctx.context.returned;
            // A wrong code (401); not the 429 of attempts refused while locked.
            if (!isAPIError(returned) || returned.statusCode !== 401) return;
            // The challenge of a sign-in names the user (Better Auth's two-factor cookie).
            const challenge = await ctx.getSignedCookie(ctx.context.createAuthCookie('two_factor').name, ctx.context.secret);
            if (!challenge) return;
            const verification = await ctx.context.internalAdapter.findVerificationValue(challenge);
            if (!verification) return;
            const { rows } = await database.query<{ email: string }>(
              `select u.email from "twoFactor" t join "user" u on u.id = t."userId"
                where t."userId" = $1 and t."lockedUntil" > now() and t."failedVerificationCount" = $2`,
              [verification.value, SECOND_FACTOR_LOCK_FAILURES],
            );
            // The failure that set the lock is the one that reached the count exactly.
            if (rows[0] !== undefined) notify(rows[0].email, 'secondFactor');
          }),
        },
      ],
    },
  } satisfies BetterAuthPlugin;
}
