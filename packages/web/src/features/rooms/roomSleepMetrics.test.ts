import { describe, expect, it } from 'vitest';
import { hoursMinutes, roomSleepMetrics } from './roomSleepMetrics.ts';
import type { SleepDayRecord } from './roomSleepData.ts';

const base: SleepDayRecord = { documentReferenceId: '2026-11-21', documentPath: 'rooms/r/sleeps/2026-11-21', createdAt: '', updatedAt: '', source: 'demo' };

describe('sleep metrics block', () => {
  it('shows every metric in order, with its kind of value, and a dash for what the record lacks', () => {
    const metrics = roomSleepMetrics({
      ...base,
      bedTime: '2026-11-21T21:10:00+09:00',
      totalSleepMin: 412,
      sleepEfficiency: 88.4,
      heartRate: { avg: 61.2, min: 52, max: 75 },
      apneaEvents: 3,
      apneaIndex: 0.4,
      outOfBedCount: 0,
    });
    const byKey = Object.fromEntries(metrics.map((metric) => [metric.key, metric.text]));
    expect(metrics.map((metric) => metric.key)).toEqual([
      'bedTime',
      'sleepOnset',
      'finalWake',
      'outOfBedTime',
      'timeInBed',
      'totalSleep',
      'efficiency',
      'latency',
      'waso',
      'awakenings',
      'outOfBedCount',
      'outOfBedMin',
      'respirationRate',
      'heartRate',
      'apnea',
      'movement',
    ]);
    expect(byKey.bedTime).toEqual({ kind: 'time', iso: '2026-11-21T21:10:00+09:00' });
    expect(byKey.sleepOnset).toEqual({ kind: 'none' });
    expect(byKey.totalSleep).toEqual({ kind: 'duration', minutes: 412 });
    expect(byKey.efficiency).toEqual({ kind: 'unit', unit: 'percent', value: 88.4 });
    expect(byKey.outOfBedCount).toEqual({ kind: 'unit', unit: 'count', value: 0 });
    expect(byKey.heartRate).toEqual({ kind: 'rate', unit: 'bpm', avg: 61.2, min: 52, max: 75 });
    expect(byKey.respirationRate).toEqual({ kind: 'none' });
    expect(byKey.apnea).toEqual({ kind: 'apnea', count: 3, index: 0.4 });
  });

  it('splits durations into hours and minutes after rounding', () => {
    expect(hoursMinutes(490)).toEqual({ h: 8, m: 10 });
    expect(hoursMinutes(419.7)).toEqual({ h: 7, m: 0 });
  });
});
