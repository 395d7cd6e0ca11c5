/** The parts of the HTTP client that read what the server said (the calls themselves: server http/webHttpClient.test.ts). */
import { describe, expect, it } from 'vitest';
import { ApiError, reasonOrCode } from './apiError.ts';
import { apiErrorOf, newRequestId, retryAfterSecondsOf } from './httpClient.ts';

const answer = (status: number, headers: Record<string, string> = {}) => ({
  status,
  headers: { get: (name: string) => headers[name] ?? null },
  text: () => Promise.resolve(''),
});

describe('the HTTP client', () => {
  it('reads Retry-After as seconds or as a date', () => {
    const now = Date.parse('2026-11-25T00:00:00Z');
    expect(retryAfterSecondsOf('5', now)).toBe(5);
    expect(retryAfterSecondsOf('Wed, 25 Nov 2026 00:00:30 GMT', now)).toBe(30);
    expect(retryAfterSecondsOf('Wed, 24 Nov 2026 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterSecondsOf(null, now)).toBeNull();
    expect(retryAfterSecondsOf('soon', now)).toBeNull();
  });

  it('makes ids the server keeps (its sane-id rule: up to 128 of [A-Za-z0-9._:@/+=-])', () => {
    const ids = new Set(Array.from({ length: 100 }, newRequestId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it('turns any refusal into one ApiError: the server code and reason, else a code by status', () => {
    const refused = apiErrorOf(
      'PUT',
      '/api/account/profile/phone?x=1',
      answer(400, { 'x-request-id': 'r-1' }),
      '{"code":"invalid-argument","reason":"invalid-phone","message":"bad number"}',
      'sent',
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, code: 'invalid-argument', reason: 'invalid-phone', message: 'bad number', requestId: 'r-1' });
    expect(reasonOrCode(refused)).toBe('invalid-phone');
    // A proxy's HTML page: the status says what it was, the id is the one sent.
    const proxy = apiErrorOf('GET', '/api/reports/data?rooms=a', answer(503, { 'retry-after': '5' }), '<html>busy</html>', 'sent');
    expect(proxy).toMatchObject({
      status: 503,
      code: 'unavailable',
      reason: null,
      message: 'GET /api/reports/data answered 503',
      requestId: 'sent',
      retryAfterSeconds: 5,
      body: null,
    });
    expect(reasonOrCode(proxy)).toBe('unavailable');
  });
});
