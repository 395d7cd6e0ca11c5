/**
 * Sign-in over real sockets, against a real server on both databases: sign-up, sign-in, sign-out,
 * GET /api/me, the demo accounts, rate limits, the origin check and `request.principal`.
 */
import { join } from 'node:path';
import { APP_VERSION } from '@nemuri/shared/version';
import type { AddressInfo } from 'node:net';
import { DEMO_ACCOUNTS, DEMO_DOMAINS, DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { SignedInUser } from '@nemuri/shared/user';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { DocumentStore } from '../documents/store.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { createAuth } from './auth.ts';
import { createDemoAccounts } from './demoAccounts.ts';
import { RATE_LIMITED_CODE, SIGN_IN_PER_MINUTE, SIGN_UP_PER_MINUTE, PASSWORD_RESET_PER_MINUTE } from './rateLimit.ts';

const PASSWORD = 'futon-and-makura';

interface Setup {
  env: Record<string, string>;
  /** Whether the database outlives the server (in-memory PGlite does not). */
  persistent: boolean;
  cleanUp(): Promise<void>;
}

function signInWorks(setUp: () => Promise<Setup>): void {
  let setup: Setup;
  let server: RunningServer;
  let logLines: string[];
  /** Each test plays clients of its own addresses, so that rate limits do not add up across tests. */
  let nextAddress = 1;
  const client = (options: { origin?: string | null } = {}) => new BrowserClient(server.url, { from: `127.0.0.${++nextAddress}`, ...options });
  const start = async (env: Record<string, string> = {}) => {
    logLines = [];
    return startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...setup.env, ...env }), {
      logger: { write: (line) => logLines.push(line) },
    });
  };
  const userCount = async () => (await server.database.query<{ n: number }>('select count(*)::int as n from "user"')).rows[0]?.n;

  beforeAll(async () => {
    setup = await setUp();
    server = await start();
    // mfa@example.com's domain requires a second factor (its settings, as in the demo data set).
    const store = new DocumentStore(server.database, { error: () => undefined });
    const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
    await store.set(system, `domains/${DEMO_DOMAINS.mfaFacility}`, { name: '二要素必須の施設', kind: 'facility', settings: { requireMfa: true } }, true);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await setup?.cleanUp();
  });

  it('signs up with an httpOnly, SameSite=Lax session cookie, and /api/me shows the user at level 1', async () => {
    const browser = client();
    const reply = await browser.signUp({ name: '山田 太郎', email: 'Taro@Example.com', password: PASSWORD });
    expect(reply.status).toBe(200);
    expect(reply.setCookies).toEqual([expect.stringMatching(/^nemuri\.session_token=[^;]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/)]);

    const user = (await browser.me()) as SignedInUser;
    expect(user).toEqual({
      uid: expect.any(String),
      displayName: '山田 太郎',
      email: 'taro@example.com',
      phoneNumber: null,
      photoURL: null,
      providerId: 'email',
      isEmailVerified: false,
      isAnonymous: false,
      loginProviders: [{ provider: 'email', uid: user.uid }],
      accessLevel: ROLE_LEVELS.individualUser,
      domainId: null,
      rootDomainId: null,
      singleTimeToken: null,
      mfas: [],
      signInTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      secondFactorRequired: false,
    });
    expect(Math.abs(Date.parse(user.signInTime) - Date.now())).toBeLessThan(60_000);
  });

  it('answers /api/me with no user without a cookie or with a made-up one', async () => {
    expect(await client().me()).toBeNull();
    const forger = client();
    forger.useCookies('nemuri.session_token=made-up.signature');
    expect(await forger.me()).toBeNull();
  });

  it('does not let a sign-up choose its level, domain or root domain', async () => {
    const browser = client();
    const reply = await browser.signUp({ name: 'Mallory', email: 'mallory@example.com', password: PASSWORD, accessLevel: 200 });
    expect(reply.status).toBe(200);
    expect(await browser.me()).toMatchObject({ email: 'mallory@example.com', accessLevel: ROLE_LEVELS.individualUser });

    for (const field of ['domainId', 'rootDomainId']) {
      const refused = await client().signUp({ name: 'Mallory', email: `mallory-${field}@example.com`, password: PASSWORD, [field]: 'demo-maker' });
      expect(refused.status, field).toBe(400);
      expect(refused.body).toEqual({ code: 'FIELD_NOT_ALLOWED', message: `${field} is not allowed to be set` });
    }
    // Nor later, through update-user.
    const update = await browser.post('/api/auth/update-user', { accessLevel: 200 });
    expect(update.status).toBe(400);
    expect(update.body).toMatchObject({ code: 'FIELD_NOT_ALLOWED' });
    expect(await browser.me()).toMatchObject({ accessLevel: ROLE_LEVELS.individualUser });
  });

  it('refuses a password shorter than 8 characters', async () => {
    const browser = client();
    const short = await browser.signUp({ name: 'Short', email: 'short@example.com', password: '1234567' });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ code: 'PASSWORD_TOO_SHORT', message: 'Password too short' });
    expect(short.setCookies).toEqual([]);
    expect((await browser.signUp({ name: 'Enough', email: 'short@example.com', password: '12345678' })).status).toBe(200);
  });

  it('refuses an e-mail address already signed up', async () => {
    const first = await client().signUp({ name: 'Hanako', email: 'hanako@example.com', password: PASSWORD });
    expect(first.status).toBe(200);
    const again = await client().signUp({ name: 'Hanako', email: 'HANAKO@example.com', password: PASSWORD });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', message: 'User already exists. Use another email.' });
  });

  it('answers a wrong password and an unknown e-mail address alike', async () => {
    await client().signUp({ name: 'Jiro', email: 'jiro@example.com', password: PASSWORD });
    const browser = client();
    const wrong = await browser.signIn('jiro@example.com', 'not-the-password');
    const unknown = await browser.signIn('nobody@example.com', 'not-the-password');
    for (const reply of [wrong, unknown]) {
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' });
      expect(reply.setCookies).toEqual([]);
    }
    expect(wrong.text).toBe(unknown.text);
    expect(await browser.me()).toBeNull();
    expect((await browser.signIn('jiro@example.com', PASSWORD)).status).toBe(200);
    expect(await browser.me()).toMatchObject({ email: 'jiro@example.com' });
  });

  it('signs out on the server: the old cookie no longer works', async () => {
    const browser = client();
    await browser.signUp({ name: 'Saburo', email: 'saburo@example.com', password: PASSWORD });
    const stolen = client();
    stolen.useCookies(browser.cookieHeader);
    expect(await stolen.me()).toMatchObject({ email: 'saburo@example.com' });

    const out = await browser.signOut();
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ success: true });
    expect(out.setCookies).toContainEqual(expect.stringMatching(/^nemuri\.session_token=; Max-Age=0;/));
    expect(await browser.me()).toBeNull();
    expect(await stolen.me()).toBeNull();
    expect((await stolen.get('/api/auth/get-session')).body).toBeNull();
  });

  it('ends the other sessions when the password changes', async () => {
    const phone = client();
    await phone.signUp({ name: 'Shiro', email: 'shiro@example.com', password: PASSWORD });
    const laptop = client();
    expect((await laptop.signIn('shiro@example.com', PASSWORD)).status).toBe(200);

    const change = await laptop.post('/api/auth/change-password', { currentPassword: PASSWORD, newPassword: 'a-new-password' });
    expect(change.status).toBe(200);
    expect(await laptop.me()).toMatchObject({ email: 'shiro@example.com' }); // renewed cookie
    expect(await phone.me()).toBeNull();
    expect((await client().signIn('shiro@example.com', 'a-new-password')).status).toBe(200);
  });

  it('ends every session when the password is reset through the mailed link', async () => {
    const browser = client();
    await browser.signUp({ name: 'Goro', email: 'goro@example.com', password: PASSWORD });
    // A second instance on the same database, with a mail transport that keeps the mail.
    const mails: { to: string; subject: string; text: string }[] = [];
    const config = { publicUrl: null, authSecret: null, authRateLimitMax: null, port: server.port };
    const auth = await createAuth({
      config,
      database: server.database,
      documents: server.app.documents,
      secondFactor: server.app.secondFactor,
      mail: { send: async (mail) => void mails.push(mail) },
    });
    await auth.api.requestPasswordReset({ body: { email: 'goro@example.com' } });
    await expect.poll(() => mails.length).toBe(1);
    expect(mails).toEqual([
      {
        to: 'goro@example.com',
        subject: '【ねむりモニター】パスワードの再設定',
        text: expect.stringContaining(`http://localhost:${server.port}/handleauth?mode=resetPassword&token=`),
      },
    ]);
    const token = /[?&]token=([^&\s]+)/.exec(mails[0]?.text ?? '')?.[1] ?? '';
    await auth.api.resetPassword({ body: { token, newPassword: 'a-reset-password' } });
    expect(await browser.me()).toBeNull();
    expect((await client().signIn('goro@example.com', 'a-reset-password')).status).toBe(200);
  });

  it('created every demo account once, logging how many', async () => {
    expect(server.demo).toBe(true);
    expect(logLines.join('')).toContain(`"msg":"demo accounts: ${DEMO_ACCOUNTS.length} created"`);
  });

  it('tells the sign-in page that the demo data set is here', async () => {
    expect(await (await fetch(`${server.url}/api/app-info`)).json()).toEqual({ version: APP_VERSION, demo: true, socialProviders: [] });
  });

  it('signs in every demo account with the demo password, showing its level, domain and root domain', async () => {
    // Several clients: more demo accounts than sign-ins one client may make per minute.
    const browsers = [client(), client()];
    for (const [index, account] of DEMO_ACCOUNTS.entries()) {
      const browser = browsers[index % browsers.length] ?? client();
      const reply = await browser.signIn(account.email, DEMO_PASSWORD);
      expect(reply.status, account.email).toBe(200);
      const expectedLevel = account.email === 'mfa@example.com' ? ROLE_LEVELS.requestMfa : account.accessLevel;
      expect(await browser.me(), account.email).toMatchObject({
        email: account.email,
        displayName: account.displayName,
        isEmailVerified: true,
        accessLevel: expectedLevel,
        domainId: account.domainId,
        rootDomainId: account.rootDomainId,
      });
    }
  });

  it(`limits sign-in to ${SIGN_IN_PER_MINUTE} attempts a minute per client: the next answers 429`, async () => {
    const attacker = client();
    // A different address each time: one address would be locked after 5 (security/signIn.test.ts).
    for (let attempt = 1; attempt <= SIGN_IN_PER_MINUTE; attempt++) {
      expect((await attacker.signIn(`guess-${attempt}@example.com`, `guess-${attempt}`)).status, `attempt ${attempt}`).toBe(401);
    }
    const limited = await attacker.signIn('individual@example.com', DEMO_PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: RATE_LIMITED_CODE, message: 'Too many requests. Please try again later.' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.setCookies).toEqual([]);
    // A client sending a made-up address does not escape; another client is not affected.
    expect(
      (
        await attacker.post(
          '/api/auth/sign-in/email',
          { email: 'individual@example.com', password: DEMO_PASSWORD },
          { 'x-forwarded-for': '203.0.113.9', 'x-nemuri-client-ip': '203.0.113.9' },
        )
      ).status,
    ).toBe(429);
    expect((await client().signIn('individual@example.com', DEMO_PASSWORD)).status).toBe(200);
  });

  it(`limits sign-up to ${SIGN_UP_PER_MINUTE} and password-reset requests to ${PASSWORD_RESET_PER_MINUTE} a minute per client`, async () => {
    const signUps = client();
    for (let attempt = 1; attempt <= SIGN_UP_PER_MINUTE; attempt++) {
      expect((await signUps.signUp({ name: 'x', email: `spam${attempt}@example.com`, password: 'short' })).status).toBe(400);
    }
    expect((await signUps.signUp({ name: 'x', email: 'spam@example.com', password: PASSWORD })).status).toBe(429);

    const resets = client();
    for (let attempt = 1; attempt <= PASSWORD_RESET_PER_MINUTE; attempt++) {
      expect((await resets.post('/api/auth/request-password-reset', { email: 'nobody@example.com', redirectTo: '/reset' })).status).toBe(200);
    }
    const limited = await resets.post('/api/auth/request-password-reset', { email: 'nobody@example.com', redirectTo: '/reset' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: RATE_LIMITED_CODE });
  });

  it('refuses a sign-in posted from another origin', async () => {
    const evil = client({ origin: 'http://evil.example' });
    const reply = await evil.signIn('individual@example.com', DEMO_PASSWORD);
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ code: 'INVALID_ORIGIN', message: 'Invalid origin' });
    expect(reply.setCookies).toEqual([]);
    // The origins it trusts: its own, as 127.0.0.1 and as localhost.
    for (const origin of [server.url, `http://localhost:${server.port}`]) {
      expect((await client({ origin }).signIn('individual@example.com', DEMO_PASSWORD)).status, origin).toBe(200);
    }
  });

  it('refuses a sign-out posted from another origin, or without one, with a session cookie', async () => {
    const browser = client();
    await browser.signIn('staff@example.com', DEMO_PASSWORD);
    for (const origin of ['http://evil.example', null]) {
      const other = client({ origin });
      other.useCookies(browser.cookieHeader);
      expect((await other.signOut()).status, String(origin)).toBe(403);
    }
    expect(await browser.me()).toMatchObject({ email: 'staff@example.com' });
  });

  it('answers unknown paths under /api/auth with the JSON 404', async () => {
    const reply = await client().get('/api/auth/no-such-thing');
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ code: 'not-found', message: 'no GET /api/auth/no-such-thing' });
  });

  describe('request.principal', () => {
    let app: FastifyInstance;
    let url: string;
    beforeAll(async () => {
      app = await buildApp({ config: loadConfig({ ...setup.env, LOG_LEVEL: 'silent' }), database: server.database, auth: server.auth, logger: false });
      app.get('/api/test/principal', async (request) => ({ principal: request.principal }));
      app.get('/not-api/principal', async (request) => ({ principal: request.principal }));
      await app.listen({ host: '127.0.0.1', port: 0 });
      url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    });
    afterAll(() => app?.close());

    const principalFor = async (cookie: string | null, path = '/api/test/principal') => {
      const browser = new BrowserClient(url);
      if (cookie !== null) browser.useCookies(cookie);
      const reply = await browser.get(path);
      expect(reply.status).toBe(200);
      return (reply.body as { principal: unknown }).principal;
    };

    it('is null without a session, and the signed-in user with one', async () => {
      expect(await principalFor(null)).toBeNull();
      const browser = client();
      await browser.signIn('admin@example.com', DEMO_PASSWORD);
      const uid = ((await browser.me()) as SignedInUser).uid;
      expect(await principalFor(browser.cookieHeader)).toEqual({
        uid,
        accessLevel: ROLE_LEVELS.administrator,
        domainId: 'demo-facility-a',
        rootDomainId: 'demo-corp',
      });
      expect(await principalFor(browser.cookieHeader, '/not-api/principal')).toBeNull(); // only /api routes resolve it
      await browser.signOut();
      expect(await principalFor(browser.cookieHeader)).toBeNull();
    });

    it('carries level 0 while the domain requires a second factor the user lacks', async () => {
      const browser = client();
      await browser.signIn('mfa@example.com', DEMO_PASSWORD);
      expect(await principalFor(browser.cookieHeader)).toMatchObject({ accessLevel: ROLE_LEVELS.requestMfa, domainId: 'demo-facility-mfa' });
    });
  });

  // Last: it restarts the server, or on a database that does not outlive it, sign-in.
  it('creates nothing on a second start and keeps sessions valid', async () => {
    const browser = client();
    await browser.signIn('owner@example.com', DEMO_PASSWORD);
    const users = await userCount();

    if (setup.persistent) {
      await server.stop();
      server = await start();
      expect(server.demo).toBe(true);
      expect(logLines.join('')).toContain('"msg":"demo accounts: 0 created"');
      expect(logLines.join('')).not.toContain('sign-in tables migrated');
      const again = new BrowserClient(server.url, { from: '127.0.0.250' });
      again.useCookies(browser.cookieHeader);
      expect(await again.me()).toMatchObject({ email: 'owner@example.com', accessLevel: ROLE_LEVELS.ownerAdministrator });
    } else {
      // What a second start does once the database is open, on the same database.
      const lines: string[] = [];
      const log = (line: string) => (_details: object, message: string) => lines.push(`${line}: ${message}`);
      const logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
      const again = await createAuth({
        config: { publicUrl: null, authSecret: null, authRateLimitMax: null, port: server.port },
        database: server.database,
        documents: server.app.documents,
        secondFactor: server.app.secondFactor,
        logger,
      });
      expect(await createDemoAccounts(again)).toBe(0);
      expect(lines.filter((line) => !line.startsWith('debug'))).toEqual([]);
      const found = await again.api.getSession({ headers: new Headers({ cookie: browser.cookieHeader }) });
      expect(found?.user).toMatchObject({ email: 'owner@example.com', accessLevel: ROLE_LEVELS.ownerAdministrator });
    }
    expect(await userCount()).toBe(users);
  });
}

describe('sign-in on PGlite in memory', () => {
  signInWorks(async () => {
    const dir: TempDir = await makeTempDir('nemuri-auth-');
    return {
      env: { DATABASE_URL: 'memory://', DATA_DIR: dir.path, DEMO: '1', WEB_DIST: join(dir.path, 'no-web') },
      persistent: false,
      cleanUp: () => dir.remove(),
    };
  });
});

describePostgres('sign-in on PostgreSQL', () => {
  let schema: TestSchema;
  signInWorks(async () => {
    schema = await createTestSchema();
    const dir: TempDir = await makeTempDir('nemuri-auth-');
    return {
      env: { DATABASE_URL: schema.url, DATA_DIR: dir.path, DEMO: '1', WEB_DIST: join(dir.path, 'no-web') },
      persistent: true,
      async cleanUp() {
        await schema.drop();
        await dir.remove();
      },
    };
  });

  describe('behind https, with AUTH_RATE_LIMIT_MAX', () => {
    let https: TestSchema;
    let server: RunningServer;
    beforeAll(async () => {
      https = await createTestSchema();
      server = await startServer(
        loadConfig({
          PORT: '0',
          HOST: '127.0.0.1',
          DATABASE_URL: https.url,
          PUBLIC_URL: 'https://nemuri.example',
          AUTH_RATE_LIMIT_MAX: '2',
          DEMO: '1',
          WEB_DIST: '/nonexistent',
        }),
        {
          logger: false,
        },
      );
    });
    afterAll(async () => {
      await server?.stop();
      await https?.drop();
    });

    it('sets Secure cookies and trusts PUBLIC_URL as an origin', async () => {
      expect(server.publicUrl).toBe('https://nemuri.example');
      const browser = new BrowserClient(server.url, { origin: 'https://nemuri.example' });
      const reply = await browser.signIn('staff@example.com', DEMO_PASSWORD);
      expect(reply.status).toBe(200);
      expect(reply.setCookies).toEqual([
        expect.stringMatching(/^__Secure-nemuri\.session_token=[^;]+; Max-Age=604800; Path=\/; HttpOnly; Secure; SameSite=Lax$/),
      ]);
      expect(await browser.me()).toMatchObject({ email: 'staff@example.com' });
    });

    it('limits sign-in to AUTH_RATE_LIMIT_MAX attempts a minute', async () => {
      const browser = new BrowserClient(server.url, { origin: 'https://nemuri.example', from: '127.0.0.9' });
      expect((await browser.signIn('staff@example.com', 'wrong-password')).status).toBe(401);
      expect((await browser.signIn('staff@example.com', 'wrong-password')).status).toBe(401);
      expect((await browser.signIn('staff@example.com', DEMO_PASSWORD)).status).toBe(429);
    });
  });
});
