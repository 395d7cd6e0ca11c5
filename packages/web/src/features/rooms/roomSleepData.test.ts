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
  clampWindow,
  isWhole,
  pauseCount,
  pauseMarks,
  sleepDayOf,
  sleepDayRange,
  stageBands,
  stateBands,
  timeAxis,
  windowTicks,
  zoomWindow,
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
    expect(epochOriginMs({ epochStart: '2026-11-21T03:00:00.000Z', bedTime: '2026-11-21T12:00:00.000Z', epochs: fromBoundary })).toBe(
      Date.parse('2026-11-21T03:00:00Z'),
    );
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
    expect(
      linePath(
        series,
        (i) => i * 10,
        (v) => v,
      ),
    ).toBe('M0.0 60.0 M20.0 62.0 L30.0 64.0');
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

  it('marks the minutes whose epochs count breathing pauses, as many as the record counts', () => {
    const origin = Date.parse('2026-11-21T12:00:00Z');
    const epochs = [epoch('light'), { ...epoch('light'), pauses: 2 }, epoch('deep'), { ...epoch('deep'), pauses: 1 }, { ...epoch('awake'), pauses: 0 }];
    const marks = pauseMarks(epochs, origin);
    expect(marks).toEqual([
      { startMs: origin + 60_000, endMs: origin + 120_000, count: 2 },
      { startMs: origin + 180_000, endMs: origin + 240_000, count: 1 },
    ]);
    expect(pauseCount(marks)).toBe(3);
    expect(pauseMarks([epoch('light')], origin)).toEqual([]);
  });

  it('zooms about an instant that stays put, never past the night nor below ten minutes, and resets to the whole', () => {
    const full = { startMs: Date.parse('2026-11-21T12:00:00Z'), endMs: Date.parse('2026-11-21T22:00:00Z') };
    const at = Date.parse('2026-11-21T14:00:00Z');
    const zoomed = zoomWindow(full, full, at, 0.5);
    expect(zoomed).toEqual({ startMs: Date.parse('2026-11-21T13:00:00Z'), endMs: Date.parse('2026-11-21T18:00:00Z') });
    // At the edge the window moves instead of leaving the night.
    expect(zoomWindow(full, zoomed, full.startMs, 4)).toEqual(full);
    expect(isWhole(full, zoomWindow(full, zoomed, at, 10))).toBe(true);
    const narrow = clampWindow(full, at, at + 60_000);
    expect(narrow.endMs - narrow.startMs).toBe(10 * 60_000);
    expect(narrow.startMs).toBe(at + 30_000 - 5 * 60_000);
    // A drag from right to left selects the same stretch.
    expect(clampWindow(full, at + 3_600_000, at)).toEqual({ startMs: at, endMs: at + 3_600_000 });
    expect(clampWindow(full, full.endMs - 60_000, full.endMs + 3_600_000).endMs).toBe(full.endMs);
  });

  it('draws hour lines on a long window and finer ones when zoomed in', () => {
    const start = Date.parse('2026-11-21T12:00:00Z');
    expect(windowTicks({ startMs: start, endMs: start + 10 * 3_600_000 })).toHaveLength(11);
    const fine = windowTicks({ startMs: start + 7 * 60_000, endMs: start + 47 * 60_000 });
    expect(fine.map((tick) => (tick - start) / 60_000)).toEqual([10, 15, 20, 25, 30, 35, 40, 45]);
  });

  it('lays out a month from Sunday and marks the days with data', () => {
    const weeks = calendarWeeks('2026-11', new Set(['2026-11-03', '2026-11-30']));
    // 1 November 2026 is a Sunday.
    expect(weeks[0]?.[0]).toEqual({ day: '2026-11-01', date: 1, hasData: false });
    expect(
      weeks
        .flat()
        .filter((cell) => cell?.hasData)
        .map((cell) => cell?.day),
    ).toEqual(['2026-11-03', '2026-11-30']);
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
