/**
 * What the process still waits for before it can serve: the start steps server.ts completes in
 * turn (migrations, sign-in, demo data, the MQTT broker), and once running the conditions that
 * can fail under it (frames being stored, free disk space: `watch`). `/api/health/ready` and
 * /metrics report them (health.ts), and
 * the readiness gate answers API requests 503 at once while the steps sign-in and the database
 * need are incomplete, instead of letting them queue behind the demo data load on PGlite's one
 * connection (a sign-in used to hang for up to 30 s there).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appWide } from '../http/appWide.ts';
import { sendError } from '../http/errors.ts';

export type StartStep = 'migrations' | 'signIn' | 'demoData' | 'broker';

/** The steps API requests need; the broker only concerns devices, so sign-in does not wait for it. */
const SERVING_STEPS: readonly StartStep[] = ['migrations', 'signIn', 'demoData'];

export const START_STEPS: readonly StartStep[] = ['migrations', 'signIn', 'demoData', 'broker'];

/** Conditions checked while the server runs; one not watched counts as ok. */
export type RuntimeCheck = 'storage' | 'disk';

export const RUNTIME_CHECKS: readonly RuntimeCheck[] = ['storage', 'disk'];

export type RuntimeState = { state: 'ok' } | { state: 'down'; reason: string };

export class Readiness {
  readonly #pending: Set<StartStep>;
  #stopping = false;
  #brokerUp: () => boolean = () => true;
  readonly #probes = new Map<RuntimeCheck, () => RuntimeState | Promise<RuntimeState>>();

  /** `pending`: the steps still to come; none (the default) for an app built without server.ts, e.g. in tests. */
  constructor(pending: Iterable<StartStep> = []) {
    this.#pending = new Set(pending);
  }

  done(step: StartStep): void {
    this.#pending.delete(step);
  }

  /** Once the broker runs: whether it still does (an external one may drop the connection). */
  watchBroker(isUp: () => boolean): void {
    this.#brokerUp = isUp;
    this.done('broker');
  }

  /** A condition to check at every ready check and scrape from now on. */
  watch(check: RuntimeCheck, probe: () => RuntimeState | Promise<RuntimeState>): void {
    this.#probes.set(check, probe);
  }

  /** Each runtime condition's state now; a probe that throws counts as down. */
  async conditions(): Promise<Record<RuntimeCheck, RuntimeState>> {
    const entries = await Promise.all(
      RUNTIME_CHECKS.map(async (check): Promise<[RuntimeCheck, RuntimeState]> => {
        const probe = this.#probes.get(check);
        if (probe === undefined) return [check, { state: 'ok' }];
        try {
          return [check, await probe()];
        } catch (error) {
          return [check, { state: 'down', reason: `the ${check} check failed: ${error instanceof Error ? error.message : String(error)}` }];
        }
      }),
    );
    return Object.fromEntries(entries) as Record<RuntimeCheck, RuntimeState>;
  }

  /** Shutting down: no longer ready, so a load balancer drains this process. */
  stop(): void {
    this.#stopping = true;
  }

  /** Whether API requests can be served (the broker aside). */
  get serving(): boolean {
    return !this.#stopping && SERVING_STEPS.every((step) => !this.#pending.has(step));
  }

  /** Each step's state: 'ok', 'pending' (not reached yet) or 'down' (the broker after it ran). */
  steps(): Record<StartStep, 'ok' | 'pending' | 'down'> {
    const state = (step: StartStep): 'ok' | 'pending' | 'down' => {
      if (this.#pending.has(step)) return 'pending';
      if (step === 'broker' && !this.#brokerUp()) return 'down';
      return 'ok';
    };
    return { migrations: state('migrations'), signIn: state('signIn'), demoData: state('demoData'), broker: state('broker') };
  }

  get stopping(): boolean {
    return this.#stopping;
  }
}

/** Seconds a client should wait before asking again while the start completes. */
export const RETRY_AFTER_SECONDS = 5;

export const STARTING_MESSAGE = 'サーバーを起動しています。しばらくしてからもう一度お試しください。';

/** Paths that answer during the start: health checks, and what the sign-in page reads first. */
function answersWhileStarting(url: string): boolean {
  return !url.startsWith('/api') || /^\/api\/(?:health|app-info)(?:[/?]|$)/.test(url);
}

export interface ReadinessGateOptions {
  readiness: Readiness;
}

// App-wide: it answers for every plugin's API routes.
export const readinessGatePlugin = appWide<ReadinessGateOptions>('readinessGate', async (app, { readiness }) => {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (readiness.serving || answersWhileStarting(request.url)) return;
    reply.header('retry-after', String(RETRY_AFTER_SECONDS)).header('cache-control', 'no-store');
    return sendError(reply, 503, 'unavailable', STARTING_MESSAGE);
  });
});
