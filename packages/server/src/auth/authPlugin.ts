/**
 * Mounts Better Auth under /api/auth: every request there goes to `auth.handler` as a Web
 * `Request` with its raw body, and its `Response` comes back with every cookie (one Set-Cookie
 * header each). The client's address is passed in CLIENT_IP_HEADER for the rate limiter. A
 * rate-limited answer (429) gets the JSON body `{ code: 'too-many-requests', message }` and a
 * standard Retry-After header; an unknown path gets the API's JSON 404. The auth instance may
 * still be starting (the server creates it once it knows its port): requests wait for it.
 * Our own endpoints there (ourAuthRoutes.ts) are declared routes with schemas in front of the
 * catch-all; Better Auth's own ones get their bytes as sent.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorCodeOfStatus, sendNotFound } from '../http/errors.ts';
import { parseGuardedJson } from '../http/jsonGuard.ts';
import type { ZodTypeProvider } from '../http/zodRouteSchemas.ts';
import type { Auth } from './auth.ts';
import { AUTH_BASE_PATH, CLIENT_IP_HEADER, webHeaders } from './http.ts';
import { OUR_AUTH_ROUTES } from './ourAuthRoutes.ts';
import { RATE_LIMITED_CODE } from './rateLimit.ts';

export interface AuthPluginOptions {
  auth: Auth | Promise<Auth>;
}

export const authPlugin = fp<AuthPluginOptions>(
  async (app, { auth }) => {
    // Better Auth reads the body itself: hand it over untouched, whatever its type.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    // Our own endpoints first (a static path wins over the wildcard): their schemas check the input
    // and document them; what passes goes to Better Auth as validated JSON.
    for (const route of OUR_AUTH_ROUTES) {
      app.withTypeProvider<ZodTypeProvider>().route({
        method: route.method,
        url: `${AUTH_BASE_PATH}${route.path}`,
        schema: route.schema,
        // Answered below with the endpoint's own code, not the uniform `invalid-argument`.
        attachValidation: true,
        preValidation: async (request) => {
          request.body = jsonBodyOf(request);
        },
        handler: async (request, reply) => {
          if (request.validationError !== undefined)
            return reply.code(route.refusal.status).send({ code: route.refusal.code, message: route.refusal.message ?? request.validationError.message });
          const body = route.method === 'POST' ? Buffer.from(JSON.stringify(request.body ?? {})) : undefined;
          return answer(request, reply, await forward(request, await auth, body), true);
        },
      });
    }

    app.all(
      `${AUTH_BASE_PATH}/*`,
      {
        schema: {
          summary: 'Better Auth’s own endpoints (sign-in, sign-out, sessions, two-factor, social and SSO sign-in, …)',
          description:
            'Forwarded to Better Auth (https://www.better-auth.com/docs): `{path}` is one of its endpoints, e.g. `sign-in/email`, `sign-out`, `get-session`, `two-factor/*`, with the request and answer Better Auth defines for it. An unknown path answers the API’s JSON 404. Our own endpoints under /api/auth are listed separately. See docs/api.md "Session".',
        },
      },
      async (request, reply) => {
        const response = await forward(request, await auth, Buffer.isBuffer(request.body) ? request.body : undefined);
        return answer(request, reply, response, false);
      },
    );
  },
  { name: 'auth', dependencies: ['live'], encapsulate: true },
);

/** Better Auth's answer to the request (the auth instance may still be starting: this waits for it). */
function forward(request: FastifyRequest, auth: Auth, body: Buffer | undefined): Promise<Response> {
  return auth.handler(toWebRequest(request, auth, body));
}

/**
 * Sends Better Auth's answer with every cookie (one Set-Cookie header each); a 429 as `{ code:
 * 'too-many-requests', message }` with Retry-After. `checked`: a JSON answer goes out as a value, so
 * the route's response schema checks it, and an error without a body gets the API's `{ code, message }`.
 */
async function answer(request: FastifyRequest, reply: FastifyReply, response: Response, checked: boolean): Promise<FastifyReply> {
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
  if (!checked) {
    // An unknown path under /api/auth: the API's usual JSON 404 instead of an empty answer.
    if (response.status === 404 && body.length === 0) return sendNotFound(request, reply);
    return reply.send(body);
  }
  if (body.length === 0 && response.status >= 400)
    return reply.type('application/json; charset=utf-8').send({ code: errorCodeOfStatus(response.status), message: response.statusText || 'refused' });
  if (body.length > 0 && /json/i.test(response.headers.get('content-type') ?? '')) return reply.send(JSON.parse(body.toString('utf8')));
  return reply.send(body);
}

/** A route schema checks a value: the raw JSON body (the app-wide guard has checked it already), or nothing. */
function jsonBodyOf(request: FastifyRequest): unknown {
  if (!Buffer.isBuffer(request.body)) return request.body;
  const text = request.body.toString('utf8');
  // Not JSON: the schema refuses the bytes as they are.
  return text.trim() === '' ? undefined : /json/i.test(request.headers['content-type'] ?? '') ? parseGuardedJson(text) : request.body;
}

function toWebRequest(request: FastifyRequest, auth: Auth, body: Buffer | undefined): Request {
  const headers = webHeaders(request.headers);
  headers.set(CLIENT_IP_HEADER, request.ip);
  // Appended, not resolved: a path such as `//host/...` must not change the origin.
  const url = new URL(`${new URL(auth.options.baseURL).origin}${request.url}`);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && body !== undefined;
  return new Request(url, {
    method: request.method,
    headers,
    ...(hasBody ? { body: new Uint8Array(body) } : {}),
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
