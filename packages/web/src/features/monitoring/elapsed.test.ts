import { describe, expect, it } from 'vitest';
import { elapsedClock } from './elapsed.ts';

describe('elapsedClock', () => {
  it('reads minutes and seconds under an hour, hours beyond, never negative', () => {
    expect(elapsedClock(0, 42_000)).toBe('0:42');
    expect(elapsedClock(0, 12 * 60_000 + 5_000)).toBe('12:05');
    expect(elapsedClock(0, 3_600_000 + 2 * 60_000 + 9_000)).toBe('1:02:09');
    expect(elapsedClock(10_000, 0)).toBe('0:00');
  });
});
