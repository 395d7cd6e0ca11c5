/**
 * The one error every server call of the web app ends in (lib/http/httpClient.ts): the answer's
 * status, the server's `code` (our API's `invalid-argument`…, or Better Auth's `INVALID_PASSWORD`…)
 * and, where the server gives one, its finer `reason`, plus the request id the server logged the
 * call under, so that a support question can find the log line.
 */

/** No answer came (the network, or the server's connection dropped). */
export const NETWORK_FAILURE = 'network';

export interface ApiErrorDetails {
  /** HTTP status; 0 when no answer came. */
  status: number;
  /** The server's code; `network` when no answer came; `internal` when the answer named none. */
  code: string;
  /** The server's finer reason (e.g. `invalid-photo`), null when it gave none. */
  reason?: string | null;
  message: string;
  /** The request id (X-Request-Id) the server logged the call under. */
  requestId?: string | null;
  /** Seconds the server asked to wait (Retry-After), null when it did not say. */
  retryAfterSeconds?: number | null;
  /** The answer's parsed JSON body (null when empty or not JSON), for callers that need more fields. */
  body?: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly reason: string | null;
  readonly requestId: string | null;
  readonly retryAfterSeconds: number | null;
  readonly body: unknown;

  constructor(details: ApiErrorDetails) {
    super(details.message);
    this.name = 'ApiError';
    this.status = details.status;
    this.code = details.code;
    this.reason = details.reason ?? null;
    this.requestId = details.requestId ?? null;
    this.retryAfterSeconds = details.retryAfterSeconds ?? null;
    this.body = details.body ?? null;
  }

  /** No answer came: the network or the server is away. */
  get isNetworkFailure(): boolean {
    return this.status === 0;
  }
}

/** The server's reason when it gave one, else its code: what screens pick their message by. */
export function reasonOrCode(error: ApiError): string {
  return error.reason ?? error.code;
}
