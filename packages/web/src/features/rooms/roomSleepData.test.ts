import { describe, expect, it } from 'vitest';
import {
  addMonths,
  calendarWeeks,
  daysBetween,
  epochAt,
  epochOriginMs,
  epochSeries,
  hasStages,
  linePath,
  minuteAt,
  pauseMarks,
  sleepDayOf,
  sleepDayRange,
  stageBands,
  stateBands,
  timeAxis,
  type SleepEpoch,
} from './roomSleepData.ts';

const epoch = (state: SleepEpoch['state'], heartRate: number | null = null): SleepEpoch => ({ state, respirationRate: null, heartRate, activity: null });

describe('sleep day shaping', () => {
  it('places epochs from epochStart, or from bed time whether they start at bed time or at the day boundary', () => {
    const fromBed = [epoch('awake'), epoch('light')];
    expect(epochOriginMs({ bedTime: '2026-11-21T21:00:00+09:00', epochs: fromBed })).toBe(Date.parse('2026-11-21T12:00:00Z'));
    const fromBoundary = [epoch('unknown'), epoch('unknown'), epoch('outOfBed'), epoch('awake')];
    expect(epochOriginMs({ bedTime: '2026-11-21T03:03:00.000Z', epochs: fromBoundary })).toBe(Date.parse('2026-11-21T03:00:00Z'));
    expect(epochOriginMs({ bedTime: null, epochs: fromBed })).toBeNull();
    // The record's own epochStart wins.
    expect(epochOriginMs({ epochStart: '2026-11-21T03:00:00.000Z', bedTime: '2026-11-21T12:00:00.000Z', epochs: fromBoundary })).toBe(Date.parse('2026-11-21T03:00:00Z'));
  });

  it('turns epochs into state bands and, when stages exist, hypnogram bands', () => {
    const epochs = [epoch('awake'), epoch('light'), epoch('deep'), epoch('rem'), epoch('outOfBed'), epoch('outOfBed'), epoch('awake')];
    const bands = stateBands(epochs, 0);
    expect(bands.map((band) => [band.kind, band.startMs / 60_000, band.endMs / 60_000])).toEqual([
      ['inBedAwake', 0, 1],
      ['asleep', 1, 4],
      ['outOfBed', 4, 6],
      ['inBedAwake', 6, 7],
    ]);
    expect(hasStages(epochs)).toBe(true);
    expect(hasStages([epoch('light'), epoch('awake')])).toBe(false);
    expect(stageBands(epochs, 0).map((band) => band.kind)).toEqual(['awake', 'light', 'deep', 'rem', 'none', 'awake']);
  });

  it('draws series with gaps where a minute has no value', () => {
    const series = epochSeries([epoch('light', 60), epoch('outOfBed'), epoch('light', 62), epoch('light', 64)], 'heartRate');
    expect(series).toEqual([60, null, 62, 64]);
    expect(linePath(series, (i) => i * 10, (v) => v)).toBe('M0.0 60.0 M20.0 62.0 L30.0 64.0');
  });

  it('uses the sleep-day boundary in the domain time zone', () => {
    const range = sleepDayRange('2026-11-21', { boundaryHour: 12, timeZone: 'Asia/Tokyo' });
    expect(new Date(range.startMs).toISOString()).toBe('2026-11-21T03:00:00.000Z');
    expect(range.endMs - range.startMs).toBe(86_400_000);
    expect(sleepDayOf(Date.parse('2026-11-22T02:59:00Z'))).toBe('2026-11-21');
    expect(sleepDayOf(Date.parse('2026-11-22T03:00:00Z'))).toBe('2026-11-22');
  });

  it('shares one hour-aligned time axis, and a click finds its minute and epoch', () => {
    const day = sleepDayRange('2026-11-21');
    const origin = Date.parse('2026-11-21T12:10:00Z');
    const axis = timeAxis(origin, 600, day);
    expect(new Date(axis.startMs).toISOString()).toBe('2026-11-21T12:00:00.000Z');
    expect(new Date(axis.endMs).toISOString()).toBe('2026-11-21T23:00:00.000Z');
    expect(axis.ticks).toHaveLength(12);
    expect(timeAxis(null, 0, day)).toMatchObject({ startMs: day.startMs, endMs: day.endMs });
    const minute = minuteAt(axis, 0.5);
    expect(new Date(minute).toISOString()).toBe('2026-11-21T17:30:00.000Z');
    const epochs = Array.from({ length: 600 }, (_, i) => epoch('light', i));
    expect(epochAt(epochs, origin, minute)?.heartRate).toBe(320);
    expect(epochAt(epochs, origin, origin - 60_000)).toBeNull();
  });

  it('marks breathing pauses inside the window only', () => {
    const marks = pauseMarks(
      [
        { startedAt: '2026-11-21T15:00:10Z', endedAt: '2026-11-21T15:00:40Z' },
        { startedAt: '2026-11-20T15:00:10Z', endedAt: '2026-11-20T15:00:40Z' },
        { startedAt: '2026-11-21T14:00:00Z', endedAt: null },
      ],
      { startMs: Date.parse('2026-11-21T12:00:00Z'), endMs: Date.parse('2026-11-21T23:00:00Z') },
    );
    expect(marks).toEqual([
      { startMs: Date.parse('2026-11-21T14:00:00Z'), endMs: Date.parse('2026-11-21T14:01:00Z') },
      { startMs: Date.parse('2026-11-21T15:00:10Z'), endMs: Date.parse('2026-11-21T15:00:40Z') },
    ]);
  });

  it('lays out a month from Sunday and marks the days with data', () => {
    const weeks = calendarWeeks('2026-11', new Set(['2026-11-03', '2026-11-30']));
    // 1 November 2026 is a Sunday.
    expect(weeks[0]?.[0]).toEqual({ day: '2026-11-01', date: 1, hasData: false });
    expect(weeks.flat().filter((cell) => cell?.hasData).map((cell) => cell?.day)).toEqual(['2026-11-03', '2026-11-30']);
    expect(weeks.every((week) => week.length === 7)).toBe(true);
    expect(calendarWeeks('2026-12', new Set())[0]?.slice(0, 2)).toEqual([null, null]);
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
  });

  it('keeps the records of the asked days only', () => {
    const records = ['2026-10-31', '2026-11-01', '2026-11-30', '2026-12-01'].map((documentReferenceId) => ({ documentReferenceId }));
    expect([...daysBetween(records, '2026-11-01', '2026-11-30').keys()]).toEqual(['2026-11-01', '2026-11-30']);
  });
});
