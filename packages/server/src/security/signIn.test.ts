/**
 * Guessing passwords (issue 17, finding 7; docs/security.md, "Sign-in throttling"): an attacker
 * behind a trusted proxy spreads 50 wrong passwords over 5 client addresses, so that the limit per
 * address never bites, then tries the right one. Sign-in must be refused for the account whatever
 * the address, the owner must get a mail, other accounts must be unaffected, unknown addresses must
 * behave the same (no enumeration), and the lock must end by itself. The same per account for
 * second-factor codes. On PGlite and on PostgreSQL (the counts are kept in the database).
 */
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { listOutbox } from '../mail/mail.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient, type ClientReply } from '../testing/browserClient.ts';
import { createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import { totpOf, wrongCode } from '../testing/totp.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { RATE_LIMITED_CODE, SIGN_IN_PER_MINUTE } from '../auth/rateLimit.ts';

const PASSWORD = 'the-right-password';
const LOCK_SECONDS = 4;
const LOCKED_SUBJECT = '【ねむりモニター】ログインを一時的に停止しました';

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function signInThrottleSuite(databaseUrl: () => string) {
  let dir: TempDir;
  let server: RunningServer;
  /** Every request comes through one trusted proxy; the client is X-Forwarded-For. */
  let proxy: BrowserClient;
  let nextClient = 0;
  const newAddress = (): string => `203.0.113.${++nextClient}`;
  const signIn = (email: string, password: string, from = newAddress(), via = proxy): Promise<ClientReply> =>
    via.post('/api/auth/sign-in/email', { email, password }, { 'x-forwarded-for': from });
  const mailsTo = async (email: string) => (await listOutbox(server.database, 1000)).filter((mail) => mail.to === email && mail.subject === LOCKED_SUBJECT);
  const signUp = async (email: string): Promise<void> => {
    const reply = await new BrowserClient(server.url).post(
      '/api/auth/sign-up/email',
      { name: email, email, password: PASSWORD },
      { 'x-forwarded-for': newAddress() },
    );
    expect(reply.status, reply.text).toBe(200);
  };

  /** 50 wrong passwords from 5 addresses, 10 each (the most the limit per address lets through). */
  const guess50 = async (email: string): Promise<number[]> => {
    const statuses: number[] = [];
    for (let address = 0; address < 5; address++) {
      const from = newAddress();
      for (let attempt = 0; attempt < SIGN_IN_PER_MINUTE; attempt++) statuses.push((await signIn(email, `wrong-password-${address}-${attempt}`, from)).status);
    }
    return statuses;
  };

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-sign-in-');
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl(),
        DATA_DIR: dir.path,
        DEMO: '0',
        WEB_DIST: join(dir.path, 'no-web'),
        TRUST_PROXY: '1',
        AUTH_ACCOUNT_LOCK_SECONDS: String(LOCK_SECONDS),
      }),
      { logger: false },
    );
    proxy = new BrowserClient(server.url, { from: '127.0.7.1' });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  it('locks an account after 5 wrong passwords from any addresses: the right one is refused, the owner gets a mail, other accounts are unaffected, and the lock ends by itself', async () => {
    const victim = `victim-${nextClient}@example.com`;
    const bystander = `bystander-${nextClient}@example.com`;
    await signUp(victim);
    await signUp(bystander);

    const statuses = await guess50(victim);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual(Array(45).fill(429));

    const refused = await signIn(victim, PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: RATE_LIMITED_CODE });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(LOCK_SECONDS);
    expect(refused.headers['set-cookie']).toBeUndefined();

    const mails = await waitFor(
      () => mailsTo(victim),
      (found) => found.length > 0,
      'the lock mail',
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('パスワードの誤りが続いた');
    expect(mails[0]!.text).toContain('/login');

    expect((await signIn(bystander, PASSWORD)).status).toBe(200);
    expect(await mailsTo(bystander)).toHaveLength(0);

    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 + 200));
    expect((await signIn(victim, PASSWORD)).status).toBe(200);
    // One lock, one mail.
    expect(await mailsTo(victim)).toHaveLength(1);
  });

  it('treats an unknown address exactly like a known one (same answers), and mails nobody', async () => {
    const known = `known-${nextClient}@example.com`;
    await signUp(known);
    const unknown = `nobody-${nextClient}@example.com`;
    const forKnown = await guess50(known);
    const forUnknown = await guess50(unknown);
    expect(forUnknown).toEqual(forKnown);
    const lockedKnown = await signIn(known, PASSWORD);
    const lockedUnknown = await signIn(unknown, PASSWORD);
    expect(lockedUnknown.status).toBe(lockedKnown.status);
    expect(lockedUnknown.text).toBe(lockedKnown.text);
    await waitFor(
      () => mailsTo(known),
      (found) => found.length === 1,
      'the lock mail',
    );
    expect(await mailsTo(unknown)).toHaveLength(0);
  });

  it('counts consecutive failures only: a success outside a lock starts the count again', async () => {
    const email = `careless-${nextClient}@example.com`;
    await signUp(email);
    for (let round = 0; round < 3; round++) {
      for (let attempt = 0; attempt < 4; attempt++) expect((await signIn(email, 'mistyped-password')).status).toBe(401);
      expect((await signIn(email, PASSWORD)).status).toBe(200);
    }
  });

  it('counts the address however it is written (case)', async () => {
    const email = `mixed-${nextClient}@example.com`;
    await signUp(email);
    for (let attempt = 0; attempt < 5; attempt++) await signIn(attempt % 2 === 0 ? email.toUpperCase() : email, 'wrong-password');
    expect((await signIn(email, PASSWORD)).status).toBe(429);
  });

  it('locks second-factor codes per account across challenges and addresses, and mails the owner', async () => {
    const email = `totp-${nextClient}@example.com`;
    await signUp(email);
    const owner = new BrowserClient(server.url);
    expect((await signIn(email, PASSWORD, newAddress(), owner)).status).toBe(200);
    const enabled = await owner.post('/api/auth/two-factor/enable', { password: PASSWORD }, { 'x-forwarded-for': newAddress() });
    expect(enabled.status, enabled.text).toBe(200);
    const totp = totpOf((enabled.body as { totpURI: string }).totpURI);
    expect((await owner.post('/api/auth/two-factor/verify-totp', { code: totp.generate() }, { 'x-forwarded-for': newAddress() })).status).toBe(200);

    // The attacker has the password: 2 challenges of 5 wrong codes, each code from its own address.
    for (let challenge = 0; challenge < 2; challenge++) {
      const attacker = new BrowserClient(server.url, { from: '127.0.7.1' });
      expect((await signIn(email, PASSWORD, newAddress(), attacker)).body).toMatchObject({ twoFactorRedirect: true });
      for (let attempt = 0; attempt < 5; attempt++) {
        expect((await attacker.post('/api/auth/two-factor/verify-totp', { code: wrongCode(totp) }, { 'x-forwarded-for': newAddress() })).status).toBe(401);
      }
    }
    const attacker = new BrowserClient(server.url, { from: '127.0.7.1' });
    expect((await signIn(email, PASSWORD, newAddress(), attacker)).body).toMatchObject({ twoFactorRedirect: true });
    const locked = await attacker.post('/api/auth/two-factor/verify-totp', { code: totp.generate() }, { 'x-forwarded-for': newAddress() });
    expect(locked.status).toBe(429);
    const mails = await waitFor(
      () => mailsTo(email),
      (found) => found.length > 0,
      'the second-factor lock mail',
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain('確認コード');
  });
}

describe('sign-in throttling on PGlite', () => signInThrottleSuite(() => 'memory://'), 120_000);

describePostgres(
  'sign-in throttling on PostgreSQL',
  () => {
    let schema: TestSchema | undefined;
    beforeAll(async () => {
      schema = await createTestSchema();
    }, 60_000);
    afterAll(async () => {
      await schema?.drop();
    });
    signInThrottleSuite(() => schema!.url);
  },
  120_000,
);
