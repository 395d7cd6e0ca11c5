/**
 * Enterprise single sign-on (sso.ts) over real sockets: providers registered by privilege
 * administrators, SAML sign-in against a local identity provider that signs real assertions
 * (testing/saml/samlIdp.ts), OpenID Connect sign-in against the local OpenID provider, and the
 * new user provisioned as general staff of the provider's root domain. On PGlite and PostgreSQL.
 */
import { join } from 'node:path';
import { DEMO_DOMAINS, DEMO_PASSWORD } from '@nemuri/shared/demoAccounts';
import type { Claims } from '@nemuri/shared/documents/access';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import type { SignedInUser } from '@nemuri/shared/user';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { DocumentStore } from '../documents/store.ts';
import { startServer, type RunningServer } from '../server.ts';
import { BrowserClient } from '../testing/browserClient.ts';
import { followToServer } from '../testing/oauthFlow.ts';
import { startOidcProvider, type LocalOidcProvider } from '../testing/oidcProvider.ts';
import { createTestSchema, describePostgres, type TestSchema } from '../testing/postgres.ts';
import { ROGUE_IDP_CERT, ROGUE_IDP_KEY, startSamlIdp, type LocalSamlIdp } from '../testing/saml/samlIdp.ts';
import { makeTempDir, type TempDir } from '../testing/webDist.ts';
import { PROVIDER_ERRORS } from './providerLinks.ts';
import { SSO_ERRORS } from './sso.ts';

interface Setup {
  env: Record<string, string>;
  cleanUp(): Promise<void>;
}

function ssoWorks(prepare: () => Promise<Setup>) {
  let setup: Setup;
  let server: RunningServer;
  let saml: LocalSamlIdp;
  let oidc: LocalOidcProvider;
  let address = 10;
  const client = () => new BrowserClient(server.url, { from: `127.0.3.${address++}` });
  const signedIn = async (email: string) => {
    const browser = client();
    const reply = await browser.signIn(email, DEMO_PASSWORD);
    expect(reply.status, reply.text).toBe(200);
    return browser;
  };
  const spEntityId = (providerId: string) => `${server.publicUrl}/api/auth/sso/saml2/sp/metadata?providerId=${providerId}`;
  const samlProvider = (providerId: string, extra: Record<string, unknown> = {}) => ({
    providerId,
    issuer: spEntityId(providerId),
    domain: 'sakura.example',
    samlConfig: {
      entryPoint: saml.ssoUrl,
      idpMetadata: { metadata: saml.metadata },
      wantAssertionsSigned: true,
      mapping: { email: 'email', name: 'displayName' },
    },
    ...extra,
  });

  /** Starts a SAML sign-in; returns the IdP redirect URL. */
  const startSaml = async (browser: BrowserClient, providerId: string): Promise<string> => {
    const started = await browser.post('/api/auth/sign-in/sso', { providerId, callbackURL: '/', errorCallbackURL: '/sso' });
    expect(started.status, started.text).toBe(200);
    const { url } = started.body as { url: string };
    expect(url.startsWith(saml.ssoUrl), url).toBe(true);
    return url;
  };

  /** Posts the IdP's answer to the ACS, as the IdP's auto-submitting form does. */
  const postToAcs = async (browser: BrowserClient, post: { acsUrl: string; SAMLResponse: string; RelayState: string | undefined }) => {
    const form = new URLSearchParams({ SAMLResponse: post.SAMLResponse, ...(post.RelayState === undefined ? {} : { RelayState: post.RelayState }) });
    return browser.send('POST', new URL(post.acsUrl).pathname, form.toString(), { 'content-type': 'application/x-www-form-urlencoded', origin: saml.origin });
  };

  beforeAll(async () => {
    saml = await startSamlIdp({ emailDomain: 'sakura.example' });
    oidc = await startOidcProvider({ emailDomain: 'ume.example', cookiePrefix: 'ume' });
    setup = await prepare();
    // An enterprise OpenID provider's origin must be trusted (docs/operations.md).
    server = await startServer(loadConfig({ PORT: '0', HOST: '127.0.0.1', DEMO: '1', SIMULATE: '0', SSO_TRUSTED_ORIGINS: oidc.issuer, ...setup.env }), {
      logger: false,
    });
    // The demo accounts' root domains (the demo data set itself is not loaded under Vitest).
    const store = new DocumentStore(server.database, { error: () => undefined });
    const system: Claims = { uid: 'test', accessLevel: ROLE_LEVELS.systemAdmin, domainId: null, rootDomainId: null };
    for (const [domainId, kind] of [
      [DEMO_DOMAINS.corporation, 'corporation'],
      [DEMO_DOMAINS.agency, 'agency'],
    ] as const) {
      await store.set(system, `domains/${domainId}`, { name: domainId, kind, rootDomainId: domainId, timeZone: 'Asia/Tokyo', status: 'active' }, false);
    }
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await saml?.close();
    await oidc?.close();
    await setup?.cleanUp();
  });

  it("creates the plugin's ssoProvider table with its rootDomainId column", async () => {
    const { rows } = await server.database.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_name = 'ssoProvider' and table_schema = current_schema()`,
    );
    expect(rows.map((row) => row.column_name)).toEqual(expect.arrayContaining(['providerId', 'issuer', 'samlConfig', 'oidcConfig', 'rootDomainId']));
  });

  it('lets a privilege administrator register a provider for their root domain only, and refuses staff and other ids', async () => {
    const staff = await signedIn('staff@example.com');
    expect(await staff.post('/api/auth/sso/register', samlProvider('saml.staff'))).toMatchObject({ status: 403, body: { code: SSO_ERRORS.notAllowed.code } });
    expect((await client().post('/api/auth/sso/register', samlProvider('saml.nobody'))).status).toBe(401);

    const privilege = await signedIn('privilege@example.com');
    expect(await privilege.post('/api/auth/sso/register', samlProvider('sakura'))).toMatchObject({
      status: 400,
      body: { code: SSO_ERRORS.invalidProviderId.code },
    });
    expect(await privilege.post('/api/auth/sso/register', samlProvider('google'))).toMatchObject({
      status: 400,
      body: { code: SSO_ERRORS.invalidProviderId.code },
    });
    expect(await privilege.post('/api/auth/sso/register', samlProvider('oidc.wrong'))).toMatchObject({
      status: 400,
      body: { code: SSO_ERRORS.protocolMismatch.code },
    });
    expect(await privilege.post('/api/auth/sso/register', samlProvider('saml.other', { rootDomainId: DEMO_DOMAINS.maker }))).toMatchObject({
      status: 403,
      body: { code: SSO_ERRORS.notAllowed.code },
    });

    const registered = await privilege.post('/api/auth/sso/register', samlProvider('saml.test'));
    expect(registered.status, registered.text).toBe(200);
    expect(registered.body).toMatchObject({ providerId: 'saml.test', rootDomainId: DEMO_DOMAINS.corporation });
    // The SP metadata an IdP administrator imports names the ACS.
    const metadata = await client().get('/api/auth/sso/saml2/sp/metadata?providerId=saml.test');
    expect(metadata.text).toContain(`${server.publicUrl}/api/auth/sso/saml2/sp/acs/saml.test`);

    // Another administrator's root domain is out of reach; a developer reaches every one.
    const developer = await signedIn('developer@example.com');
    expect(await developer.post('/api/auth/sso/register', samlProvider('saml.nowhere', { rootDomainId: 'no-such-domain' }))).toMatchObject({
      status: 400,
      body: { code: SSO_ERRORS.noDomain.code },
    });
    const forAgency = await developer.post('/api/auth/sso/register', samlProvider('saml.agency', { rootDomainId: DEMO_DOMAINS.agency }));
    expect(forAgency.status, forAgency.text).toBe(200);
    expect((await privilege.post('/api/auth/sso/update-provider', { providerId: 'saml.test', domain: 'sakura.example' })).status).toBe(200);
    expect(await staff.post('/api/auth/sso/update-provider', { providerId: 'saml.test', domain: 'evil.example' })).toMatchObject({
      status: 403,
      body: { code: SSO_ERRORS.notAllowed.code },
    });
    expect(await privilege.post('/api/auth/sso/update-provider', { providerId: 'saml.test', rootDomainId: DEMO_DOMAINS.agency })).toMatchObject({
      status: 403,
      body: { code: SSO_ERRORS.notAllowed.code },
    });
    expect(await privilege.post('/api/auth/sso/delete-provider', { providerId: 'saml.agency' })).toMatchObject({
      status: 403,
      body: { code: SSO_ERRORS.notAllowed.code },
    });
    expect((await developer.post('/api/auth/sso/delete-provider', { providerId: 'saml.agency' })).status).toBe(200);
  });

  it('signs taro@sakura.example in through SAML as general staff of the provider root domain', async () => {
    const browser = client();
    const url = await startSaml(browser, 'saml.test');
    const landed = await postToAcs(browser, await saml.respond(url, 'taro@sakura.example'));
    expect(landed.status, landed.text).toBe(302);
    expect(new URL(String(landed.headers.location), server.publicUrl).pathname).toBe('/');
    const user = (await browser.me()) as SignedInUser;
    expect(user).toMatchObject({
      email: 'taro@sakura.example',
      displayName: 'テスト taro',
      providerId: 'saml.test',
      loginProviders: [{ provider: 'saml.test', uid: 'taro@sakura.example' }],
      accessLevel: 2,
      domainId: DEMO_DOMAINS.corporation,
      rootDomainId: DEMO_DOMAINS.corporation,
    });
    const staff = await server.database.query<{ data: { accessLevel: number; email: string } }>('select data from documents where path = $1', [
      `domains/${DEMO_DOMAINS.corporation}/staff/${user.uid}`,
    ]);
    expect(staff.rows[0]?.data).toMatchObject({ accessLevel: 2, email: 'taro@sakura.example' });

    // Next time the same user comes back.
    const again = client();
    await postToAcs(again, await saml.respond(await startSaml(again, 'saml.test'), 'taro@sakura.example'));
    expect(((await again.me()) as SignedInUser).uid).toBe(user.uid);
  });

  it('refuses a response signed with another key, and a replayed one', async () => {
    const browser = client();
    const forged = await saml.respond(await startSaml(browser, 'saml.test'), 'mallory@sakura.example', {
      signWith: { key: ROGUE_IDP_KEY, cert: ROGUE_IDP_CERT },
    });
    const refused = await postToAcs(browser, forged);
    // Back to the error page the sign-in named, with the reason.
    expect(refused.status).toBe(302);
    expect(String(refused.headers.location)).toMatch(/^\/sso\?error=saml_error&error_description=Invalid\+SAML\+response$/);
    expect(refused.setCookies.some((cookie) => cookie.includes('session_token=') && !cookie.includes('Max-Age=0'))).toBe(false);
    expect(await browser.me()).toBeNull();

    const honest = client();
    const post = await saml.respond(await startSaml(honest, 'saml.test'), 'hanako@sakura.example');
    expect((await postToAcs(honest, post)).status).toBe(302);
    const replay = client();
    await postToAcs(replay, post);
    expect(await replay.me()).toBeNull();
  });

  it('answers an unknown or malformed provider id with "invalid provider"', async () => {
    expect(await client().post('/api/auth/sign-in/sso', { providerId: 'saml.unknown', callbackURL: '/' })).toMatchObject({
      status: 404,
      body: PROVIDER_ERRORS.invalidProvider,
    });
    expect(await client().post('/api/auth/sign-in/sso', { providerId: 'google', callbackURL: '/' })).toMatchObject({
      status: 400,
      body: PROVIDER_ERRORS.invalidProvider,
    });
    expect(await client().post('/api/auth/sign-in/sso', { email: 'x@sakura.example', callbackURL: '/' })).toMatchObject({
      status: 400,
      body: PROVIDER_ERRORS.invalidProvider,
    });
  });

  it('signs in through an enterprise OpenID provider (oidc.test)', async () => {
    const owner = await signedIn('owner@example.com');
    const registered = await owner.post('/api/auth/sso/register', {
      providerId: 'oidc.test',
      issuer: oidc.issuer,
      domain: 'ume.example',
      oidcConfig: {
        clientId: oidc.clientId,
        clientSecret: oidc.clientSecret,
        discoveryEndpoint: oidc.discoveryUrl,
        scopes: ['openid', 'email', 'profile'],
        pkce: true,
      },
    });
    expect(registered.status, registered.text).toBe(200);

    const browser = client();
    const started = await browser.post('/api/auth/sign-in/sso', { providerId: 'oidc.test', callbackURL: '/' });
    expect(started.status, started.text).toBe(200);
    oidc.queueLogin('jiro');
    const landed = await followToServer((started.body as { url: string }).url, browser, new URL(server.url).origin);
    expect(new URL(landed).pathname, landed).toBe('/');
    expect(await browser.me()).toMatchObject({
      email: 'jiro@ume.example',
      loginProviders: [{ provider: 'oidc.test', uid: 'jiro' }],
      accessLevel: 2,
      domainId: DEMO_DOMAINS.corporation,
    });
  });
}

describe('enterprise single sign-on on PGlite', () => {
  ssoWorks(async () => {
    const dir: TempDir = await makeTempDir('nemuri-sso-');
    return { env: { DATABASE_URL: 'memory://', DATA_DIR: dir.path, WEB_DIST: join(dir.path, 'no-web') }, cleanUp: () => dir.remove() };
  });
});

describePostgres('enterprise single sign-on on PostgreSQL', () => {
  ssoWorks(async () => {
    const schema: TestSchema = await createTestSchema();
    const dir: TempDir = await makeTempDir('nemuri-sso-');
    return {
      env: { DATABASE_URL: schema.url, DATA_DIR: dir.path, WEB_DIST: join(dir.path, 'no-web') },
      async cleanUp() {
        await schema.drop();
        await dir.remove();
      },
    };
  });
});
