/**
 * What the health checks answer (server health/health.ts; docs/api.md, "Health"): the answers'
 * schemas, for the routes and the OpenAPI document alike.
 */
import { z } from 'zod/v3';

const DATABASE_KINDS = ['pglite', 'postgresql'] as const;
/** The start steps and the runtime checks readiness waits for (server health/readiness.ts). */
export const READY_CHECKS = ['migrations', 'signIn', 'demoData', 'broker', 'database', 'storage', 'disk'] as const;
const CHECK_STATES = ['ok', 'pending', 'down'] as const;

/** GET /api/health/live: the process answers. */
export const liveResponseSchema = z.object({ status: z.literal('ok'), version: z.string() }).strict();

/** GET /api/health: the database answers (503 with `message` when it does not). */
export const healthResponseSchema = z
  .object({
    status: z.enum(['ok', 'error']),
    version: z.string(),
    database: z.enum(DATABASE_KINDS),
    /** Only with status 'error': what failed, without detail. */
    message: z.string().optional(),
  })
  .strict();
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/** GET /api/health/ready: every check's state; 503 with a reason per failed check until all are ok. */
export const readyResponseSchema = z
  .object({
    status: z.enum(['ok', 'error']),
    version: z.string(),
    database: z.enum(DATABASE_KINDS),
    checks: z
      .object(
        Object.fromEntries(READY_CHECKS.map((check) => [check, z.enum(CHECK_STATES)])) as Record<
          (typeof READY_CHECKS)[number],
          z.ZodEnum<['ok', 'pending', 'down']>
        >,
      )
      .strict(),
    /** Only with status 'error': what is missing, one phrase per check. */
    reasons: z.array(z.string()).optional(),
  })
  .strict();
export type ReadyResponse = z.infer<typeof readyResponseSchema>;
