import { describe, expect, it } from 'vitest';
import { parseStart } from './cli.ts';
import { scenarioSecond } from './scenario.ts';

describe('--start', () => {
  it('reads HH:MM as today on the scenario clock (Japan by default)', () => {
    const now = Date.UTC(2026, 10, 22, 19, 0); // 2026-11-23 04:00 in Japan
    const start = parseStart('21:30', 540, now);
    expect(new Date(start).toISOString()).toBe('2026-11-23T12:30:00.000Z');
    expect(scenarioSecond(start)).toBe(90 * 60);
  });

  it('reads ISO date-times and rejects anything else', () => {
    expect(parseStart('2026-11-22T11:00:00Z', 540)).toBe(Date.UTC(2026, 10, 22, 11));
    expect(() => parseStart('tonight', 540)).toThrow(/neither HH:MM nor an ISO date-time/);
  });
});
