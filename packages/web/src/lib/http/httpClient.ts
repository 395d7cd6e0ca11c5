/**
 * The one way the web app calls its server over HTTP (issue 23). Every call:
 * - sends and reads JSON (`json`), or hands back the answer itself for bytes and streams (`response`);
 * - carries an X-Request-Id the server keeps in its log (server app.ts `requestIdOf`), and any
 *   failure carries the id the server answered with, so one id follows a call from screen to log;
 * - fails with one error type, `ApiError` (apiError.ts), with the status, the server's code and
 *   reason, the request id and the Retry-After;
 * - on 429 with a short Retry-After (the fair-share queue, server http/fairShare.ts) waits as asked
 *   and tries again, for reads only: a write or a sign-in is never sent twice behind the user's back.
 *
 * The sign-in calls keep their own module (lib/authClient.ts) but go through here too. Plain
 * `fetch` anywhere else fails lint (eslint.config.js), so that no call escapes these rules.
 *
 * The client is plain TypeScript over one seam, `fetch`, so that the documents client built on it
 * runs in Node against a real server in the server's tests.
 */
import { ApiError, NETWORK_FAILURE } from './apiError.ts';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a call needs of an answer: the browser's Response and Node's have it. */
export interface FetchedAnswer {
  status: number;
  headers?: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  credentials: 'same-origin';
  signal?: AbortSignal;
}

/** The part of `fetch` the client uses (the server's tests pass one that adds a cookie). */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchedAnswer>;

export const REQUEST_ID_HEADER = 'x-request-id';

export interface CallOptions {
  /** Sent as JSON. */
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Whether sending the call twice does no harm, so a 429 may be retried: true for GET and HEAD,
   * and to be said for reads sent as POST (document queries).
   */
  idempotent?: boolean;
}

/** Waits longer than this are the caller's business (a sign-in lock lasts minutes): fail at once. */
export const MAX_AUTOMATIC_WAIT_SECONDS = 10;
/** Tries of one call, the first included, while the server answers 429. */
const MAX_TRIES = 3;

const CODE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'invalid-argument',
  401: 'unauthenticated',
  403: 'permission-denied',
  404: 'not-found',
  409: 'already-exists',
  412: 'failed-precondition',
  429: 'resource-exhausted',
  503: 'unavailable',
};

/** A fresh id: crypto.randomUUID exists only in secure contexts (not on http://192.168…). */
export function newRequestId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Retry-After as seconds (delta-seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSecondsOf(header: string | null | undefined, now = Date.now()): number | null {
  if (header === null || header === undefined || header.trim() === '') return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function stringOf(body: unknown, key: string): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const value: unknown = (body as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : null;
}

/** The error of an answer other than 2xx, from its status, headers and body text. */
export function apiErrorOf(method: string, url: string, answer: FetchedAnswer, text: string, sentRequestId: string): ApiError {
  const body = parseJson(text);
  const retryAfterSeconds = retryAfterSecondsOf(answer.headers?.get('retry-after'));
  return new ApiError({
    status: answer.status,
    code: stringOf(body, 'code') ?? CODE_OF_STATUS[answer.status] ?? 'internal',
    reason: stringOf(body, 'reason'),
    message: stringOf(body, 'message') ?? `${method} ${url.split('?')[0]} answered ${answer.status}`,
    requestId: answer.headers?.get(REQUEST_ID_HEADER) ?? sentRequestId,
    retryAfterSeconds,
    body,
  });
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (error instanceof Error && error.name === 'AbortError');
}

function wait(seconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, seconds * 1000);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface HttpClientOptions {
  /** Where the server is: '' for the page's own origin, or e.g. `http://127.0.0.1:3000`. */
  baseUrl?: string;
  /** The browser's (or Node's) fetch unless given. */
  fetch?: FetchLike;
}

export interface HttpClient {
  /** Sends a JSON call; the answer's JSON (null when empty). A failure is an ApiError; an abort stays the AbortError. */
  json<T>(method: HttpMethod, path: string, options?: CallOptions): Promise<T>;
}

export function createHttpClient({ baseUrl = '', fetch: fetchImpl }: HttpClientOptions = {}): HttpClient {
  // Looked up per call: tests and the service worker may install fetch after this module loads.
  const send: FetchLike = fetchImpl ?? ((url, init) => globalThis.fetch(url, init));
  return {
    async json<T>(method: HttpMethod, path: string, options: CallOptions = {}): Promise<T> {
      const { body, signal } = options;
      const idempotent = options.idempotent ?? (method === 'GET' || method === 'HEAD');
      const url = `${baseUrl}${path}`;
      for (let tries = 1; ; tries++) {
        const requestId = newRequestId();
        const init: FetchInit = {
          method,
          credentials: 'same-origin',
          headers: { accept: 'application/json', [REQUEST_ID_HEADER]: requestId, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          ...(signal === undefined ? {} : { signal }),
        };
        let answer: FetchedAnswer;
        let text: string;
        try {
          answer = await send(url, init);
          text = await answer.text();
        } catch (error) {
          if (isAbort(error, signal)) throw error;
          throw new ApiError({ status: 0, code: NETWORK_FAILURE, message: error instanceof Error ? error.message : String(error), requestId });
        }
        if (answer.status >= 200 && answer.status <= 299) return parseJson(text) as T;
        const failure = apiErrorOf(method, url, answer, text, requestId);
        const waitSeconds = failure.retryAfterSeconds;
        if (answer.status === 429 && idempotent && tries < MAX_TRIES && waitSeconds !== null && waitSeconds <= MAX_AUTOMATIC_WAIT_SECONDS) {
          await wait(waitSeconds, signal);
          continue;
        }
        throw failure;
      }
    },
  };
}

/** The page's client: same origin, the session cookie. */
export const http: HttpClient = createHttpClient();

/**
 * An answer whose body is not JSON (signal bytes, a PDF read as it streams): sent with the same
 * request id, and a status other than 2xx fails with the same ApiError as `http.json`.
 */
export async function fetchResponse(path: string, { signal, accept = '*/*' }: { signal?: AbortSignal; accept?: string } = {}): Promise<Response> {
  const requestId = newRequestId();
  let response: Response;
  try {
    response = await globalThis.fetch(path, {
      method: 'GET',
      credentials: 'same-origin',
      headers: { accept, [REQUEST_ID_HEADER]: requestId },
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    if (isAbort(error, signal)) throw error;
    throw new ApiError({ status: 0, code: NETWORK_FAILURE, message: error instanceof Error ? error.message : String(error), requestId });
  }
  if (response.ok) return response;
  throw apiErrorOf('GET', path, response, await response.text().catch(() => ''), requestId);
}
