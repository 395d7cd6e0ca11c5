/**
 * Sign-in: Better Auth configured for Nemuri Monitor, on our own database through the Kysely
 * dialect. `createAuth` resolves the cookie secret, creates or updates Better Auth's tables (its
 * programmatic migration; its CLI does not run on Node 20) and returns the instance that
 * authPlugin mounts under /api/auth. Everything that Better Auth would otherwise decide from
 * NODE_ENV (rate limits, origin checks, Secure cookies, the client address) is set here
 * explicitly, so tests see what production does.
 */
import { betterAuth } from 'better-auth';
import { createAuthMiddleware, isAPIError } from 'better-auth/api';
import { getMigrations } from 'better-auth/db/migration';
import type { BetterAuthOptions } from '@better-auth/core';
import type { Config } from '../config.ts';
import type { Database } from '../database/database.ts';
import { DatabaseDialect } from '../database/kysely.ts';
import { AUTH_BASE_PATH, CLIENT_IP_HEADER, publicUrlOf } from './http.ts';
import { rateLimitOptions } from './rateLimit.ts';
import { resolveAuthSecret } from './secret.ts';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;

/** Mail that sign-in sends (password reset). Without it, such mail is dropped with a warning. */
export interface AuthMail {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

/** Where Better Auth's log lines go: Fastify's logger has these methods. */
export interface AuthLogger {
  debug(details: object, message: string): void;
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface CreateAuthOptions {
  config: Pick<Config, 'publicUrl' | 'authSecret' | 'authRateLimitMax'> & {
    /** The port the server listens on (the real one when PORT is 0). */
    port: number;
  };
  database: Database;
  mail?: AuthMail;
  logger?: AuthLogger;
}

/** Columns of our own on Better Auth's user table. None can be set through sign-up or update-user. */
export const USER_FIELDS = {
  accessLevel: { type: 'number', required: true, defaultValue: 1, input: false },
  domainId: { type: 'string', required: false, input: false },
  rootDomainId: { type: 'string', required: false, input: false },
} as const;

function authOptions({ config, database, mail, logger }: CreateAuthOptions, secret: string) {
  const baseURL = publicUrlOf(config);
  const secure = baseURL.startsWith('https:');
  const trustedOrigins = [...new Set([baseURL, `http://127.0.0.1:${config.port}`, `http://localhost:${config.port}`])];
  return {
    appName: 'Nemuri Monitor',
    baseURL,
    basePath: AUTH_BASE_PATH,
    secret,
    trustedOrigins,
    database: { dialect: new DatabaseDialect(database), type: 'postgres', transaction: true },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, url }: { user: { email: string }; url: string }) {
        if (mail === undefined) {
          logger?.warn({ to: user.email }, 'password reset requested, but no mail transport is configured: the mail is dropped');
          return;
        }
        await mail.send({
          to: user.email,
          subject: '【Nemuri Monitor】パスワードの再設定',
          text: `パスワードを再設定するには、1時間以内に次のリンクを開いてください。\n${url}\n\nお心当たりのない場合は、このメールを破棄してください。\n`,
        });
      },
    },
    user: { additionalFields: USER_FIELDS },
    hooks: {
      // A password change always signs out every other session (Better Auth leaves it to the
      // client's `revokeOtherSessions`); a reset does through revokeSessionsOnPasswordReset.
      before: createAuthMiddleware(async (ctx) => {
        if (ctx.path !== '/change-password' || typeof ctx.body !== 'object' || ctx.body === null) return;
        return { context: { ...ctx, body: { ...ctx.body, revokeOtherSessions: true } } };
      }),
    },
    rateLimit: rateLimitOptions(config.authRateLimitMax),
    advanced: {
      cookiePrefix: 'nemuri',
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure },
      // Both default to off under NODE_ENV=test: keep them on everywhere.
      disableCSRFCheck: false,
      disableOriginCheck: false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    // Better Auth prints refused requests (wrong password and the like) to the console itself
    // unless this is set: they go to our log instead, unexpected failures as errors.
    onAPIError: {
      onError(error: unknown) {
        if (isAPIError(error) && error.statusCode < 500) logger?.debug({ code: error.body?.code, status: error.statusCode }, `sign-in: ${error.message}`);
        else logger?.error({ err: error }, 'sign-in: request failed');
      },
    },
    telemetry: { enabled: false },
    logger: {
      level: 'debug',
      log(level, message, ...args) {
        if (logger === undefined) return;
        const [first] = args;
        const details = first instanceof Error ? { err: first } : args.length > 0 ? { details: args } : {};
        logger[level](details, `sign-in: ${message}`);
      },
    },
  } satisfies BetterAuthOptions;
}

export type AuthOptions = ReturnType<typeof authOptions>;
export type Auth = ReturnType<typeof betterAuth<AuthOptions>>;
/** A signed-in session with its user, as Better Auth returns it. */
export type AuthSession = Auth['$Infer']['Session'];

/** Fixed, arbitrary: the advisory lock Nemuri Monitor processes take to migrate Better Auth's tables. */
export const AUTH_MIGRATION_LOCK_KEY = 4_711_020_833;

export async function createAuth(options: CreateAuthOptions): Promise<Auth> {
  const secret = await resolveAuthSecret(options.config.authSecret, options.database);
  const betterAuthOptions = authOptions(options, secret);
  // Before betterAuth(): it checks the schema as it starts.
  await migrateAuthTables(betterAuthOptions, options.database, options.logger);
  const auth = betterAuth(betterAuthOptions);
  // Better Auth checks the schema as it starts without waiting for the verdict: wait for it
  // here, so that a mismatch fails the start and no check is left running at shutdown.
  const context = await auth.$context;
  await context.checkSchema?.();
  return auth;
}

/**
 * Creates Better Auth's tables and adds missing columns; nothing when they are up to date.
 * Processes starting at once against one PostgreSQL take turns (PGlite has one process).
 */
async function migrateAuthTables(options: AuthOptions, database: Database, logger: AuthLogger | undefined): Promise<void> {
  const run = async () => {
    const { toBeCreated, toBeAdded, runMigrations } = await getMigrations(options);
    if (toBeCreated.length === 0 && toBeAdded.length === 0) return;
    await runMigrations();
    const created = toBeCreated.map((table) => table.table);
    const added = toBeAdded.flatMap((table) => Object.keys(table.fields).map((field) => `${table.table}.${field}`));
    logger?.info({ created, added }, 'sign-in tables migrated');
  };
  if (database.kind === 'pglite') return run();
  const lock = await database.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [AUTH_MIGRATION_LOCK_KEY]);
    try {
      await run();
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [AUTH_MIGRATION_LOCK_KEY]);
    }
  } finally {
    await lock.release();
  }
}
