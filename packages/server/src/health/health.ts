/**
 * GET /api/health: whether this process is up and its database answers. For load balancers,
 * container health checks and people: 200 `{ status: 'ok', ... }`, or 503 `{ status: 'error', ... }`.
 */
import { APP_VERSION } from '@nemuri/shared/version';
import type { FastifyPluginAsync } from 'fastify';
import type { Database, DatabaseKind } from '../database/database.ts';

export interface HealthResponse {
  status: 'ok' | 'error';
  version: string;
  database: DatabaseKind;
  /** Only with status 'error': what failed, without detail. */
  message?: string;
}

export interface HealthOptions {
  database: Database;
  /** How long the database may take to answer `select 1`. */
  timeoutMs?: number;
}

export const healthPlugin: FastifyPluginAsync<HealthOptions> = async (app, { database, timeoutMs = 2000 }) => {
  app.get('/api/health', async (request, reply): Promise<HealthResponse> => {
    const base = { version: APP_VERSION, database: database.kind };
    try {
      await withTimeout(database.query('select 1'), timeoutMs);
      return { status: 'ok', ...base };
    } catch (error) {
      request.log.warn({ err: error }, 'health check: the database does not answer');
      reply.code(503);
      return { status: 'error', ...base, message: 'the database does not answer' };
    }
  });
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
