import { describe, expect, it } from 'vitest';
import { SLEEP_REFERENCE_KEYS, SLEEP_REFERENCE_RANGES, withinReference } from './sleepReference.ts';

describe('sleep reference ranges', () => {
  it('has a bounded range for every metric', () => {
    for (const key of SLEEP_REFERENCE_KEYS) {
      const range = SLEEP_REFERENCE_RANGES[key];
      expect(range.min !== undefined || range.max !== undefined).toBe(true);
      if (range.min !== undefined && range.max !== undefined) expect(range.min).toBeLessThan(range.max);
    }
  });

  it('judges values with inclusive bounds', () => {
    expect(withinReference('sleepEfficiency', 85)).toBe(true);
    expect(withinReference('sleepEfficiency', 84.9)).toBe(false);
    expect(withinReference('sleepLatencyMin', 30)).toBe(true);
    expect(withinReference('wasoMin', 31)).toBe(false);
    expect(withinReference('totalSleepMin', 419)).toBe(false);
    expect(withinReference('totalSleepMin', 450)).toBe(true);
    expect(withinReference('totalSleepMin', 481)).toBe(false);
  });
});
