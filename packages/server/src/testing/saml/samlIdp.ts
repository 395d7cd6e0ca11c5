/**
 * A local SAML 2.0 identity provider for tests, built on samlify (the library Better Auth's SSO
 * plugin verifies with), so that assertions are really signed and really checked. It answers an
 * AuthnRequest sent with the HTTP-Redirect binding (SAML 2.0 Bindings section 3.4) by a signed
 * SAMLResponse for the HTTP-POST binding (section 3.5), as the account queued with
 * POST /test/next-login `{ "email": … }`, else `default-user@<emailDomain>`:
 *   GET /metadata   the IdP metadata (entity id, SSO endpoint, signing certificate)
 *   GET /sso        an auto-submitting HTML form that posts the response to the SP's ACS
 * API tests call `respond(authnRequestUrl, email)` directly and post the fields themselves.
 * The key and certificate beside this file are test fixtures (CN=Nemuri Test IdP); `rogue-*`
 * is a second pair, for responses signed by a key the SP does not trust.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import * as samlify from 'samlify';

const fixture = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8');

export const TEST_IDP_CERT = fixture('./idp-cert.pem');
export const TEST_IDP_KEY = fixture('./idp-key.pem');
export const ROGUE_IDP_CERT = fixture('./rogue-cert.pem');
export const ROGUE_IDP_KEY = fixture('./rogue-key.pem');

const POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';
const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** What the browser (or the test) posts to the service provider's ACS. */
export interface SamlPost {
  acsUrl: string;
  SAMLResponse: string;
  RelayState: string | undefined;
}

export interface LocalSamlIdp {
  /** e.g. http://127.0.0.1:41234 */
  origin: string;
  entityId: string;
  /** The HTTP-Redirect single sign-on endpoint. */
  ssoUrl: string;
  /** The IdP metadata XML (what an administrator pastes into the provider's registration). */
  metadata: string;
  /** The certificate responses are signed with (PEM). */
  cert: string;
  /** The account the next browser sign-in completes as; `signWith` signs its response with another key pair. */
  queueLogin(email: string, options?: RespondOptions): void;
  /** A signed response to the AuthnRequest in `authnRequestUrl` (the URL the SP redirected to). */
  respond(authnRequestUrl: string, email: string, options?: RespondOptions): Promise<SamlPost>;
  close(): Promise<void>;
}

export interface RespondOptions {
  signWith?: { key: string; cert: string };
}

export interface LocalSamlIdpOptions {
  /** Domain of made-up addresses for the default account. */
  emailDomain?: string;
  key?: string;
  cert?: string;
}

interface AuthnRequest {
  id: string;
  issuer: string;
  acsUrl: string;
  relayState: string | undefined;
}

/** The AuthnRequest of an HTTP-Redirect URL: deflated, base64, in `SAMLRequest` (Bindings 3.4.4.1). */
function readAuthnRequest(url: URL): AuthnRequest {
  const encoded = url.searchParams.get('SAMLRequest');
  if (encoded === null) throw new Error('no SAMLRequest in the URL');
  const xml = inflateRawSync(Buffer.from(encoded, 'base64')).toString('utf8');
  const id = /<(?:\w+:)?AuthnRequest\b[^>]*\sID="([^"]+)"/.exec(xml)?.[1];
  const acsUrl = /\sAssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1];
  const issuer = /<(?:\w+:)?Issuer\b[^>]*>([^<]+)</.exec(xml)?.[1];
  if (id === undefined || acsUrl === undefined || issuer === undefined) throw new Error(`not an AuthnRequest: ${xml}`);
  return { id, issuer: decodeXml(issuer), acsUrl: decodeXml(acsUrl), relayState: url.searchParams.get('RelayState') ?? undefined };
}

function decodeXml(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const displayNameOf = (email: string) => `テスト ${email.split('@')[0] ?? email}`;

export async function startSamlIdp({
  emailDomain = 'saml.example',
  key = TEST_IDP_KEY,
  cert = TEST_IDP_CERT,
}: LocalSamlIdpOptions = {}): Promise<LocalSamlIdp> {
  const queued: { email: string; options: RespondOptions }[] = [];
  const routes: { handle?: (url: URL) => Promise<{ status: number; type: string; body: string }> } = {};
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (request.method === 'POST' && url.pathname === '/test/next-login') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        const email = (JSON.parse(body || '{}') as { email?: unknown }).email;
        if (typeof email === 'string' && email !== '') queued.push({ email, options: {} });
        response.writeHead(typeof email === 'string' ? 204 : 400).end();
      });
      return;
    }
    void (routes.handle?.(url) ?? Promise.resolve({ status: 404, type: 'text/plain', body: 'not found' }))
      .then(({ status, type, body }) => response.writeHead(status, { 'content-type': type }).end(body))
      .catch((error: unknown) => response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${origin}/metadata`;
  const ssoUrl = `${origin}/sso`;

  const identityProvider = (signing: { key: string; cert: string }) =>
    samlify.IdentityProvider({
      entityID: entityId,
      privateKey: signing.key,
      signingCert: signing.cert,
      nameIDFormat: [EMAIL_FORMAT],
      singleSignOnService: [{ Binding: REDIRECT_BINDING, Location: ssoUrl }],
      // Not served; samlify warns about metadata without one.
      singleLogoutService: [{ Binding: REDIRECT_BINDING, Location: `${origin}/slo` }],
      wantAuthnRequestsSigned: false,
    });
  const metadata = identityProvider({ key, cert }).getMetadata();

  const respond = async (authnRequestUrl: string, email: string, options: RespondOptions = {}): Promise<SamlPost> => {
    const request = readAuthnRequest(new URL(authnRequestUrl));
    const idp = identityProvider(options.signWith ?? { key, cert });
    const sp = samlify.ServiceProvider({
      entityID: request.issuer,
      assertionConsumerService: [{ Binding: POST_BINDING, Location: request.acsUrl }],
      wantAssertionsSigned: true,
    });
    const now = new Date();
    const later = new Date(now.getTime() + 5 * 60_000);
    const attribute = (name: string, value: string) =>
      `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue xsi:type="xs:string">${escapeXml(value)}</saml:AttributeValue></saml:Attribute>`;
    const responseId = `_${randomUUID()}`;
    const values: Record<string, string> = {
      ID: responseId,
      AssertionID: `_${randomUUID()}`,
      Destination: request.acsUrl,
      Audience: request.issuer,
      SubjectRecipient: request.acsUrl,
      Issuer: entityId,
      IssueInstant: now.toISOString(),
      StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
      ConditionsNotBefore: now.toISOString(),
      ConditionsNotOnOrAfter: later.toISOString(),
      SubjectConfirmationDataNotOnOrAfter: later.toISOString(),
      NameIDFormat: EMAIL_FORMAT,
      NameID: email,
      InResponseTo: request.id,
    };
    // samlify escapes every tag value: the two XML fragments go in afterwards.
    const fragments: Record<string, string> = {
      AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
      AttributeStatement: `<saml:AttributeStatement>${attribute('email', email)}${attribute('displayName', displayNameOf(email))}</saml:AttributeStatement>`,
    };
    const response = await idp.createLoginResponse(
      sp,
      { extract: { request: { id: request.id } } },
      'post',
      { email },
      {
        customTagReplacement: (template: string) => {
          let context = samlify.SamlLib.replaceTagsByValue(template, values);
          for (const [tag, xml] of Object.entries(fragments)) context = context.replace(`{${tag}}`, xml);
          return { id: responseId, context };
        },
        ...(request.relayState === undefined ? {} : { relayState: request.relayState }),
      },
    );
    return { acsUrl: request.acsUrl, SAMLResponse: response.context, RelayState: request.relayState };
  };

  routes.handle = async (url) => {
    if (url.pathname === '/metadata') return { status: 200, type: 'application/xml', body: metadata };
    if (url.pathname !== '/sso') return { status: 404, type: 'text/plain', body: 'not found' };
    const next = queued.shift() ?? { email: `default-user@${emailDomain}`, options: {} };
    const post = await respond(`${ssoUrl}${url.search}`, next.email, next.options);
    const field = (name: string, value: string) => `<input type="hidden" name="${name}" value="${escapeXml(value)}">`;
    const body = `<!doctype html><html><head><meta charset="utf-8"><title>Nemuri Test IdP</title></head><body onload="document.forms[0].submit()">
<form method="post" action="${escapeXml(post.acsUrl)}">${field('SAMLResponse', post.SAMLResponse)}${post.RelayState === undefined ? '' : field('RelayState', post.RelayState)}<noscript><button>Continue</button></noscript></form>
</body></html>`;
    return { status: 200, type: 'text/html; charset=utf-8', body };
  };

  return {
    origin,
    entityId,
    ssoUrl,
    metadata,
    cert,
    queueLogin: (email, options = {}) => void queued.push({ email, options }),
    respond,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
