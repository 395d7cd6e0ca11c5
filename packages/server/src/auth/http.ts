/**
 * What the HTTP side of sign-in shares, without loading Better Auth (server.ts loads it only once
 * listening, so that a start failing earlier says so at once): where Better Auth is mounted, the
 * header carrying the client's address, the public URL, and Node headers as Web `Headers`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Config } from '../config.ts';

/** Where authPlugin mounts Better Auth. */
export const AUTH_BASE_PATH = '/api/auth';

/**
 * The request header that carries the client's address from authPlugin to Better Auth's rate
 * limiter. authPlugin always sets it from the connection (Fastify's `request.ip`) and drops any
 * value a client sent, so nobody escapes the limit by claiming another address.
 */
export const CLIENT_IP_HEADER = 'x-nemuri-client-ip';

/** PUBLIC_URL, or `http://localhost:<port>` for the port the server listens on. */
export function publicUrlOf(config: Pick<Config, 'publicUrl'> & { port: number }): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

/** Headers that describe the connection, not the message: a Web `Request` refuses or recomputes them. */
const CONNECTION_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'content-length', 'host', 'expect']);

/** The request's headers as Web `Headers`, without connection headers and CLIENT_IP_HEADER. */
export function webHeaders(incoming: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || CONNECTION_HEADERS.has(name) || name === CLIENT_IP_HEADER) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}
