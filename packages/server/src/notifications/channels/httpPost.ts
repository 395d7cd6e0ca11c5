/**
 * A POST through node:http(s) rather than fetch: a kept-alive agent per channel reuses connections
 * across a batch (1,000 pushes to one push service), each request costs less than fetch's, and the
 * connection can be given a `lookup` that checks where a host name leads before connecting to
 * exactly that address (webhooks, targets.ts). Redirects are not followed.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

export interface HttpAnswer {
  status: number;
  /** The start of the answer's body (error messages; nothing more is kept). */
  body: string;
}

export interface HttpPostOptions {
  headers: Record<string, string>;
  body: string | Uint8Array;
  timeoutMs: number;
  /** Kept-alive connections (one agent per protocol); none: a connection per request. */
  agents?: { http: http.Agent; https: https.Agent };
  /** Resolves the host name for the connection (address checks). */
  lookup?: LookupFunction;
}

const BODY_LIMIT = 16 * 1024;

export function keptAliveAgents(maxSockets: number): { http: http.Agent; https: https.Agent } {
  return { http: new http.Agent({ keepAlive: true, maxSockets }), https: new https.Agent({ keepAlive: true, maxSockets }) };
}

export function httpPost(url: URL, options: HttpPostOptions): Promise<HttpAnswer> {
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:') return Promise.reject(new Error(`unsupported protocol ${url.protocol}`));
  const body = typeof options.body === 'string' ? Buffer.from(options.body) : options.body;
  return new Promise<HttpAnswer>((resolve, reject) => {
    const request = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        headers: { ...options.headers, 'content-length': String(body.byteLength) },
        ...(options.agents === undefined ? {} : { agent: secure ? options.agents.https : options.agents.http }),
        ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let length = 0;
        response.on('data', (chunk: Buffer) => {
          if (length < BODY_LIMIT) chunks.push(chunk);
          length += chunk.length;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, BODY_LIMIT).toString('utf8') }));
        response.on('error', reject);
      },
    );
    // One timer per request on its socket (cheaper than an AbortSignal per request, 1,000 at a time):
    // no answer within the time, and the request ends with an error worth another try.
    request.setTimeout(options.timeoutMs, () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}
