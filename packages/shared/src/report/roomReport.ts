/**
 * One room's sleep report for a period, built from its sleep-day records: the per-day metric rows
 * with period averages, the sleep diary (one 24-hour bar per day: out of bed, in bed awake, asleep,
 * breathing pauses) and the rate trends. The /report screen, the PDF and the CSV all render what this
 * returns, so the three always show the same numbers.
 */
import { z } from 'zod/v3';
import type { SCHEMAS } from '../documents/collections.ts';
import { daysOfPeriod } from './period.ts';
import { clockOf, clockOfOffset, reportDayRuleSchema, sleepDayStartMs, type ReportDayRule } from './sleepDayClock.ts';

export type SleepRecord = z.infer<(typeof SCHEMAS)['rooms/sleeps']>;
export type SleepEpoch = NonNullable<SleepRecord['epochs']>[number];

const MINUTE_MS = 60_000;
export const DIARY_MINUTES = 1440;

/** The metric columns of the day table, in order (labels: columns.ts). */
export const CLOCK_KEYS = ['bedTime', 'sleepOnset', 'finalWake', 'outOfBedTime'] as const;
export const NUMBER_KEYS = [
  'timeInBedMin',
  'totalSleepMin',
  'sleepEfficiency',
  'sleepLatencyMin',
  'wasoMin',
  'awakenings',
  'outOfBedCount',
  'outOfBedMin',
  'respirationAvg',
  'heartRateAvg',
  'apneaEvents',
  'apneaIndex',
  'movementIndex',
] as const;
export type ClockKey = (typeof CLOCK_KEYS)[number];
export type NumberKey = (typeof NUMBER_KEYS)[number];
export type MetricKey = ClockKey | NumberKey;
export const METRIC_KEYS: readonly MetricKey[] = [...CLOCK_KEYS, ...NUMBER_KEYS];

/** An object of these keys, each with this value (the day table's columns). */
function keyed<K extends string, T extends z.ZodTypeAny>(keys: readonly K[], value: T) {
  return z.object(Object.fromEntries(keys.map((key) => [key, value])) as Record<K, T>).strict();
}

/** A clock time: its `HH:MM` and minutes from the start of the sleep day (what averages add up). */
export const clockValueSchema = z.object({ clock: z.string(), offsetMin: z.number() }).strict();
export type ClockValue = z.infer<typeof clockValueSchema>;

const clocksSchema = keyed(CLOCK_KEYS, clockValueSchema.nullable());
const numbersSchema = keyed(NUMBER_KEYS, z.number().nullable());

export const reportDayRowSchema = z
  .object({
    day: z.string(),
    /** Whether the day has a record at all (a row without one shows dashes). */
    recorded: z.boolean(),
    clocks: clocksSchema,
    numbers: numbersSchema,
  })
  .strict();
export type ReportDayRow = z.infer<typeof reportDayRowSchema>;

export const reportAveragesSchema = z
  .object({
    /** Days with a record. */
    days: z.number().int(),
    clocks: clocksSchema,
    numbers: numbersSchema,
  })
  .strict();
export type ReportAverages = z.infer<typeof reportAveragesSchema>;

export const DIARY_KINDS = ['outOfBed', 'inBedAwake', 'asleep'] as const;
export type DiaryKind = (typeof DIARY_KINDS)[number];

/** A stretch of one state, in minutes from the start of the sleep day, [startMin, endMin). */
export const diarySegmentSchema = z.object({ kind: z.enum(DIARY_KINDS), startMin: z.number(), endMin: z.number() }).strict();
export type DiarySegment = z.infer<typeof diarySegmentSchema>;

export const diaryDaySchema = z
  .object({
    day: z.string(),
    segments: z.array(diarySegmentSchema),
    /** Minutes (from the start of the day) in which breathing pauses began, and how many. */
    pauses: z.array(z.object({ minute: z.number(), count: z.number().int() }).strict()),
  })
  .strict();
export type DiaryDay = z.infer<typeof diaryDaySchema>;

export const rateStatSchema = z.object({ avg: z.number(), min: z.number().nullable(), max: z.number().nullable() }).strict();
export type RateStat = z.infer<typeof rateStatSchema>;

export const trendPointSchema = z.object({ day: z.string(), respiration: rateStatSchema.nullable(), heartRate: rateStatSchema.nullable() }).strict();
export type TrendPoint = z.infer<typeof trendPointSchema>;

export interface ReportRoom {
  id: string;
  name: string;
  floor?: string | null;
  residentName?: string | null;
  reportComment?: string | null;
}

export const roomReportSchema = z
  .object({
    room: z
      .object({ id: z.string(), name: z.string(), floor: z.string().nullable(), residentName: z.string().nullable(), comment: z.string().nullable() })
      .strict(),
    from: z.string(),
    to: z.string(),
    rule: reportDayRuleSchema,
    rows: z.array(reportDayRowSchema),
    averages: reportAveragesSchema,
    diary: z.array(diaryDaySchema),
    trend: z.array(trendPointSchema),
  })
  .strict();
export type RoomReport = z.infer<typeof roomReportSchema>;

/** `GET /api/reports/data`: the rooms' reports in the query's order. */
export const reportDataSchema = z.object({ reports: z.array(roomReportSchema) }).strict();
export type ReportData = z.infer<typeof reportDataSchema>;

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const round1 = (value: number): number => Math.round(value * 10) / 10;

function clockValue(iso: string | null | undefined, dayStartMs: number, rule: ReportDayRule): ClockValue | null {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(ms)) return null;
  return { clock: clockOf(ms, rule.timeZone), offsetMin: Math.round((ms - dayStartMs) / MINUTE_MS) };
}

function rateOf(stat: SleepRecord['respirationRate']): RateStat | null {
  if (!stat || !isNumber(stat.avg)) return null;
  return { avg: stat.avg, min: isNumber(stat.min) ? stat.min : null, max: isNumber(stat.max) ? stat.max : null };
}

function numbersOf(record: SleepRecord | undefined): Record<NumberKey, number | null> {
  const n = (value: unknown): number | null => (isNumber(value) ? value : null);
  return {
    timeInBedMin: n(record?.timeInBedMin),
    totalSleepMin: n(record?.totalSleepMin),
    sleepEfficiency: n(record?.sleepEfficiency),
    sleepLatencyMin: n(record?.sleepLatencyMin),
    wasoMin: n(record?.wasoMin),
    awakenings: n(record?.awakenings),
    outOfBedCount: n(record?.outOfBedCount),
    outOfBedMin: n(record?.outOfBedMin),
    respirationAvg: rateOf(record?.respirationRate)?.avg ?? null,
    heartRateAvg: rateOf(record?.heartRate)?.avg ?? null,
    apneaEvents: n(record?.apneaEvents),
    apneaIndex: n(record?.apneaIndex),
    movementIndex: n(record?.movementIndex),
  };
}

export function dayRowOf(day: string, record: SleepRecord | undefined, rule: ReportDayRule): ReportDayRow {
  const start = sleepDayStartMs(day, rule);
  const clocks = Object.fromEntries(CLOCK_KEYS.map((key) => [key, record === undefined ? null : clockValue(record[key], start, rule)])) as Record<
    ClockKey,
    ClockValue | null
  >;
  return { day, recorded: record !== undefined, clocks, numbers: numbersOf(record) };
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length;
}

/**
 * Period averages over the days that have a value (a missing night does not count as zero).
 * Clock times average their offsets from the start of the sleep day, so 23:30 and 00:30 average
 * to 00:00, not to noon. Numbers keep one decimal.
 */
export function averagesOf(rows: readonly ReportDayRow[], rule: ReportDayRule): ReportAverages {
  const clocks = Object.fromEntries(
    CLOCK_KEYS.map((key) => {
      const offset = mean(rows.flatMap((row) => (row.clocks[key] === null ? [] : [row.clocks[key].offsetMin])));
      return [key, offset === null ? null : { clock: clockOfOffset(offset, rule), offsetMin: Math.round(offset) }];
    }),
  ) as Record<ClockKey, ClockValue | null>;
  const numbers = Object.fromEntries(
    NUMBER_KEYS.map((key) => {
      const average = mean(rows.flatMap((row) => (row.numbers[key] === null ? [] : [row.numbers[key]])));
      return [key, average === null ? null : round1(average)];
    }),
  ) as Record<NumberKey, number | null>;
  return { days: rows.filter((row) => row.recorded).length, clocks, numbers };
}

const inBed = (state: SleepEpoch['state']): boolean => state !== 'outOfBed' && state !== 'unknown';

/**
 * When epoch 0 starts: `epochStart`, or for older records the start of the first in-bed epoch at
 * `bedTime` (as the sleep screen's roomSleepData.ts).
 */
export function epochOriginMs(record: Pick<SleepRecord, 'bedTime' | 'epochs' | 'epochStart'>): number | null {
  const start = record.epochStart ? Date.parse(record.epochStart) : Number.NaN;
  if (!Number.isNaN(start)) return start;
  const bed = record.bedTime ? Date.parse(record.bedTime) : Number.NaN;
  if (Number.isNaN(bed)) return null;
  const first = (record.epochs ?? []).findIndex((epoch) => inBed(epoch.state));
  return bed - Math.max(0, first) * MINUTE_MS;
}

function kindOf(state: SleepEpoch['state']): DiaryKind | null {
  if (state === 'outOfBed') return 'outOfBed';
  if (state === 'awake') return 'inBedAwake';
  if (state === 'unknown') return null;
  return 'asleep';
}

/** Adds a minute of a kind, extending the last segment when it continues it. */
function push(segments: DiarySegment[], kind: DiaryKind, startMin: number, endMin: number): void {
  const from = Math.max(0, startMin);
  const to = Math.min(DIARY_MINUTES, endMin);
  if (to <= from) return;
  const last = segments[segments.length - 1];
  if (last !== undefined && last.kind === kind && last.endMin === from) last.endMin = to;
  else segments.push({ kind, startMin: from, endMin: to });
}

/**
 * One day's diary bar. From the per-minute epochs when the record has them; otherwise from its
 * times (in bed awake until sleep onset, asleep until the final wake, awake until getting up).
 */
export function diaryDayOf(day: string, record: SleepRecord | undefined, rule: ReportDayRule): DiaryDay {
  const segments: DiarySegment[] = [];
  const pauses: { minute: number; count: number }[] = [];
  if (record === undefined) return { day, segments, pauses };
  const start = sleepDayStartMs(day, rule);
  const origin = epochOriginMs(record);
  const epochs = record.epochs ?? [];
  if (origin !== null && epochs.length > 0) {
    const first = Math.round((origin - start) / MINUTE_MS);
    epochs.forEach((epoch, index) => {
      const minute = first + index;
      const kind = kindOf(epoch.state);
      if (kind !== null) push(segments, kind, minute, minute + 1);
      if (isNumber(epoch.pauses) && epoch.pauses > 0 && minute >= 0 && minute < DIARY_MINUTES) pauses.push({ minute, count: epoch.pauses });
    });
    return { day, segments, pauses };
  }
  const at = (iso: string | null | undefined): number | null => {
    const ms = iso ? Date.parse(iso) : Number.NaN;
    return Number.isNaN(ms) ? null : Math.round((ms - start) / MINUTE_MS);
  };
  const bed = at(record.bedTime);
  const onset = at(record.sleepOnset) ?? bed;
  const wake = at(record.finalWake);
  const up = at(record.outOfBedTime) ?? wake;
  if (bed !== null && onset !== null) push(segments, 'inBedAwake', bed, onset);
  if (onset !== null && wake !== null) push(segments, 'asleep', onset, wake);
  if (wake !== null && up !== null) push(segments, 'inBedAwake', wake, up);
  return { day, segments, pauses };
}

/** The report of one room; `sleeps` maps sleep days to their records (days outside the period are ignored). */
export function buildRoomReport(room: ReportRoom, sleeps: ReadonlyMap<string, SleepRecord>, from: string, to: string, rule: ReportDayRule): RoomReport {
  const days = daysOfPeriod(from, to);
  const rows = days.map((day) => dayRowOf(day, sleeps.get(day), rule));
  return {
    room: { id: room.id, name: room.name, floor: room.floor ?? null, residentName: room.residentName ?? null, comment: room.reportComment ?? null },
    from,
    to,
    rule,
    rows,
    averages: averagesOf(rows, rule),
    diary: days.map((day) => diaryDayOf(day, sleeps.get(day), rule)),
    trend: days.map((day) => {
      const record = sleeps.get(day);
      return { day, respiration: rateOf(record?.respirationRate), heartRate: rateOf(record?.heartRate) };
    }),
  };
}
