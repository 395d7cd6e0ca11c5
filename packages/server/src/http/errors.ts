/**
 * Uniform JSON errors for the API: `{ code, message }`. Validation failures answer 400
 * `invalid-argument`, unknown things 404 `not-found`, and anything unexpected 500 `internal`
 * whose detail goes to the log only.
 */
import { DocumentError, HTTP_STATUS_OF_CODE } from '@nemuri/shared/documents/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appWide } from './appWide.ts';

export type ErrorCode =
  | 'invalid-argument'
  | 'unauthenticated'
  | 'permission-denied'
  | 'not-found'
  | 'already-exists'
  | 'failed-precondition'
  | 'resource-exhausted'
  | 'unavailable'
  | 'internal';

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  /** A finer reason a screen picks its message by (e.g. `invalid-phone`), where the route gives one. */
  reason?: string;
}

/** Throw from a handler to answer with this status and code. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'invalid-argument',
  401: 'unauthenticated',
  403: 'permission-denied',
  404: 'not-found',
  409: 'already-exists',
  412: 'failed-precondition',
  429: 'resource-exhausted',
  503: 'unavailable',
};

/** The API's code for an error status without one (`invalid-argument` for other 4xx, `internal` for 5xx). */
export function errorCodeOfStatus(status: number): ErrorCode {
  return CODE_OF_STATUS[status] ?? (status < 500 ? 'invalid-argument' : 'internal');
}

export function sendError(reply: FastifyReply, statusCode: number, code: ErrorCode, message: string, reason?: string): FastifyReply {
  const body: ErrorBody = reason === undefined ? { code, message } : { code, message, reason };
  return reply.code(statusCode).type('application/json; charset=utf-8').send(body);
}

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  return sendError(reply, error.statusCode, error.code, error.message, error.reason);
}

/** The document engine's errors as API errors, with the statuses of /api/documents ('aborted' reads as already-exists). */
export function apiErrorOfDocument(error: DocumentError): ApiError {
  const code: ErrorCode = error.code === 'aborted' ? 'already-exists' : error.code === 'unimplemented' ? 'internal' : error.code;
  return new ApiError(HTTP_STATUS_OF_CODE[error.code], code, error.message);
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, 404, 'not-found', `no ${request.method} ${request.url.split('?')[0]}`);
}

interface ErrorLike {
  statusCode?: unknown;
  validation?: unknown;
  message?: unknown;
  code?: unknown;
}

export const errorsPlugin = appWide('errors', async (app) => {
  app.setErrorHandler((error: unknown, request, reply) => {
    const err: ErrorLike = typeof error === 'object' && error !== null ? error : {};
    const message = typeof err.message === 'string' ? err.message : 'error';
    if (error instanceof ApiError) return sendApiError(reply, error);
    // A plugin that lets the engine's refusal through answers like /api/documents.
    if (error instanceof DocumentError) return sendApiError(reply, apiErrorOfDocument(error));
    if (err.validation !== undefined) return sendError(reply, 400, 'invalid-argument', message);
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) return sendError(reply, status, CODE_OF_STATUS[status] ?? 'invalid-argument', message);
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 500, 'internal', 'internal error');
  });
});
