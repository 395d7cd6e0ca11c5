/**
 * A local OpenID provider for tests (the `oidc-provider` package): it stands in for Google and
 * LINE, which the tests cannot reach. Sign-in needs no page: the interaction is completed at once
 * as the account named by the authorization request's `login_hint`, else the one queued with
 * POST /test/next-login `{ "accountId": … }`, else `default-user`. Accounts are
 * `{ sub: accountId, email: <accountId>@<emailDomain> (when it has no @), name }`.
 * Any loopback redirect URI is accepted, since the server under test listens on a port chosen at start.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

export interface LocalOidcProvider {
  /** e.g. http://127.0.0.1:41234 */
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  /** The account the next sign-in completes as (when the request carries no login_hint). */
  queueLogin(accountId: string): void;
  close(): Promise<void>;
}

export interface LocalOidcOptions {
  clientId?: string;
  clientSecret?: string;
  /** Domain of made-up addresses, e.g. `google.example`. */
  emailDomain?: string;
  /**
   * Prefix of the provider's cookie names: two stand-ins on one host (127.0.0.1, other ports)
   * share a browser's cookie jar, since cookies do not tell ports apart.
   */
  cookiePrefix?: string;
}

export async function startOidcProvider({
  clientId = 'nemuri-test-client',
  clientSecret = 'nemuri-test-secret',
  emailDomain = 'idp.example',
  cookiePrefix = 'idp',
}: LocalOidcOptions = {}): Promise<LocalOidcProvider> {
  const queued: string[] = [];
  // Set once the provider exists, which needs the issuer URL, which needs the listening port.
  const route: { handle?: (request: IncomingMessage, response: ServerResponse) => void } = {};
  const server: Server = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/test/next-login') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const accountId = (JSON.parse(body || '{}') as { accountId?: unknown }).accountId;
        if (typeof accountId === 'string' && accountId !== '') queued.push(accountId);
        response.writeHead(typeof accountId === 'string' ? 204 : 400).end();
      });
      return;
    }
    route.handle?.(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'nemuri-test', use: 'sig', alg: 'RS256' };
  const emailOf = (accountId: string) => (accountId.includes('@') ? accountId : `${accountId}@${emailDomain}`);
  const configuration: Configuration = {
    jwks: { keys: [signingKey] },
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, email: emailOf(sub), email_verified: true, name: `テスト ${sub.split('@')[0] ?? sub}` }),
    }),
    // Tests run without TLS; keep cookies plain.
    cookies: {
      keys: ['nemuri-test-cookie-key'],
      names: { session: `${cookiePrefix}_session`, interaction: `${cookiePrefix}_interaction`, resume: `${cookiePrefix}_resume` },
    },
    pkce: { required: () => false },
    ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, AuthorizationCode: 60, IdToken: 600 },
  };
  const provider = new Provider(issuer, configuration);
  // The server under test listens on a port picked at start: accept any loopback callback.
  provider.Client.prototype.redirectUriAllowed = (uri: string) => /^http:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(uri);
  const callback = provider.callback();

  route.handle = (request, response) => {
    const match = /^\/interaction\/([^/?]+)/.exec(request.url ?? '');
    if (match === null) {
      callback(request, response);
      return;
    }
    void completeInteraction(request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    });
  };

  async function completeInteraction(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(request, response);
    const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : undefined;
    if (details.prompt.name === 'login') {
      const accountId = hint ?? queued.shift() ?? 'default-user';
      await provider.interactionFinished(request, response, { login: { accountId } }, { mergeWithLastSubmission: false });
      return;
    }
    const accountId = details.session?.accountId ?? 'default-user';
    const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    const grantId = await grant.save();
    await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    clientId,
    clientSecret,
    queueLogin: (accountId) => void queued.push(accountId),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
