/**
 * Health checks for load balancers, container health checks and people:
 * - GET /api/health/live: the process answers (no database): restart it when this fails;
 * - GET /api/health/ready: 200 only when migrations ran, sign-in and the demo data are loaded,
 *   the database answers and the MQTT broker is up; 503 with each check's state otherwise: send
 *   traffic only when this answers 200;
 * - GET /api/health: the database answers (kept as it was for existing monitors).
 */
import { APP_VERSION } from '@nemuri/shared/version';
import type { FastifyPluginAsync } from 'fastify';
import type { Database, DatabaseKind } from '../database/database.ts';
import { Readiness, type StartStep } from './readiness.ts';

export interface HealthResponse {
  status: 'ok' | 'error';
  version: string;
  database: DatabaseKind;
  /** Only with status 'error': what failed, without detail. */
  message?: string;
}

export interface ReadyResponse {
  status: 'ok' | 'error';
  version: string;
  database: DatabaseKind;
  checks: Record<StartStep | 'database', 'ok' | 'pending' | 'down'>;
  /** Only with status 'error': what is missing, one phrase per check. */
  reasons?: string[];
}

const REASONS: Record<StartStep | 'database', Record<'pending' | 'down', string>> = {
  migrations: { pending: 'the database migrations have not run yet', down: 'the database migrations failed' },
  signIn: { pending: 'sign-in is starting', down: 'sign-in could not start' },
  demoData: { pending: 'the demo data is loading', down: 'the demo data could not be loaded' },
  broker: { pending: 'the MQTT broker is starting', down: 'the MQTT broker is not connected' },
  database: { pending: 'the database is starting', down: 'the database does not answer' },
};

export interface HealthOptions {
  database: Database;
  /** The start steps (server.ts); absent: an app with nothing left to start. */
  readiness?: Readiness;
  /** How long the database may take to answer `select 1`. */
  timeoutMs?: number;
}

export const healthPlugin: FastifyPluginAsync<HealthOptions> = async (app, { database, readiness = new Readiness(), timeoutMs = 2000 }) => {
  app.get('/api/health/live', async (): Promise<{ status: 'ok'; version: string }> => ({ status: 'ok', version: APP_VERSION }));

  app.get('/api/health/ready', async (request, reply): Promise<ReadyResponse> => {
    const checks: ReadyResponse['checks'] = { ...readiness.steps(), database: 'ok' };
    // Asked only once the start steps are done: during the demo data load the one PGlite
    // connection is busy, and a ready check must not queue behind it.
    if (readiness.serving) {
      try {
        await withTimeout(database.query('select 1'), timeoutMs);
      } catch (error) {
        request.log.warn({ err: error }, 'ready check: the database does not answer');
        checks.database = 'down';
      }
    } else {
      checks.database = readiness.stopping ? 'down' : 'pending';
    }
    const reasons = (Object.keys(checks) as (keyof typeof checks)[]).flatMap((name) => {
      const state = checks[name];
      return state === 'ok' ? [] : [REASONS[name][state]];
    });
    if (readiness.stopping) reasons.unshift('the server is shutting down');
    const base = { version: APP_VERSION, database: database.kind, checks };
    if (reasons.length === 0) return { status: 'ok', ...base };
    reply.code(503).header('retry-after', '5');
    return { status: 'error', ...base, reasons };
  });

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
