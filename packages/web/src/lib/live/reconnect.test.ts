/** The one reconnection policy of the live sockets: every wait under 2 s, back to the first after a success. */
import { describe, expect, it } from 'vitest';
import { Backoff, LIVE_RECONNECT } from './reconnect.ts';

describe('Backoff', () => {
  it('doubles from the first wait up to the cap, each wait shortened by jitter', () => {
    const none = new Backoff({}, () => 0);
    expect(Array.from({ length: 6 }, () => none.next())).toEqual([250, 500, 1000, 1600, 1600, 1600]);
    const most = new Backoff({}, () => 1);
    expect(Array.from({ length: 5 }, () => most.next())).toEqual([150, 300, 600, 960, 960]);
  });

  it('never waits 2 s or more after a lost connection, whatever the random draw', () => {
    const backoff = new Backoff();
    for (let i = 0; i < 1000; i++) {
      const wait = backoff.next();
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThan(2000);
    }
    expect(LIVE_RECONNECT.maxMs).toBeLessThan(2000);
  });

  it('starts again from the first wait once a socket opened', () => {
    const backoff = new Backoff({}, () => 0);
    backoff.next();
    backoff.next();
    backoff.next();
    backoff.succeeded();
    expect(backoff.next()).toBe(250);
  });

  it('waits long once after a refusal by policy, then as before', () => {
    const backoff = new Backoff({}, () => 0);
    backoff.refused();
    expect(backoff.next()).toBe(LIVE_RECONNECT.refusedMs);
    expect(backoff.next()).toBe(500);
  });
});
