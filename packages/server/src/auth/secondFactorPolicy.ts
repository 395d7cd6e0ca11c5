/**
 * Whether a user's domain requires a second factor: `settings.requireMfa` on the user's domain or
 * on its root domain (a corporation can require it of every facility). Read on every request
 * that resolves a principal, so answers are kept for a few seconds per domain: a changed setting
 * takes effect within SECOND_FACTOR_POLICY_TTL_MS. One policy per app (`app.secondFactor`, the
 * `secondFactor` service), shared by sign-in, the request principal, `/api/me` and the live sockets.
 */
import fp from 'fastify-plugin';
import type { Queryable } from '../database/database.ts';
import { effectiveLevel, secondFactorsOf, type Principal } from './signedInUser.ts';

export const SECOND_FACTOR_POLICY_TTL_MS = 5_000;

interface Cached {
  at: number;
  required: Promise<boolean>;
}

export class SecondFactorPolicy {
  readonly #database: Queryable;
  readonly #ttlMs: number;
  readonly #cache = new Map<string, Cached>();

  constructor(database: Queryable, ttlMs = SECOND_FACTOR_POLICY_TTL_MS) {
    this.#database = database;
    this.#ttlMs = ttlMs;
  }

  requires(domainId: string | null | undefined): Promise<boolean> {
    if (domainId === null || domainId === undefined || domainId === '') return Promise.resolve(false);
    const now = Date.now();
    const cached = this.#cache.get(domainId);
    if (cached !== undefined && now - cached.at < this.#ttlMs) return cached.required;
    const required = this.#read(domainId);
    this.#cache.set(domainId, { at: now, required });
    // A failed read is not remembered: the next request asks again.
    required.catch(() => this.#cache.delete(domainId));
    return required;
  }

  /** Forgets what is kept (after a domain's settings change in this process). */
  forget(domainId?: string): void {
    if (domainId === undefined) this.#cache.clear();
    else this.#cache.delete(domainId);
  }

  async #read(domainId: string): Promise<boolean> {
    const { rows } = await this.#database.query<{ required: boolean | null }>(
      `select bool_or(coalesce((d.data #>> '{settings,requireMfa}')::boolean, false)) as required
         from documents d
        where d.path = $1
           or d.path = (select 'domains/' || own.root_domain_id from documents own where own.path = $1)`,
      [`domains/${domainId}`],
    );
    return rows[0]?.required === true;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether a domain requires a second factor, kept a few seconds (auth/secondFactorPolicy.ts). */
    secondFactor: SecondFactorPolicy;
  }
}

export const secondFactorPlugin = fp(
  async (app) => {
    app.decorate('secondFactor', new SecondFactorPolicy(app.database));
  },
  { name: 'secondFactor', dependencies: ['database'] },
);

/** A Better Auth user as our own endpoints under /api/auth see it (`ctx.context.session.user`). */
export interface AuthUserFields {
  id: string;
  accessLevel?: number | null;
  domainId?: string | null;
  rootDomainId?: string | null;
  twoFactorEnabled?: boolean | null;
  secondFactorEnrolledAt?: Date | null;
}

/** The claims such a user acts with: the level in force (0 while a required second factor is missing). */
export async function claimsOfAuthUser(user: AuthUserFields, policy: SecondFactorPolicy): Promise<Principal> {
  const factors = secondFactorsOf({ twoFactorEnabled: user.twoFactorEnabled ?? null, secondFactorEnrolledAt: user.secondFactorEnrolledAt ?? null });
  return {
    uid: user.id,
    accessLevel: effectiveLevel({ accessLevel: user.accessLevel ?? 0 }, factors, await policy.requires(user.domainId)),
    domainId: user.domainId ?? null,
    rootDomainId: user.rootDomainId ?? null,
  };
}
