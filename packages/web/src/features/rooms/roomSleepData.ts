/**
 * Shaping one sleep-day record (`rooms/{roomId}/sleeps/{day}`) for the sleep screen: where its
 * per-minute epochs sit in time, the state bands and hypnogram, the chart paths, the time axis, and
 * the month calendar. Pure functions: the screen draws what these return.
 */
import { DEFAULT_TIME_ZONE } from '@nemuri/shared/constants';
import { dayjs } from '../../lib/dates.ts';
import type { RecordOf } from '../../lib/documents/records.ts';

export type SleepDayRecord = RecordOf<'rooms/sleeps'>;
export type SleepEpoch = NonNullable<SleepDayRecord['epochs']>[number];
export type EpochState = SleepEpoch['state'];

export const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** The boundary of a sleep day when the domain sets none (as the server's sleep-day rule). */
export const DEFAULT_BOUNDARY_HOUR = 12;

export interface SleepDayRule {
  boundaryHour: number;
  timeZone: string;
}

export const DEFAULT_RULE: SleepDayRule = { boundaryHour: DEFAULT_BOUNDARY_HOUR, timeZone: DEFAULT_TIME_ZONE };

/** `YYYY-MM-DD` → the day `n` days later (calendar arithmetic, no time zone involved). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export function isDay(value: string | null): value is string {
  return value !== null && /^\d{4}-\d\d-\d\d$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));
}

/** The instants [start, end) of sleep day `day`: from the boundary hour on `day` to the same hour the next day. */
export function sleepDayRange(day: string, rule: SleepDayRule = DEFAULT_RULE): { startMs: number; endMs: number } {
  const at = (d: string) => dayjs.tz(`${d} ${String(rule.boundaryHour).padStart(2, '0')}:00`, rule.timeZone).valueOf();
  return { startMs: at(day), endMs: at(addDays(day, 1)) };
}

/** The sleep day an instant belongs to. */
export function sleepDayOf(instantMs: number, rule: SleepDayRule = DEFAULT_RULE): string {
  return dayjs(instantMs).tz(rule.timeZone).subtract(rule.boundaryHour, 'hour').format('YYYY-MM-DD');
}

const inBed = (state: EpochState): boolean => state !== 'outOfBed' && state !== 'unknown';

/**
 * When epoch 0 starts: the record's `epochStart`. Records written before that field (the analysis then
 * wrote one epoch per minute of the whole sleep day, the demo data one per minute from going to bed)
 * say it only through `bedTime`, the start of the first in-bed epoch, which gives the origin either way.
 */
export function epochOriginMs(record: Pick<SleepDayRecord, 'bedTime' | 'epochs' | 'epochStart'>): number | null {
  const start = record.epochStart ? Date.parse(record.epochStart) : Number.NaN;
  if (!Number.isNaN(start)) return start;
  const bed = record.bedTime ? Date.parse(record.bedTime) : Number.NaN;
  if (Number.isNaN(bed)) return null;
  const first = (record.epochs ?? []).findIndex((epoch) => inBed(epoch.state));
  return bed - Math.max(0, first) * MINUTE_MS;
}

/** The band a state is drawn in: the three states of the timeline, and unknown (no data). */
export type BandKind = 'outOfBed' | 'inBedAwake' | 'asleep' | 'unknown';

export function bandKindOf(state: EpochState): BandKind {
  switch (state) {
    case 'outOfBed':
      return 'outOfBed';
    case 'awake':
      return 'inBedAwake';
    case 'unknown':
      return 'unknown';
    default:
      return 'asleep';
  }
}

export interface Band<K extends string> {
  kind: K;
  startMs: number;
  endMs: number;
}

function runs<K extends string>(epochs: readonly SleepEpoch[], originMs: number, kindOf: (state: EpochState) => K): Band<K>[] {
  const bands: Band<K>[] = [];
  for (let i = 0; i < epochs.length;) {
    const kind = kindOf((epochs[i] as SleepEpoch).state);
    let j = i + 1;
    while (j < epochs.length && kindOf((epochs[j] as SleepEpoch).state) === kind) j++;
    bands.push({ kind, startMs: originMs + i * MINUTE_MS, endMs: originMs + j * MINUTE_MS });
    i = j;
  }
  return bands;
}

/** Runs of the same band kind, in time order. */
export function stateBands(epochs: readonly SleepEpoch[], originMs: number): Band<BandKind>[] {
  return runs(epochs, originMs, bandKindOf);
}

/** Whether the record carries sleep stages (deep or REM) rather than asleep/awake alone. */
export function hasStages(epochs: readonly SleepEpoch[]): boolean {
  return epochs.some((epoch) => epoch.state === 'deep' || epoch.state === 'rem');
}

export type StageKind = 'awake' | 'rem' | 'light' | 'deep' | 'none';
/** Hypnogram rows, top to bottom, as sleep labs draw them. */
export const STAGE_ROWS: readonly Exclude<StageKind, 'none'>[] = ['awake', 'rem', 'light', 'deep'];

export function stageBands(epochs: readonly SleepEpoch[], originMs: number): Band<StageKind>[] {
  return runs(epochs, originMs, (state): StageKind => (state === 'outOfBed' || state === 'unknown' ? 'none' : state));
}

/** Sleep stages scored by a person (an imported EDF+ hypnogram), as the record keeps them. */
export type ScoredStage = NonNullable<SleepDayRecord['hypnogram']>[number];
/** Rows of the scored hypnogram, top to bottom; movement time is drawn as wake, unscored epochs not at all. */
export const SCORED_ROWS = ['W', 'R', 'N1', 'N2', 'N3', 'N4'] as const;
export type ScoredRow = (typeof SCORED_ROWS)[number];

/** The rows a scored hypnogram needs (N4 only when R&K stage 4 occurs) and its bands. */
export function scoredBands(hypnogram: readonly ScoredStage[]): { rows: ScoredRow[]; bands: Band<ScoredRow>[] } {
  const bands: Band<ScoredRow>[] = [];
  for (const run of hypnogram) {
    if (run.stage === '?') continue;
    const kind: ScoredRow = run.stage === 'M' ? 'W' : run.stage;
    const startMs = Date.parse(run.start);
    bands.push({ kind, startMs, endMs: startMs + run.durationSec * 1000 });
  }
  const rows = SCORED_ROWS.filter((row) => row !== 'N4' || bands.some((band) => band.kind === 'N4'));
  return { rows, bands };
}

export type EpochSeriesKey = 'respirationRate' | 'heartRate' | 'activity';

/** One value per minute, null where the minute has none (out of bed, no data). */
export function epochSeries(epochs: readonly SleepEpoch[], key: EpochSeriesKey): (number | null)[] {
  return epochs.map((epoch) => {
    const value = epoch[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : null;
  });
}

/** Min and max of the values present, or null when none is. */
export function extent(values: readonly (number | null)[]): [number, number] | null {
  let low = Infinity;
  let high = -Infinity;
  for (const value of values) {
    if (value === null) continue;
    if (value < low) low = value;
    if (value > high) high = value;
  }
  return low <= high ? [low, high] : null;
}

/**
 * An SVG path through the points `(x(i), y(value))`; a missing value breaks the line, so a gap in the
 * data is drawn as a gap and not as a straight line across it.
 */
export function linePath(values: readonly (number | null)[], x: (index: number) => number, y: (value: number) => number): string {
  const parts: string[] = [];
  let drawing = false;
  values.forEach((value, index) => {
    if (value === null) {
      drawing = false;
      return;
    }
    parts.push(`${drawing ? 'L' : 'M'}${x(index).toFixed(1)} ${y(value).toFixed(1)}`);
    drawing = true;
  });
  return parts.join(' ');
}

export interface TimeAxis {
  startMs: number;
  endMs: number;
  /** Whole hours inside the window. */
  ticks: number[];
}

/**
 * The window the charts share: the night's epochs widened to whole hours, kept inside the sleep day;
 * the whole sleep day when there are no epochs.
 */
export function timeAxis(originMs: number | null, epochCount: number, day: { startMs: number; endMs: number }): TimeAxis {
  let startMs = day.startMs;
  let endMs = day.endMs;
  if (originMs !== null && epochCount > 0) {
    startMs = Math.max(day.startMs, Math.floor(originMs / HOUR_MS) * HOUR_MS);
    endMs = Math.min(day.endMs, Math.ceil((originMs + epochCount * MINUTE_MS) / HOUR_MS) * HOUR_MS);
    if (endMs <= startMs) endMs = startMs + HOUR_MS;
  }
  const ticks: number[] = [];
  for (let t = Math.ceil(startMs / HOUR_MS) * HOUR_MS; t <= endMs; t += HOUR_MS) ticks.push(t);
  return { startMs, endMs, ticks };
}

/** A stretch of the time axis being looked at (the whole axis, or a zoomed part of it). */
export interface TimeWindow {
  startMs: number;
  endMs: number;
}

/** The narrowest the charts zoom to: a few minutes still show the per-minute values apart. */
export const MIN_ZOOM_MS = 10 * MINUTE_MS;

/**
 * `[startMs, endMs)` made a window inside `full`: at least MIN_ZOOM_MS wide (or the whole of `full`
 * when that is narrower), moved rather than cut where it runs past an end.
 */
export function clampWindow(full: TimeWindow, startMs: number, endMs: number): TimeWindow {
  const fullSpan = full.endMs - full.startMs;
  const span = Math.min(fullSpan, Math.max(MIN_ZOOM_MS, Math.abs(endMs - startMs)));
  let start = Math.min(startMs, endMs);
  if (Math.max(startMs, endMs) - start < span) start = (startMs + endMs) / 2 - span / 2;
  start = Math.min(Math.max(start, full.startMs), full.endMs - span);
  return { startMs: start, endMs: start + span };
}

/** `current` scaled by `factor` (below 1 zooms in) about the instant `atMs`, which stays where it is. */
export function zoomWindow(full: TimeWindow, current: TimeWindow, atMs: number, factor: number): TimeWindow {
  const start = atMs - (atMs - current.startMs) * factor;
  const end = atMs + (current.endMs - atMs) * factor;
  return clampWindow(full, start, end);
}

/** Whether a window is the whole of `full` (nothing to reset). */
export function isWhole(full: TimeWindow, window: TimeWindow): boolean {
  return window.startMs <= full.startMs && window.endMs >= full.endMs;
}

const TICK_STEPS_MIN = [5, 10, 15, 30, 60, 120, 180];

/** Grid lines of a window: whole hours, or every 5–30 minutes when zoomed in; at most about a dozen. */
export function windowTicks(window: TimeWindow): number[] {
  const spanMin = (window.endMs - window.startMs) / MINUTE_MS;
  const stepMin = TICK_STEPS_MIN.find((step) => spanMin / step <= 12) ?? 240;
  const step = stepMin * MINUTE_MS;
  const ticks: number[] = [];
  for (let t = Math.ceil(window.startMs / step) * step; t <= window.endMs; t += step) ticks.push(t);
  return ticks;
}

/** The start of the minute at a fraction (0–1) of the axis. */
export function minuteAt(axis: TimeWindow, fraction: number): number {
  const at = axis.startMs + Math.min(1, Math.max(0, fraction)) * (axis.endMs - axis.startMs);
  return Math.min(axis.endMs - MINUTE_MS, Math.floor(at / MINUTE_MS) * MINUTE_MS);
}

/** The epoch of the minute starting at `minuteMs`, if the record has one. */
export function epochAt(epochs: readonly SleepEpoch[], originMs: number | null, minuteMs: number): SleepEpoch | null {
  if (originMs === null) return null;
  const index = Math.floor((minuteMs - originMs) / MINUTE_MS);
  return epochs[index] ?? null;
}

export interface PauseMark {
  startMs: number;
  endMs: number;
  /** Pauses that began in the minute. */
  count: number;
}

/**
 * Breathing pauses as marks on the timeline: the minutes whose epoch counts pauses (`pauses`), the
 * same per-minute counts whose sum is the record's `apneaEvents`, the number the metrics show. The
 * station's no-breathing alerts are not used: they need a longer pause and may be switched off.
 */
export function pauseMarks(epochs: readonly SleepEpoch[], originMs: number): PauseMark[] {
  const marks: PauseMark[] = [];
  epochs.forEach((epoch, index) => {
    const count = epoch.pauses ?? 0;
    if (count > 0) marks.push({ startMs: originMs + index * MINUTE_MS, endMs: originMs + (index + 1) * MINUTE_MS, count });
  });
  return marks;
}

/** How many pauses the marks hold. */
export function pauseCount(marks: readonly PauseMark[]): number {
  return marks.reduce((sum, mark) => sum + mark.count, 0);
}

export interface CalendarCell {
  day: string;
  /** Day of the month. */
  date: number;
  hasData: boolean;
}

/** `YYYY-MM` of a day, and the month `n` months later. */
export function monthOf(day: string): string {
  return day.slice(0, 7);
}

export function addMonths(month: string, n: number): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** The month as weeks of seven cells starting on Sunday; null cells pad the first and last week. */
export function calendarWeeks(month: string, daysWithData: ReadonlySet<string>): (CalendarCell | null)[][] {
  const first = `${month}-01`;
  const lead = new Date(`${first}T00:00:00Z`).getUTCDay();
  const cells: (CalendarCell | null)[] = Array.from({ length: lead }, () => null);
  for (let day = first; monthOf(day) === month; day = addDays(day, 1)) cells.push({ day, date: Number(day.slice(8)), hasData: daysWithData.has(day) });
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (CalendarCell | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/**
 * A query for the sleep days whose bed time falls between two days (inclusive). Sleep days have no
 * day field to filter on and the engine filters on fields only, so the bed time stands in for the
 * id: it is widened by a day on each side (bed times are written with different UTC offsets, which
 * compare as text) and callers keep the ids they asked for.
 */
export function sleepDaysQuery(roomId: string, fromDay: string, toDay: string) {
  return {
    collection: `rooms/${roomId}/sleeps`,
    where: [
      ['bedTime', '>=', `${addDays(fromDay, -1)}T00:00:00`],
      ['bedTime', '<', `${addDays(toDay, 3)}T00:00:00`],
    ],
    orderBy: [['bedTime']],
    limit: 1000,
  } as const;
}

/** The records' days (document ids) inside [fromDay, toDay]. */
export function daysBetween<T extends { documentReferenceId: string }>(records: readonly T[], fromDay: string, toDay: string): Map<string, T> {
  const byDay = new Map<string, T>();
  for (const record of records) if (record.documentReferenceId >= fromDay && record.documentReferenceId <= toDay) byDay.set(record.documentReferenceId, record);
  return byDay;
}
