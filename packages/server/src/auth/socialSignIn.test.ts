/**
 * Google and LINE sign-in, linking and unlinking (/link), against a local OpenID provider that
 * stands in for both (testing/oidcProvider.ts): the whole authorization-code flow over real
 * sockets, with the provider's and the server's cookies kept apart as a browser would.
 */
import { join } from 'node:path';
import type { SignedInUser } from '@nemuri/shared/user';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { followToServer } from '../testing/oauthFlow.ts';
import { startOidcProvider, type LocalOidcProvider } from '../testing/oidcProvider.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { PROVIDER_ERRORS } from './providerLinks.ts';

describe('social sign-in through a local OpenID provider', () => {
  let dir: TempDir;
  let idp: LocalOidcProvider;
  let server: RunningServer;
  let address = 10;
  const client = () => new BrowserClient(server.url, { from: `127.0.2.${address++}` });

  /** Starts a social sign-in or link and completes it as `accountId`; returns where the browser lands. */
  const complete = async (
    browser: BrowserClient,
    path: '/api/auth/sign-in/social' | '/api/auth/link-social',
    provider: string,
    accountId: string,
  ): Promise<string> => {
    const started = await browser.post(path, { provider, callbackURL: '/link', errorCallbackURL: '/login' });
    expect(started.status, started.text).toBe(200);
    idp.queueLogin(accountId);
    return followToServer((started.body as { url: string }).url, browser, new URL(server.url).origin);
  };

  beforeAll(async () => {
    dir = await makeTempDir('nemuri-social-');
    idp = await startOidcProvider({ emailDomain: 'idp.example' });
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
        LINE_CLIENT_ID: idp.clientId,
        LINE_CLIENT_SECRET: idp.clientSecret,
        LINE_DISCOVERY_URL: idp.discoveryUrl,
      }),
      { logger: false },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await idp?.close();
    await dir?.remove();
  });

  it('offers the configured providers on /api/app-info', async () => {
    expect((await client().get('/api/app-info')).body).toMatchObject({ socialProviders: ['google', 'line'] });
  });

  it('signs a new user in with Google, and the same user again next time', async () => {
    const browser = client();
    const landed = await complete(browser, '/api/auth/sign-in/social', 'google', 'alice');
    expect(new URL(landed).pathname, landed).toBe('/link');
    const user = (await browser.me()) as SignedInUser;
    expect(user).toMatchObject({
      email: 'alice@idp.example',
      providerId: 'google',
      loginProviders: [{ provider: 'google', uid: 'alice' }],
      accessLevel: 1,
      isAnonymous: false,
    });

    const again = client();
    await complete(again, '/api/auth/sign-in/social', 'google', 'alice');
    expect(((await again.me()) as SignedInUser).uid).toBe(user.uid);
  });

  it('links LINE to an e-mail account, unlinks it, and refuses to unlink the last provider', async () => {
    const browser = client();
    expect((await browser.signUp({ name: '連携 花子', email: 'linker@example.com', password: 'linker-password' })).status).toBe(200);
    await complete(browser, '/api/auth/link-social', 'line', 'line-user-1');
    const linked = (await browser.me()) as SignedInUser;
    expect(linked.email).toBe('linker@example.com');
    expect(linked.loginProviders).toEqual(
      expect.arrayContaining([
        { provider: 'email', uid: linked.uid },
        { provider: 'line', uid: 'line-user-1' },
      ]),
    );

    // The linked account signs the same user in.
    const viaLine = client();
    await complete(viaLine, '/api/auth/sign-in/social', 'line', 'line-user-1');
    expect(((await viaLine.me()) as SignedInUser).uid).toBe(linked.uid);

    const accounts = (await browser.get('/api/auth/list-accounts')).body as { id: string; providerId: string }[];
    const line = accounts.find((account) => account.providerId === 'line');
    const credential = accounts.find((account) => account.providerId === 'credential');
    expect((await browser.post('/api/auth/unlink-account', { accountId: line?.id })).status).toBe(200);
    expect(((await browser.me()) as SignedInUser).loginProviders).toEqual([{ provider: 'email', uid: linked.uid }]);

    const last = await browser.post('/api/auth/unlink-account', { accountId: credential?.id });
    expect(last).toMatchObject({ status: 400, body: PROVIDER_ERRORS.lastProvider });
    const unknown = await browser.post('/api/auth/unlink-account', { accountId: 'not-an-account' });
    expect(unknown).toMatchObject({ status: 400, body: PROVIDER_ERRORS.invalidProvider });
  });

  it('answers an unknown provider name with "invalid provider"', async () => {
    const browser = client();
    expect(await browser.post('/api/auth/sign-in/social', { provider: 'github', callbackURL: '/' })).toMatchObject({
      status: 400,
      body: PROVIDER_ERRORS.invalidProvider,
    });
    await browser.signUp({ name: 'x', email: 'nolink@example.com', password: 'nolink-password' });
    expect(await browser.post('/api/auth/link-social', { provider: 'facebook', callbackURL: '/' })).toMatchObject({
      status: 400,
      body: PROVIDER_ERRORS.invalidProvider,
    });
  });
});
