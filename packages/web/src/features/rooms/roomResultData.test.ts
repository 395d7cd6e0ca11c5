import { describe, expect, it } from 'vitest';
import { metricSeries, metricValue, parseRange, periodDays, summarize } from './roomResultData.ts';

describe('result shaping', () => {
  it('reads the range from the address, 7 by default', () => {
    expect(parseRange('30')).toBe(30);
    expect(parseRange('90')).toBe(90);
    expect(parseRange('12')).toBe(7);
    expect(parseRange(null)).toBe(7);
  });

  it('gives one value per day and a gap (null) for days without a record', () => {
    const days = periodDays('2026-11-22', 3);
    expect(days).toEqual(['2026-11-20', '2026-11-21', '2026-11-22']);
    const byDay = new Map([
      ['2026-11-20', { totalSleepMin: 400, heartRate: { avg: 60, min: 50, max: 70 } }],
      ['2026-11-22', { totalSleepMin: 0, heartRate: { avg: null, min: null, max: null } }],
    ]);
    expect(metricSeries(byDay, days, 'totalSleepMin')).toEqual([400, null, 0]);
    expect(metricSeries(byDay, days, 'heartRate')).toEqual([60, null, null]);
    expect(metricValue({}, 'apneaIndex')).toBeNull();
  });

  it('averages the days with data and counts the days inside the reference range', () => {
    expect(summarize('sleepEfficiency', [90, null, 80, 85])).toEqual({ key: 'sleepEfficiency', average: 85, days: 3, daysWithin: 2 });
    expect(summarize('wasoMin', [null, null])).toEqual({ key: 'wasoMin', average: null, days: 0, daysWithin: 0 });
    expect(summarize('heartRate', [49.9, 50, 100, 100.1]).daysWithin).toBe(2);
  });
});
