import { describe, expect, it } from 'vitest';
import { memoryRateLimitStorage, rateLimitOptions } from './rateLimit.ts';

describe('memoryRateLimitStorage', () => {
  it('allows max requests per key and window, then tells how long to wait', async () => {
    let now = 1_000_000;
    const storage = memoryRateLimitStorage(() => now);
    const rule = { window: 60, max: 3 };
    for (let i = 0; i < 3; i++) expect(await storage.consume('a|/sign-in/email', rule)).toEqual({ allowed: true, retryAfter: null });
    expect(await storage.consume('a|/sign-in/email', rule)).toEqual({ allowed: false, retryAfter: 60 });
    expect(await storage.consume('b|/sign-in/email', rule)).toEqual({ allowed: true, retryAfter: null });
    now += 45_500;
    expect(await storage.consume('a|/sign-in/email', rule)).toEqual({ allowed: false, retryAfter: 15 });
    now += 14_500;
    expect(await storage.consume('a|/sign-in/email', rule)).toEqual({ allowed: true, retryAfter: null });
  });

  it('keeps counts per storage: two servers in one process count apart', async () => {
    const rule = { window: 60, max: 1 };
    const first = memoryRateLimitStorage();
    const second = memoryRateLimitStorage();
    expect((await first.consume('k', rule)).allowed).toBe(true);
    expect((await first.consume('k', rule)).allowed).toBe(false);
    expect((await second.consume('k', rule)).allowed).toBe(true);
  });

  it('starts a new window once the old one has passed, pruning included', async () => {
    let now = 0;
    const storage = memoryRateLimitStorage(() => now);
    const rule = { window: 1, max: 1 };
    for (let i = 0; i < 2500; i++) await storage.consume(`client-${i}`, rule);
    now += 2000;
    // Still correct after pruning: an expired key starts a new window.
    expect(await storage.consume('client-0', rule)).toEqual({ allowed: true, retryAfter: null });
  });
});

describe('rateLimitOptions', () => {
  it('limits sign-in and sign-up to 10, password reset and second-factor codes to 5 and the rest to 100 a minute', () => {
    const options = rateLimitOptions();
    expect(options).toMatchObject({ enabled: true, window: 60, max: 100 });
    expect(options.customRules).toEqual({
      '/sign-in/email': { window: 60, max: 10 },
      '/sign-up/email': { window: 60, max: 10 },
      '/sign-in/anonymous': { window: 60, max: 10 },
      '/request-password-reset': { window: 60, max: 5 },
      '/reset-password': { window: 60, max: 5 },
      '/reset-password/*': { window: 60, max: 5 },
      '/two-factor/verify-totp': { window: 60, max: 5 },
      '/two-factor/verify-backup-code': { window: 60, max: 5 },
      '/two-factor/*': { window: 60, max: 100 },
    });
  });

  it('uses AUTH_RATE_LIMIT_MAX for every limit when given', () => {
    const options = rateLimitOptions(10_000);
    expect(options.max).toBe(10_000);
    expect(Object.values(options.customRules ?? {})).toEqual(Array(9).fill({ window: 60, max: 10_000 }));
  });
});
