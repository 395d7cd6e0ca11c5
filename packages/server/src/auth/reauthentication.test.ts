/**
 * Reauthentication before sensitive changes, and one-time sign-in tokens (singleTimeToken), over
 * real sockets. A session is made stale by moving its creation time back in the database.
 */
import { join } from 'node:path';
import type { SignedInUser } from '@nemuri/shared/user';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { startOidcProvider, type LocalOidcProvider } from '../testing/oidcProvider.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { REAUTHENTICATION_ERRORS } from './reauthentication.ts';

describe('reauthentication and one-time tokens', () => {
  let dir: TempDir;
  let idp: LocalOidcProvider;
  let server: RunningServer;
  let address = 10;
  const client = () => new BrowserClient(server.url, { from: `127.0.3.${address++}` });

  const signedUp = async (email: string) => {
    const browser = client();
    expect((await browser.signUp({ name: '確認 太郎', email, password: 'a-good-password' })).status).toBe(200);
    return browser;
  };
  /** Makes every session of the user look an hour old. */
  const age = async (email: string) => {
    await server.database.query(`update "session" set "createdAt" = now() - interval '1 hour' where "userId" = (select id from "user" where email = $1)`, [
      email,
    ]);
  };

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-reauth-');
    idp = await startOidcProvider();
    server = await startServer(
      loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: 'memory://',
        DATA_DIR: dir.path,
        DEMO: '0',
        WEB_DIST: join(dir.path, 'no-web'),
        GOOGLE_CLIENT_ID: idp.clientId,
        GOOGLE_CLIENT_SECRET: idp.clientSecret,
        GOOGLE_DISCOVERY_URL: idp.discoveryUrl,
      }),
      { logger: false },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await idp?.close();
    await dir?.remove();
  });

  it('asks a stale session to reauthenticate before linking, and lets the right password through', async () => {
    const browser = await signedUp('stale@example.com');
    expect((await browser.post('/api/auth/link-social', { provider: 'google', callbackURL: '/link' })).status).toBe(200);

    await age('stale@example.com');
    expect(await browser.post('/api/auth/link-social', { provider: 'google', callbackURL: '/link' })).toMatchObject({
      status: 403,
      body: REAUTHENTICATION_ERRORS.notFresh,
    });
    expect((await browser.post('/api/auth/unlink-account', { accountId: 'any' })).body).toMatchObject({ code: 'SESSION_NOT_FRESH' });

    expect(await browser.post('/api/auth/reauthenticate', { password: 'wrong-password' })).toMatchObject({ status: 400, body: { code: 'INVALID_PASSWORD' } });
    const before = browser.cookieHeader;
    expect((await browser.post('/api/auth/reauthenticate', { password: 'a-good-password' })).status).toBe(200);
    expect(browser.cookieHeader).not.toBe(before);
    expect((await browser.post('/api/auth/link-social', { provider: 'google', callbackURL: '/link' })).status).toBe(200);
    expect(await browser.me()).toMatchObject({ email: 'stale@example.com' });

    // The old session ended with the reauthentication.
    const old = client();
    old.useCookies(before);
    expect(await old.me()).toBeNull();
  });

  it('refuses reauthentication when signed out', async () => {
    expect((await client().post('/api/auth/reauthenticate', { password: 'x' })).status).toBe(401);
  });

  it('signs the same user in once with a one-time token, and never twice', async () => {
    const browser = await signedUp('qr@example.com');
    const issued = await browser.get('/api/auth/one-time-token/generate');
    const token = (issued.body as { token: string }).token;
    expect(token).toMatch(/^\S{16,}$/);

    const tablet = client();
    expect((await tablet.post('/api/auth/one-time-token/verify', { token })).status).toBe(200);
    const user = (await tablet.me()) as SignedInUser;
    expect(user.email).toBe('qr@example.com');

    const again = client();
    expect((await again.post('/api/auth/one-time-token/verify', { token })).status).toBe(400);
    expect(await again.me()).toBeNull();
    expect((await client().get('/api/auth/one-time-token/generate')).status).toBe(401);
  });
});
