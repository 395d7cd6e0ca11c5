/**
 * The second factor over real sockets: TOTP enrolment (with the password, confirmed by a first
 * code), the challenge at sign-in with a TOTP or a backup code, the level held at 0 until a
 * domain's required second factor is enrolled, and the rate limit on code attempts. Codes are
 * computed here from the otpauth URI, as an authenticator app would.
 */
import { join } from 'node:path';
import { DEMO_DOMAINS, DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { SignedInUser } from '@nemuri/shared/user';
import type { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { DocumentStore } from '../documents/store.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { totpOf, wrongCode } from '../testing/totp.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { RATE_LIMITED_CODE, SECOND_FACTOR_PER_MINUTE } from './rateLimit.ts';

const PASSWORD = 'futon-and-makura';

interface Enrolment {
  totpURI: string;
  backupCodes: string[];
}

describe('second factor (TOTP)', () => {
  let dir: TempDir;
  let server: RunningServer;
  let nextAddress = 60;
  const client = () => new BrowserClient(server.url, { from: `127.0.0.${++nextAddress}` });

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-2fa-');
    server = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'memory://', DATA_DIR: dir.path, DEMO: '1', WEB_DIST: join(dir.path, 'no-web') }),
      { logger: false },
    );
    // mfa@example.com's domain requires a second factor (its settings, as in the demo data set).
    const store = new DocumentStore(server.database, { error: () => undefined });
    const system = { uid: 'system', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
    await store.set(system, `domains/${DEMO_DOMAINS.mfaFacility}`, { name: '二要素必須の施設', kind: 'facility', settings: { requireMfa: true } }, true);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await dir?.remove();
  });

  let totp: TOTP;
  let backupCodes: string[];

  it('holds mfa@example.com at level 0 until TOTP is enrolled, then gives the assigned level and lists it in mfas', async () => {
    const browser = client();
    expect((await browser.signIn('mfa@example.com', DEMO_PASSWORD)).status).toBe(200);
    expect(await browser.me()).toMatchObject({ accessLevel: ROLE_LEVELS.requestMfa, mfas: [] });

    const wrong = await browser.post('/api/auth/two-factor/enable', { password: 'not-the-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'INVALID_PASSWORD' });

    const enabled = await browser.post('/api/auth/two-factor/enable', { password: DEMO_PASSWORD });
    expect(enabled.status).toBe(200);
    const enrolment = enabled.body as Enrolment;
    expect(enrolment.totpURI).toMatch(/^otpauth:\/\/totp\/Nemuri%20Monitor:mfa%40example\.com\?.*issuer=Nemuri(%20|\+)Monitor/);
    expect(enrolment.backupCodes).toHaveLength(10);
    totp = totpOf(enrolment.totpURI);
    backupCodes = enrolment.backupCodes;

    // Not enrolled until a first code is verified.
    expect(await browser.me()).toMatchObject({ accessLevel: ROLE_LEVELS.requestMfa, mfas: [] });
    const bad = await browser.post('/api/auth/two-factor/verify-totp', { code: wrongCode(totp) });
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ code: 'INVALID_CODE' });

    const verified = await browser.post('/api/auth/two-factor/verify-totp', { code: totp.generate() });
    expect(verified.status).toBe(200);
    const user = (await browser.me()) as SignedInUser;
    expect(user).toMatchObject({ email: 'mfa@example.com', accessLevel: ROLE_LEVELS.generalStaff, mfas: [{ kind: 'totp', enrolledAt: expect.any(String) }] });
    expect(Math.abs(Date.parse(user.mfas[0]?.enrolledAt ?? '') - Date.now())).toBeLessThan(60_000);
  });

  it('refuses to turn it off while the domain requires it', async () => {
    const browser = client();
    await browser.signIn('mfa@example.com', DEMO_PASSWORD);
    await browser.post('/api/auth/two-factor/verify-totp', { code: totp.generate() });
    const refused = await browser.post('/api/auth/two-factor/disable', { password: DEMO_PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'SECOND_FACTOR_REQUIRED' });
    expect(await browser.me()).toMatchObject({ accessLevel: ROLE_LEVELS.generalStaff, mfas: [{ kind: 'totp' }] });
  });

  it('challenges the next sign-in: no session until a TOTP code is given', async () => {
    const browser = client();
    const signIn = await browser.signIn('mfa@example.com', DEMO_PASSWORD);
    expect(signIn.status).toBe(200);
    expect(signIn.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] });
    expect(await browser.me()).toBeNull();

    const bad = await browser.post('/api/auth/two-factor/verify-totp', { code: wrongCode(totp) });
    expect(bad.status).toBe(401);
    expect(await browser.me()).toBeNull();

    expect((await browser.post('/api/auth/two-factor/verify-totp', { code: totp.generate() })).status).toBe(200);
    expect(await browser.me()).toMatchObject({ email: 'mfa@example.com', accessLevel: ROLE_LEVELS.generalStaff });
  });

  it('accepts a backup code instead, once', async () => {
    const code = backupCodes[0] ?? '';
    const browser = client();
    await browser.signIn('mfa@example.com', DEMO_PASSWORD);
    expect((await browser.post('/api/auth/two-factor/verify-backup-code', { code })).status).toBe(200);
    expect(await browser.me()).toMatchObject({ email: 'mfa@example.com', accessLevel: ROLE_LEVELS.generalStaff });

    const again = client();
    await again.signIn('mfa@example.com', DEMO_PASSWORD);
    expect((await again.post('/api/auth/two-factor/verify-backup-code', { code })).status).toBe(401);
    expect(await again.me()).toBeNull();
  });

  it('lets a user without a required second factor enrol and disable TOTP', async () => {
    const browser = client();
    await browser.signUp({ name: 'Shiro', email: 'shiro-2fa@example.com', password: PASSWORD });
    const own = totpOf(((await browser.post('/api/auth/two-factor/enable', { password: PASSWORD })).body as Enrolment).totpURI);
    expect((await browser.post('/api/auth/two-factor/verify-totp', { code: own.generate() })).status).toBe(200);
    expect(await browser.me()).toMatchObject({ accessLevel: ROLE_LEVELS.individualUser, mfas: [{ kind: 'totp' }] });

    expect((await browser.post('/api/auth/two-factor/disable', { password: PASSWORD })).status).toBe(200);
    expect(await browser.me()).toMatchObject({ accessLevel: ROLE_LEVELS.individualUser, mfas: [] });
    const signIn = await client().signIn('shiro-2fa@example.com', PASSWORD);
    expect(signIn.body).toMatchObject({ user: { email: 'shiro-2fa@example.com' } });
  });

  it(`limits code attempts to ${SECOND_FACTOR_PER_MINUTE} a minute per client`, async () => {
    const owner = client();
    await owner.signUp({ name: 'Goro', email: 'goro-2fa@example.com', password: PASSWORD });
    const own = totpOf(((await owner.post('/api/auth/two-factor/enable', { password: PASSWORD })).body as Enrolment).totpURI);
    expect((await owner.post('/api/auth/two-factor/verify-totp', { code: own.generate() })).status).toBe(200);

    const attacker = client();
    await attacker.signIn('goro-2fa@example.com', PASSWORD);
    for (let i = 0; i < SECOND_FACTOR_PER_MINUTE; i++) {
      expect((await attacker.post('/api/auth/two-factor/verify-totp', { code: wrongCode(own) })).status).not.toBe(429);
    }
    const limited = await attacker.post('/api/auth/two-factor/verify-totp', { code: own.generate() });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: RATE_LIMITED_CODE });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
