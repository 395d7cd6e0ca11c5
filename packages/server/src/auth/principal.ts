/**
 * Who is signed in, for every plugin: `request.principal` is `{ uid, accessLevel, domainId,
 * rootDomainId }` or null. It is resolved from the Better Auth session cookie before the handler
 * of every /api route except /api/auth/* (Better Auth's own) and /api/health (which must answer
 * while the database does not); elsewhere it stays null. The session is read once per request
 * (`sessionOf`), and a session due for renewal sends its renewed cookie with the answer.
 * A request with an integration API key (`Authorization: Bearer nmk_…`) acts for that key instead,
 * and reaches only the routes its scopes grant (integrations/apiKeyPrincipal.ts).
 */
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Auth, AuthSession } from './auth.ts';
import { apiKeyPrincipals } from '../integrations/apiKeyPrincipal.ts';
import { AUTH_BASE_PATH, webHeaders } from './http.ts';
import { principalOf, type Principal } from './signedInUser.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Who the request acts for (see principal.ts); null when nobody is signed in. */
    principal: Principal | null;
  }
}

export interface PrincipalPluginOptions {
  auth: Auth | Promise<Auth>;
}

const sessions = new WeakMap<FastifyRequest, Promise<AuthSession | null>>();

/** The request's session, read from its cookie once per request. */
export function sessionOf(auth: Auth | Promise<Auth>, request: FastifyRequest, reply: FastifyReply): Promise<AuthSession | null> {
  let session = sessions.get(request);
  if (session === undefined) {
    session = readSession(auth, request, reply);
    sessions.set(request, session);
  }
  return session;
}

async function readSession(auth: Auth | Promise<Auth>, request: FastifyRequest, reply: FastifyReply): Promise<AuthSession | null> {
  if (request.headers.cookie === undefined) return null;
  const ready = await auth;
  const { headers, response } = await ready.api.getSession({ headers: webHeaders(request.headers), returnHeaders: true });
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) reply.header('set-cookie', cookies);
  return response;
}

export function needsPrincipal(url: string): boolean {
  // /metrics too: a system administrator's session may read it (metrics/metricsPlugin.ts).
  if (/^\/metrics(?:[?]|$)/.test(url)) return true;
  return url.startsWith('/api/') && !url.startsWith(`${AUTH_BASE_PATH}/`) && !/^\/api\/health(?:[/?]|$)/.test(url);
}

export const principalPlugin = fp<PrincipalPluginOptions>(
  async (app, { auth }) => {
    const secondFactor = app.secondFactor;
    const apiKeys = apiKeyPrincipals(app.database);
    app.decorateRequest('principal', null);
    app.addHook('preHandler', async (request, reply) => {
      if (!needsPrincipal(request.url)) return;
      // A key, when presented, is the only identity: a session cookie beside it is not read.
      const keyPrincipal = await apiKeys.principalOf(request);
      if (keyPrincipal !== undefined) {
        request.principal = keyPrincipal;
        return;
      }
      const session = await sessionOf(auth, request, reply);
      request.principal = session === null ? null : principalOf(session, await secondFactor.requires(session.user.domainId));
    });
  },
  { name: 'principal', dependencies: ['database', 'secondFactor'] },
);
