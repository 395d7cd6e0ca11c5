/**
 * Mounts Better Auth under /api/auth: every request there goes to `auth.handler` as a Web
 * `Request` with its raw body, and its `Response` comes back with every cookie (one Set-Cookie
 * header each). The client's address is passed in CLIENT_IP_HEADER for the rate limiter. A
 * rate-limited answer (429) gets the JSON body `{ code: 'too-many-requests', message }` and a
 * standard Retry-After header; an unknown path gets the API's JSON 404. The auth instance may
 * still be starting (the server creates it once it knows its port): requests wait for it.
 */
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendNotFound } from '../http/errors.ts';
import type { Auth } from './auth.ts';
import { AUTH_BASE_PATH, CLIENT_IP_HEADER, webHeaders } from './http.ts';
import { RATE_LIMITED_CODE } from './rateLimit.ts';

export interface AuthPluginOptions {
  auth: Auth | Promise<Auth>;
}

export const authPlugin = fp<AuthPluginOptions>(
  async (app, { auth }) => {
    // Better Auth reads the body itself: hand it over untouched, whatever its type.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    app.all(`${AUTH_BASE_PATH}/*`, async (request, reply) => {
      const ready = await auth;
      const response = await ready.handler(toWebRequest(request, ready));

      reply.code(response.status);
      for (const [name, value] of response.headers) {
        if (name === 'set-cookie' || name === 'content-length') continue;
        reply.header(name, value);
      }
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);

      if (response.status === 429) {
        const retryAfter = response.headers.get('x-retry-after');
        if (retryAfter !== null) reply.header('retry-after', retryAfter);
        const message = await messageOf(response);
        return reply.type('application/json; charset=utf-8').send({ code: RATE_LIMITED_CODE, message });
      }
      const body = Buffer.from(await response.arrayBuffer());
      // An unknown path under /api/auth: the API's usual JSON 404 instead of an empty answer.
      if (response.status === 404 && body.length === 0) return sendNotFound(request, reply);
      return reply.send(body);
    });
  },
  { name: 'auth', dependencies: ['live'], encapsulate: true },
);

function toWebRequest(request: FastifyRequest, auth: Auth): Request {
  const headers = webHeaders(request.headers);
  headers.set(CLIENT_IP_HEADER, request.ip);
  // Appended, not resolved: a path such as `//host/...` must not change the origin.
  const url = new URL(`${new URL(auth.options.baseURL).origin}${request.url}`);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && Buffer.isBuffer(request.body);
  return new Request(url, {
    method: request.method,
    headers,
    ...(hasBody ? { body: new Uint8Array(request.body as Buffer) } : {}),
  });
}

async function messageOf(response: Response): Promise<string> {
  const fallback = 'Too many requests. Please try again later.';
  try {
    const body: unknown = await response.json();
    if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') return body.message;
  } catch {
    // not JSON: keep the fallback
  }
  return fallback;
}
