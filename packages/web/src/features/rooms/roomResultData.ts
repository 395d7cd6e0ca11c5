/**
 * Shaping sleep days for the result screen: one value per calendar day of the period (null where the
 * room has no record, so a chart shows a gap rather than a zero), period averages, and how many days
 * were inside the reference range of packages/shared/src/sleepReference.ts.
 */
import { SLEEP_REFERENCE_KEYS, withinReference, type SleepReferenceKey } from '@nemuri/shared/sleepReference';
import { addDays, type SleepDayRecord } from './roomSleepData.ts';

export const RESULT_RANGES = [7, 30, 90] as const;
export type ResultRange = (typeof RESULT_RANGES)[number];

export function parseRange(value: string | null): ResultRange {
  const n = Number(value);
  return (RESULT_RANGES as readonly number[]).includes(n) ? (n as ResultRange) : 7;
}

/** The metrics the result screen charts, in order: the reference keys. */
export const RESULT_METRICS: readonly SleepReferenceKey[] = SLEEP_REFERENCE_KEYS;

/** The `n` days ending with `lastDay`, oldest first. */
export function periodDays(lastDay: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => addDays(lastDay, i - n + 1));
}

type MetricFields = Pick<
  SleepDayRecord,
  'totalSleepMin' | 'sleepEfficiency' | 'sleepLatencyMin' | 'wasoMin' | 'outOfBedCount' | 'respirationRate' | 'heartRate' | 'apneaIndex'
>;

/** A record's value of a metric (rates: the night's average), null when it has none. */
export function metricValue(record: MetricFields, key: SleepReferenceKey): number | null {
  const value = key === 'respirationRate' || key === 'heartRate' ? record[key]?.avg : record[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** One value per day of the period. */
export function metricSeries(byDay: ReadonlyMap<string, MetricFields>, days: readonly string[], key: SleepReferenceKey): (number | null)[] {
  return days.map((day) => {
    const record = byDay.get(day);
    return record === undefined ? null : metricValue(record, key);
  });
}

export interface MetricSummary {
  key: SleepReferenceKey;
  /** Mean of the days that have a value, rounded to 0.1; null without any. */
  average: number | null;
  /** Days with a value. */
  days: number;
  /** Days with a value inside the reference range. */
  daysWithin: number;
}

export function summarize(key: SleepReferenceKey, values: readonly (number | null)[]): MetricSummary {
  let sum = 0;
  let days = 0;
  let daysWithin = 0;
  for (const value of values) {
    if (value === null) continue;
    sum += value;
    days++;
    if (withinReference(key, value)) daysWithin++;
  }
  return { key, average: days === 0 ? null : Math.round((sum / days) * 10) / 10, days, daysWithin };
}
