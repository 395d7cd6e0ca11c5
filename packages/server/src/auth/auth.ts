/**
 * Sign-in: Better Auth configured for Nemuri Monitor, on our own database through the Kysely
 * dialect. `createAuth` resolves the cookie secret, creates or updates Better Auth's tables (its
 * programmatic migration; its CLI does not run on Node 20) and returns the instance that
 * authPlugin mounts under /api/auth. Everything that Better Auth would otherwise decide from
 * NODE_ENV (rate limits, origin checks, Secure cookies, the client address) is set here
 * explicitly, so tests see what production does.
 */
import { betterAuth } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { getMigrations } from 'better-auth/db/migration';
import { anonymous, oneTimeToken, twoFactor } from 'better-auth/plugins';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import type { BetterAuthOptions } from '@better-auth/core';
import type { Config } from '../config.ts';
import type { Database } from '../database/database.ts';
import { DatabaseDialect } from '../database/kysely.ts';
import type { MailMessage } from '../mail/mail.ts';
import { handleAuthUrl, resetPasswordMail, signInLockedMail, verifyEmailMail } from '../mail/mailTexts.ts';
import { registration } from '../registration/registrationEndpoints.ts';
import { reportAccess } from '../registration/reportAccessEndpoints.ts';
import { AUTH_BASE_PATH, CLIENT_IP_HEADER, publicUrlOf } from './http.ts';
import { rateLimitOptions } from './rateLimit.ts';
import { ACCOUNT_LOCK, SECOND_FACTOR_LOCK_FAILURES, signInThrottle, type AccountLockPolicy } from './signInThrottle.ts';
import { emailChange } from './emailChange.ts';
import { checkSocialProvider, checkUnlink } from './providerLinks.ts';
import { checkFreshSession, FRESH_SESSION_SECONDS, reauthentication } from './reauthentication.ts';
import { isStaffDisabled } from '../staff/staffAccounts.ts';
import type { SecondFactorPolicy } from './secondFactorPolicy.ts';
import type { DocumentStore } from '../documents/store.ts';
import { enterpriseSso } from './sso.ts';
import { resolveAuthSecret } from './secret.ts';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;

/** Mail that sign-in sends (password reset, address verification). Without it, such mail is dropped with a warning. */
export interface AuthMail {
  send(message: MailMessage): Promise<void>;
}

/** Where Better Auth's log lines go: Fastify's logger has these methods. */
export interface AuthLogger {
  debug(details: object, message: string): void;
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface CreateAuthOptions {
  config: Pick<Config, 'publicUrl' | 'authSecret' | 'authRateLimitMax'> &
    Partial<Pick<Config, 'oauthProviders' | 'ssoTrustedOrigins' | 'authAccountLock'>> & {
      /** The port the server listens on (the real one when PORT is 0). */
      port: number;
    };
  database: Database;
  /** The app's document store (`app.documents`): the records sign-in flows create go through it. */
  documents: DocumentStore;
  /** The app's second-factor policy (`app.secondFactor`). */
  secondFactor: SecondFactorPolicy;
  mail?: AuthMail;
  logger?: AuthLogger;
}

/** Columns of our own on Better Auth's user table. None can be set through sign-up or update-user. */
export const USER_FIELDS = {
  accessLevel: { type: 'number', required: true, defaultValue: 1, input: false },
  domainId: { type: 'string', required: false, input: false },
  rootDomainId: { type: 'string', required: false, input: false },
  /** When the user's TOTP second factor was enrolled (set with Better Auth's `twoFactorEnabled`). */
  secondFactorEnrolledAt: { type: 'date', required: false, input: false },
} as const;

/** The error code of refusing to turn off a second factor that the user's domain requires. */
export const SECOND_FACTOR_REQUIRED = 'SECOND_FACTOR_REQUIRED';

/** How long a one-time sign-in token (singleTimeToken) stays valid. */
export const SINGLE_TIME_TOKEN_MINUTES = 10;

/** The issuer shown in authenticator apps. */
export const TOTP_ISSUER = 'Nemuri Monitor';

function authOptions({ config, database, documents, secondFactor, mail, logger }: CreateAuthOptions, secret: string) {
  const baseURL = publicUrlOf(config);
  const secure = baseURL.startsWith('https:');
  /**
   * Sends without waiting: Better Auth calls the senders inside its transaction (on PGlite the one
   * connection the outbox needs too), and the answer must not tell by its timing whether an
   * address exists. A failure is logged.
   */
  const deliver = (message: MailMessage) => {
    if (mail === undefined) {
      logger?.warn({ to: message.to, subject: message.subject }, 'no mail transport is configured: the mail is dropped');
      return;
    }
    mail.send(message).catch((error: unknown) => logger?.error({ err: error, to: message.to, subject: message.subject }, 'mail could not be sent'));
  };
  const accountLock: AccountLockPolicy = config.authAccountLock ?? ACCOUNT_LOCK;
  const loginUrl = new URL('/login', baseURL).toString();
  const oauthProviders = config.oauthProviders ?? [];
  const offeredProviders = oauthProviders.map((provider) => provider.id);
  // An identity provider's own origin must be trusted for its callback (STACK-NOTES: OIDC on 127.0.0.1).
  const providerOrigins = oauthProviders.map((provider) => new URL(provider.discoveryUrl).origin);
  const trustedOrigins = [
    ...new Set([baseURL, `http://127.0.0.1:${config.port}`, `http://localhost:${config.port}`, ...providerOrigins, ...(config.ssoTrustedOrigins ?? [])]),
  ];
  return {
    appName: 'Nemuri Monitor',
    baseURL,
    basePath: AUTH_BASE_PATH,
    secret,
    trustedOrigins,
    database: { dialect: new DatabaseDialect(database), type: 'postgres', transaction: true },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: false,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, token }: { user: { email: string }; token: string }) {
        deliver(resetPasswordMail(user.email, handleAuthUrl(baseURL, 'resetPassword', token)));
      },
    },
    emailVerification: {
      // Sent on sign-up; sign-in does not wait for the address to be verified.
      sendOnSignUp: true,
      sendOnSignIn: false,
      async sendVerificationEmail({ user, token }: { user: { email: string }; token: string }) {
        deliver(verifyEmailMail(user.email, handleAuthUrl(baseURL, 'verifyEmail', token)));
      },
    },
    user: { additionalFields: USER_FIELDS },
    // Sensitive changes need a recent sign-in (Better Auth's own for unlinking, ours for the rest).
    session: { freshAge: FRESH_SESSION_SECONDS },
    account: {
      // Linking from /link acts on the signed-in user, whose provider account may carry another
      // address (LINE often carries none); signing in never links by address on its own.
      accountLinking: { enabled: true, allowDifferentEmails: true, trustedProviders: [] },
    },
    plugins: [
      // TOTP with backup codes; enabled once a first code is verified (not on /two-factor/enable).
      // Codes count per account too (Better Auth's accountLockout), for as long as a password lock.
      twoFactor({
        issuer: TOTP_ISSUER,
        backupCodeOptions: { amount: 10, length: 10 },
        accountLockout: { enabled: true, maxFailedAttempts: SECOND_FACTOR_LOCK_FAILURES, durationSeconds: accountLock.seconds },
      }),
      // Consecutive wrong passwords lock sign-in with the address, whatever the client's address (signInThrottle.ts).
      signInThrottle({
        database,
        policy: accountLock,
        notify: (email, step) => deliver(signInLockedMail(email, step, Math.ceil(accountLock.seconds / 60), loginUrl)),
        ...(logger === undefined ? {} : { log: logger }),
      }),
      // Anonymous sign-in (/anonymous): a level-1 user without a domain or an address of its own.
      anonymous({ emailDomainName: 'anonymous.invalid' }),
      // Google and LINE over OpenID Connect, with endpoints from their discovery documents
      // (configurable, so tests use a local provider); only those with a client id.
      genericOAuth({
        config: oauthProviders.map((provider) => ({
          providerId: provider.id,
          name: provider.id === 'google' ? 'Google' : 'LINE',
          discoveryUrl: provider.discoveryUrl,
          requireIdTokenVerification: true,
          clientId: provider.clientId,
          clientSecret: provider.clientSecret,
          scopes: ['openid', 'profile', 'email'],
          pkce: true,
        })),
      }),
      // POST /reauthenticate: a fresh session before sensitive changes (reauthentication.ts).
      reauthentication(),
      // Changing the address, and taking a change back from the old address (emailChange.ts).
      emailChange({ baseURL, deliver }),
      // One-time sign-in tokens (singleTimeToken) for QR codes and shared links.
      oneTimeToken({ expiresIn: SINGLE_TIME_TOKEN_MINUTES, storeToken: 'hashed' }),
      // /register and /registerUser/:domainId (registration/registrationEndpoints.ts).
      registration({ database, documents, secondFactor, baseURL, deliver }),
      // /register-report-access-user: report links for family members and doctors.
      reportAccess({ documents, secondFactor, baseURL }),
      // Enterprise single sign-on: SAML and OIDC providers per root domain (sso.ts).
      enterpriseSso({ database, documents, secondFactor, ...(logger === undefined ? {} : { log: logger }) }),
    ],
    databaseHooks: {
      user: {
        update: {
          // Records when the second factor was enrolled, and forgets it when it is disabled.
          async before(user) {
            if (user.twoFactorEnabled === true) return { data: { ...user, secondFactorEnrolledAt: new Date() } };
            if (user.twoFactorEnabled === false) return { data: { ...user, secondFactorEnrolledAt: null } };
            return undefined;
          },
        },
      },
    },
    hooks: {
      // A password change always signs out every other session (Better Auth leaves it to the
      // client's `revokeOtherSessions`); a reset does through revokeSessionsOnPasswordReset.
      // A user whose domain requires a second factor cannot turn it off.
      before: createAuthMiddleware(async (ctx) => {
        checkSocialProvider(ctx, offeredProviders);
        await checkFreshSession(ctx);
        await checkUnlink(ctx, async () => {
          const session = await getSessionFromCtx(ctx);
          return session === null ? null : ctx.context.internalAdapter.findAccounts(session.user.id);
        });
        if (ctx.path === '/two-factor/disable') {
          const session = await getSessionFromCtx(ctx);
          if (session !== null && (await secondFactor.requires((session.user as { domainId?: string | null }).domainId))) {
            throw new APIError('FORBIDDEN', { code: SECOND_FACTOR_REQUIRED, message: 'your domain requires a second factor' });
          }
          return;
        }
        if (ctx.path !== '/change-password' || typeof ctx.body !== 'object' || ctx.body === null) return;
        return { context: { ...ctx, body: { ...ctx.body, revokeOtherSessions: true } } };
      }),
      // A member whom an administrator disabled (their staff record) cannot sign in again, by any way
      // in: the session just made is removed and the sign-in refused. (After the endpoint, not in a
      // session hook: that runs inside the sign-in's transaction, which holds PGlite's one connection.)
      after: createAuthMiddleware(async (ctx) => {
        const created = ctx.context.newSession;
        if (created === null || !(await isStaffDisabled(database, created.user.id))) return;
        await ctx.context.internalAdapter.deleteSession(created.session.token);
        throw new APIError('FORBIDDEN', { code: 'ACCOUNT_DISABLED', message: 'This account has been disabled by an administrator' });
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
