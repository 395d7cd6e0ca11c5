/** The fair-share turns (fairShare.ts) on their own: per user, per tenant, per process, the queue, waits and pauses. */
import { describe, expect, it } from 'vitest';
import { FairShareLimiter, FairShareRefused, requesterOf, type FairShareLimit } from './fairShare.ts';

const LIMIT: FairShareLimit = {
  perUser: 1,
  perTenant: 2,
  global: { pglite: 1, postgresql: 3 },
  queuePerTenant: 2,
  maxWaitMs: 200,
  retryAfterSeconds: 1,
  what: 'テスト',
};
const user = (name: string, tenant: string) => ({ user: name, tenant });
const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 10));
  return done;
};

describe('fair-share turns', () => {
  it('lets a user run one at a time, a tenant two, the process three, and others meanwhile', async () => {
    const limiter = new FairShareLimiter(LIMIT, 'postgresql');
    const a1 = await limiter.acquire(user('a1', 'A'));
    const a1Again = limiter.acquire(user('a1', 'A'));
    expect(await settled(a1Again)).toBe(false);
    const a2 = await limiter.acquire(user('a2', 'A'));
    const a3 = limiter.acquire(user('a3', 'A'));
    expect(await settled(a3)).toBe(false);
    // Tenant A is at its two; tenant B still gets in (the third of the process).
    const b1 = await limiter.acquire(user('b1', 'B'));
    expect(limiter.running).toBe(3);
    const c1 = limiter.acquire(user('c1', 'C'));
    expect(await settled(c1)).toBe(false);
    a1();
    // First in line and fitting now: a1's second request takes the place; a3 (tenant A full again) and c1 (process full) wait.
    expect(await settled(a1Again)).toBe(true);
    expect(await settled(a3)).toBe(false);
    a2();
    b1();
    (await a1Again)();
    expect(await settled(Promise.all([a3, c1]))).toBe(true);
  });

  it('refuses beyond the tenant queue at once, and a wait that is too long', async () => {
    const limiter = new FairShareLimiter(LIMIT, 'pglite');
    const first = await limiter.acquire(user('a1', 'A'));
    const waiting = [limiter.acquire(user('a2', 'A')), limiter.acquire(user('a3', 'A'))];
    await expect(limiter.acquire(user('a4', 'A'))).rejects.toBeInstanceOf(FairShareRefused);
    // Another tenant has a queue of its own.
    const other = limiter.acquire(user('b1', 'B'));
    await expect(waiting[0]).rejects.toThrow(/混み合っています/);
    await expect(waiting[1]).rejects.toBeInstanceOf(FairShareRefused);
    await expect(other).rejects.toBeInstanceOf(FairShareRefused);
    first();
    (await limiter.acquire(user('a1', 'A')))();
    expect(limiter.running).toBe(0);
  });

  it('keeps a finished turn for the pause before the next one starts', async () => {
    const limiter = new FairShareLimiter({ ...LIMIT, maxWaitMs: 2000, pauseAfterMs: { pglite: 100, postgresql: 0 } }, 'pglite');
    const first = await limiter.acquire(user('a1', 'A'));
    const next = limiter.acquire(user('b1', 'B'));
    const released = performance.now();
    first();
    first(); // twice is once
    await next;
    expect(performance.now() - released).toBeGreaterThanOrEqual(90);
  });

  it('counts agency levels by their own domain and everyone else by the root domain', () => {
    expect(requesterOf({ uid: 'u', accessLevel: 2, domainId: 'facility', rootDomainId: 'corp' })).toEqual({ user: 'u', tenant: 'corp' });
    expect(requesterOf({ uid: 'u', accessLevel: 51, domainId: 'agency', rootDomainId: 'maker' })).toEqual({ user: 'u', tenant: 'agency' });
    expect(requesterOf({ uid: 'u', accessLevel: 1, domainId: null, rootDomainId: null })).toEqual({ user: 'u', tenant: 'user:u' });
  });
});
