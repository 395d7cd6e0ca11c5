/**
 * Health checks for load balancers, container health checks and people:
 * - GET /api/health/live: the process answers (no database): restart it when this fails;
 * - GET /api/health/ready: 200 only when migrations ran, sign-in and the demo data are loaded,
 *   the database answers, the MQTT broker is up, device frames are being stored (no backlog over
 *   its bound, no wait without a successful write) and the data disk is not nearly full; 503 with
 *   each check's state and a reason per failed check otherwise: send traffic only when this answers
 *   200. /metrics reports the same checks (readinessReport);
 * - GET /api/health: the database answers (kept as it was for existing monitors).
 */
import { healthResponseSchema, liveResponseSchema, readyResponseSchema, type HealthResponse, type ReadyResponse } from '@nemuri/shared/health';
import { APP_VERSION } from '@nemuri/shared/version';
import fp from 'fastify-plugin';
import type { Database } from '../database/database.ts';
import { Readiness, RUNTIME_CHECKS, type RuntimeCheck, type StartStep } from './readiness.ts';
import { withDeadline } from '../support/withDeadline.ts';

export type ReadyCheck = StartStep | 'database' | RuntimeCheck;

const REASONS: Record<StartStep | 'database', Record<'pending' | 'down', string>> = {
  migrations: { pending: 'the database migrations have not run yet', down: 'the database migrations failed' },
  signIn: { pending: 'sign-in is starting', down: 'sign-in could not start' },
  demoData: { pending: 'the demo data is loading', down: 'the demo data could not be loaded' },
  broker: { pending: 'the MQTT broker is starting', down: 'the MQTT broker is not connected' },
  database: { pending: 'the database is starting', down: 'the database does not answer' },
};

export interface HealthOptions {
  /** The start steps (server.ts); absent: an app with nothing left to start. */
  readiness?: Readiness;
  /** How long the database may take to answer `select 1`. */
  timeoutMs?: number;
}

export const healthPlugin = fp<HealthOptions>(
  async (app, { readiness = new Readiness(), timeoutMs = 2000 }) => {
    const { database } = app;
    app.get('/api/health/live', { schema: { summary: 'The process answers (no database)', response: { 200: liveResponseSchema } } }, async () => ({
      status: 'ok' as const,
      version: APP_VERSION,
    }));

    app.get(
      '/api/health/ready',
      { schema: { summary: 'Ready for traffic: 200 only when every check is ok', response: { 200: readyResponseSchema, 503: readyResponseSchema } } },
      async (request, reply): Promise<ReadyResponse> => {
        const report = await readinessReport(database, readiness, timeoutMs, (error) =>
          request.log.warn({ err: error }, 'ready check: the database does not answer'),
        );
        const base = { version: APP_VERSION, database: database.kind, checks: report.checks };
        if (report.ready) return { status: 'ok', ...base };
        reply.code(503).header('retry-after', '5');
        return { status: 'error', ...base, reasons: report.reasons };
      },
    );

    app.get(
      '/api/health',
      { schema: { summary: 'The database answers', response: { 200: healthResponseSchema, 503: healthResponseSchema } } },
      async (request, reply): Promise<HealthResponse> => {
        const base = { version: APP_VERSION, database: database.kind };
        try {
          await withDeadline(database.query('select 1'), timeoutMs);
          return { status: 'ok', ...base };
        } catch (error) {
          request.log.warn({ err: error }, 'health check: the database does not answer');
          reply.code(503);
          return { status: 'error', ...base, message: 'the database does not answer' };
        }
      },
    );
  },
  { name: 'health', dependencies: ['database'], encapsulate: true },
);

export interface ReadinessReport {
  ready: boolean;
  checks: Record<ReadyCheck, 'ok' | 'pending' | 'down'>;
  /** One phrase per check that is not ok (empty when ready). */
  reasons: string[];
}

/** Every check's state now: what /api/health/ready answers and /metrics exposes. */
export async function readinessReport(
  database: Database,
  readiness: Readiness,
  timeoutMs = 2000,
  onDatabaseError?: (error: unknown) => void,
): Promise<ReadinessReport> {
  const checks: ReadinessReport['checks'] = { ...readiness.steps(), database: 'ok', storage: 'ok', disk: 'ok' };
  const reasons: string[] = [];
  // Asked only once the start steps are done: during the demo data load the one PGlite
  // connection is busy, and a ready check must not queue behind it.
  const databaseAnswers = readiness.serving
    ? withDeadline(database.query('select 1'), timeoutMs).then(
        () => 'ok' as const,
        (error: unknown) => {
          onDatabaseError?.(error);
          return 'down' as const;
        },
      )
    : Promise.resolve(readiness.stopping ? ('down' as const) : ('pending' as const));
  const [databaseState, conditions] = await Promise.all([databaseAnswers, readiness.conditions()]);
  checks.database = databaseState;
  for (const name of ['migrations', 'signIn', 'demoData', 'broker', 'database'] as const) {
    const state = checks[name];
    if (state !== 'ok') reasons.push(REASONS[name][state]);
  }
  for (const check of RUNTIME_CHECKS) {
    const condition = conditions[check];
    checks[check] = condition.state;
    if (condition.state === 'down') reasons.push(condition.reason);
  }
  if (readiness.stopping) reasons.unshift('the server is shutting down');
  return { ready: reasons.length === 0, checks, reasons };
}
