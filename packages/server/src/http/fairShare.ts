/**
 * Fair sharing of expensive work (security issue, finding 4): one tenant's heavy requests must not
 * slow another tenant by more than a small bound. A route opts in with `config: { fairShare: kind }`
 * and then runs only while its user, its tenant and the whole process are under that kind's
 * concurrency limits (FAIR_SHARE below, the one place for the figures; docs/security.md
 * "Fair sharing" explains each). A request over a limit waits in a small per-tenant queue; when
 * that is full, or the wait too long, it answers 429 `resource-exhausted` with Retry-After.
 *
 * The tenant is the root domain (a facility's corporation), or the own domain for agency levels
 * (an agency's partners are other tenants; its work is the agency's). Requests without a principal
 * are not limited here: they are refused before doing any work.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAgencyLevel } from '@nemuri/shared/documents/access';
import type { DatabaseKind } from '../database/database.ts';
import { appWide } from './appWide.ts';
import { sendError } from './errors.ts';

export type FairShareKind = 'commit' | 'pdf' | 'download' | 'upload' | 'analysis';

export interface FairShareLimit {
  /** Requests of this kind one user runs at once. */
  perUser: number;
  /** Requests of this kind one tenant runs at once. */
  perTenant: number;
  /** Requests of this kind the process runs at once, per database kind. */
  global: Readonly<Record<DatabaseKind, number>>;
  /** Requests of one tenant that may wait for a turn; one more is refused at once. */
  queuePerTenant: number;
  /** Longest wait for a turn before answering 429. */
  maxWaitMs: number;
  /** Retry-After of a refusal, in seconds. */
  retryAfterSeconds: number;
  /**
   * How long a finished turn stays taken, per database kind. On PGlite's one connection a big commit
   * holds everyone up; the pause lets the requests that waited for it finish theirs (a read takes a
   * few database turns) before the next big commit takes the connection again.
   */
  pauseAfterMs?: Readonly<Record<DatabaseKind, number>>;
  /** What the refusal says (Japanese: the screen shows it as it is). */
  what: string;
}

/**
 * The figures. PGlite has one connection: a commit holds it for its whole transaction, so only one
 * big commit runs at a time and everything else waits for at most that one. PostgreSQL's pool has
 * POOL_CONNECTIONS (database/postgresql.ts); commits may take at most 4 of them, so reads always find one.
 */
export const FAIR_SHARE: Readonly<Record<FairShareKind, FairShareLimit>> = {
  commit: {
    perUser: 1,
    perTenant: 2,
    global: { pglite: 1, postgresql: 4 },
    queuePerTenant: 8,
    maxWaitMs: 10_000,
    retryAfterSeconds: 1,
    pauseAfterMs: { pglite: 100, postgresql: 0 },
    what: '一括書き込み',
  },
  pdf: { perUser: 1, perTenant: 2, global: { pglite: 2, postgresql: 2 }, queuePerTenant: 2, maxWaitMs: 20_000, retryAfterSeconds: 5, what: 'PDF の作成' },
  download: {
    perUser: 2,
    perTenant: 4,
    global: { pglite: 4, postgresql: 8 },
    queuePerTenant: 4,
    maxWaitMs: 10_000,
    retryAfterSeconds: 2,
    what: 'レポートのダウンロード',
  },
  upload: {
    perUser: 2,
    perTenant: 3,
    global: { pglite: 4, postgresql: 8 },
    queuePerTenant: 2,
    maxWaitMs: 10_000,
    retryAfterSeconds: 5,
    what: 'ファイルのアップロード',
  },
  analysis: { perUser: 1, perTenant: 2, global: { pglite: 1, postgresql: 2 }, queuePerTenant: 2, maxWaitMs: 20_000, retryAfterSeconds: 5, what: '睡眠の解析' },
};

/**
 * Commits of at most this many writes cost about as much as that many single writes, which are not
 * limited either: they go through without taking a turn (the web app's own transactions are small).
 */
export const SMALL_COMMIT_WRITES = 20;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's kind of expensive work, limited per user, tenant and process (http/fairShare.ts). */
    fairShare?: FairShareKind;
    /** A request of the route that is cheap enough to need no turn (e.g. a small commit). */
    fairShareExempt?: (request: FastifyRequest) => boolean;
  }
}

export interface Requester {
  user: string;
  tenant: string;
}

export function requesterOf(principal: { uid: string; accessLevel: number; domainId: string | null; rootDomainId: string | null }): Requester {
  const tenant = isAgencyLevel(principal) ? principal.domainId : (principal.rootDomainId ?? principal.domainId);
  return { user: principal.uid, tenant: tenant ?? `user:${principal.uid}` };
}

export class FairShareRefused extends Error {
  constructor(readonly limit: FairShareLimit) {
    super(`混み合っています。${limit.what}は同時に実行できる数を超えました。${limit.retryAfterSeconds} 秒ほど待ってからもう一度お試しください。`);
    this.name = 'FairShareRefused';
  }
}

interface Waiter {
  who: Requester;
  admit(release: () => void): void;
}

const bump = (counts: Map<string, number>, key: string, by: number): void => {
  const next = (counts.get(key) ?? 0) + by;
  if (next === 0) counts.delete(key);
  else counts.set(key, next);
};

/** The turns of one kind of work in one process. */
export class FairShareLimiter {
  readonly #limit: FairShareLimit;
  readonly #global: number;
  readonly #pauseMs: number;
  readonly #users = new Map<string, number>();
  readonly #tenants = new Map<string, number>();
  readonly #waitingPerTenant = new Map<string, number>();
  #running = 0;
  #waiters: Waiter[] = [];

  constructor(limit: FairShareLimit, databaseKind: DatabaseKind) {
    this.#limit = limit;
    this.#global = limit.global[databaseKind];
    this.#pauseMs = limit.pauseAfterMs?.[databaseKind] ?? 0;
  }

  get running(): number {
    return this.#running;
  }

  #fits(who: Requester): boolean {
    return (
      this.#running < this.#global && (this.#users.get(who.user) ?? 0) < this.#limit.perUser && (this.#tenants.get(who.tenant) ?? 0) < this.#limit.perTenant
    );
  }

  #take(who: Requester): () => void {
    this.#running++;
    bump(this.#users, who.user, 1);
    bump(this.#tenants, who.tenant, 1);
    let released = false;
    const end = (): void => {
      this.#running--;
      bump(this.#users, who.user, -1);
      bump(this.#tenants, who.tenant, -1);
      this.#admitWaiting();
    };
    return () => {
      if (released) return;
      released = true;
      if (this.#pauseMs > 0) setTimeout(end, this.#pauseMs).unref();
      else end();
    };
  }

  /** Lets in, in order of arrival, every waiter that fits now (a tenant at its limit does not hold up others). */
  #admitWaiting(): void {
    this.#waiters = this.#waiters.filter((waiter) => {
      if (!this.#fits(waiter.who)) return true;
      waiter.admit(this.#take(waiter.who));
      return false;
    });
  }

  /** Waits for a turn; resolves with the function that ends it. Throws FairShareRefused. */
  acquire(who: Requester): Promise<() => void> {
    if (this.#fits(who)) {
      return Promise.resolve(this.#take(who));
    }
    if ((this.#waitingPerTenant.get(who.tenant) ?? 0) >= this.#limit.queuePerTenant) return Promise.reject(new FairShareRefused(this.#limit));
    bump(this.#waitingPerTenant, who.tenant, 1);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        who,
        admit: (release) => {
          clearTimeout(timer);
          bump(this.#waitingPerTenant, who.tenant, -1);
          resolve(release);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((other) => other !== waiter);
        bump(this.#waitingPerTenant, who.tenant, -1);
        reject(new FairShareRefused(this.#limit));
      }, this.#limit.maxWaitMs);
      timer.unref();
      this.#waiters.push(waiter);
    });
  }
}

export interface FairSharePluginOptions {
  databaseKind: DatabaseKind;
}

export function sendFairShareRefusal(reply: FastifyReply, refused: FairShareRefused): FastifyReply {
  reply.header('retry-after', String(refused.limit.retryAfterSeconds));
  return sendError(reply, 429, 'resource-exhausted', refused.message);
}

/**
 * App-wide, registered before the plugins with routes: every route declared with
 * `config.fairShare` gets its handler wrapped, so that its turn lasts exactly as long as the
 * handler's work (a client that hangs up does not end the turn early; the request's preHandler
 * hooks, `request.principal` among them, have run before).
 */
export const fairSharePlugin = appWide<FairSharePluginOptions>('fairShare', async (app, { databaseKind }) => {
  const limiters = new Map<FairShareKind, FairShareLimiter>();
  for (const kind of Object.keys(FAIR_SHARE) as FairShareKind[]) limiters.set(kind, new FairShareLimiter(FAIR_SHARE[kind], databaseKind));

  app.addHook('onRoute', (route) => {
    const kind = route.config?.fairShare;
    if (kind === undefined) return;
    const limiter = limiters.get(kind);
    if (limiter === undefined) throw new Error(`route ${route.method} ${route.url}: unknown fairShare kind "${kind}"`);
    const handler = route.handler;
    const exempt = route.config?.fairShareExempt;
    route.handler = async function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      if (request.principal === null || exempt?.(request) === true) return handler.call(this, request, reply);
      let release: () => void;
      try {
        release = await limiter.acquire(requesterOf(request.principal));
      } catch (error) {
        if (!(error instanceof FairShareRefused)) throw error;
        return sendFairShareRefusal(reply, error);
      }
      try {
        return await handler.call(this, request, reply);
      } finally {
        release();
      }
    };
  });
});
