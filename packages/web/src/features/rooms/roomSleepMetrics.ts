/**
 * The metrics block of the sleep screen: which of a sleep day's fields are shown, in which order,
 * and as what kind of value (a clock time, a duration, a number with its unit). Wording and units
 * come from the locale (`roomSleep.metrics`, `roomSleep.units`).
 */
import type { SleepDayRecord } from './roomSleepData.ts';

export type MetricText =
  | { kind: 'none' }
  | { kind: 'time'; iso: string }
  | { kind: 'duration'; minutes: number }
  | { kind: 'unit'; unit: 'percent' | 'count' | 'plain'; value: number }
  | { kind: 'rate'; unit: 'perMinute' | 'bpm'; avg: number; min: number | null; max: number | null }
  | { kind: 'apnea'; count: number; index: number | null };

export const METRIC_KEYS = [
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
] as const;
export type MetricKey = (typeof METRIC_KEYS)[number];

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const time = (value: string | null | undefined): MetricText => (value ? { kind: 'time', iso: value } : { kind: 'none' });
const duration = (value: number | null | undefined): MetricText => (isNumber(value) ? { kind: 'duration', minutes: value } : { kind: 'none' });
const unit = (u: 'percent' | 'count' | 'plain', value: number | null | undefined): MetricText =>
  isNumber(value) ? { kind: 'unit', unit: u, value } : { kind: 'none' };
function rate(u: 'perMinute' | 'bpm', stat: SleepDayRecord['respirationRate']): MetricText {
  if (!stat || !isNumber(stat.avg)) return { kind: 'none' };
  return { kind: 'rate', unit: u, avg: stat.avg, min: isNumber(stat.min) ? stat.min : null, max: isNumber(stat.max) ? stat.max : null };
}

export function roomSleepMetrics(record: SleepDayRecord): { key: MetricKey; text: MetricText }[] {
  const texts: Record<MetricKey, MetricText> = {
    bedTime: time(record.bedTime),
    sleepOnset: time(record.sleepOnset),
    finalWake: time(record.finalWake),
    outOfBedTime: time(record.outOfBedTime),
    timeInBed: duration(record.timeInBedMin),
    totalSleep: duration(record.totalSleepMin),
    efficiency: unit('percent', record.sleepEfficiency),
    latency: duration(record.sleepLatencyMin),
    waso: duration(record.wasoMin),
    awakenings: unit('count', record.awakenings),
    outOfBedCount: unit('count', record.outOfBedCount),
    outOfBedMin: duration(record.outOfBedMin),
    respirationRate: rate('perMinute', record.respirationRate),
    heartRate: rate('bpm', record.heartRate),
    apnea: isNumber(record.apneaEvents)
      ? { kind: 'apnea', count: record.apneaEvents, index: isNumber(record.apneaIndex) ? record.apneaIndex : null }
      : { kind: 'none' },
    movement: unit('plain', record.movementIndex),
  };
  return METRIC_KEYS.map((key) => ({ key, text: texts[key] }));
}

/** Whole hours and minutes of a duration in minutes, rounded to the minute first (so never "6時間60分"). */
export { hoursMinutes } from '../../lib/dates.ts';
