/**
 * Sleep days (PRODUCT.md section 5, `rooms/{roomId}/sleeps/{day}`): sleep day `D` is the night that
 * starts on the evening of `D`, from the domain's boundary hour (`dates.sleepDayBoundaryHour`, default
 * 12:00) on `D` to the same hour on `D + 1`, in the domain's time zone (default Asia/Tokyo).
 */

import { formatOf, wallClockMs } from '@nemuri/shared/report/sleepDayClock';

export interface SleepDayRule {
  boundaryHour: number;
  timeZone: string;
}

export const DEFAULT_SLEEP_DAY: SleepDayRule = { boundaryHour: 12, timeZone: 'Asia/Tokyo' };
const DAY_MS = 86_400_000;

/** The instant at which the zone's clock shows `day` at `hour`:00 (the later one across a DST fold). */
export function zonedInstant(day: string, hour: number, timeZone: string): number {
  return zonedWallInstant(Date.parse(`${day}T00:00:00Z`) + hour * 3_600_000, timeZone);
}

/** The instant at which the zone's clock shows a wall time (`2026-11-20T22:15:00`, no zone: files from other equipment). */
export function zonedDateTime(wallDateTime: string, timeZone: string): number {
  const wall = Date.parse(`${wallDateTime}Z`);
  // Not a date at all: NaN, for the caller to refuse (the time-zone formatter would throw on it).
  return Number.isNaN(wall) ? Number.NaN : zonedWallInstant(wall, timeZone);
}

function zonedWallInstant(wall: number, timeZone: string): number {
  // Two corrections settle the offset, including across a daylight-saving change.
  let instant = wall - (wallClockMs(wall, timeZone) - wall);
  instant = wall - (wallClockMs(instant, timeZone) - instant);
  return instant;
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The sleep day an instant belongs to. */
export function sleepDayOf(instantMs: number, rule: SleepDayRule = DEFAULT_SLEEP_DAY): string {
  const wall = wallClockMs(instantMs, rule.timeZone) - rule.boundaryHour * 3_600_000;
  return new Date(wall).toISOString().slice(0, 10);
}

/** The instants [start, end) of a sleep day. */
export function sleepDayRange(day: string, rule: SleepDayRule = DEFAULT_SLEEP_DAY): { startMs: number; endMs: number } {
  return { startMs: zonedInstant(day, rule.boundaryHour, rule.timeZone), endMs: zonedInstant(addDays(day, 1), rule.boundaryHour, rule.timeZone) };
}

/** The sleep day before the one an instant is in: the latest that has ended. */
export function lastEndedSleepDay(instantMs: number, rule: SleepDayRule = DEFAULT_SLEEP_DAY): string {
  return addDays(sleepDayOf(instantMs, rule), -1);
}

/** The rule from a domain record's `dates` and `timeZone`, each part falling back to the default. */
export function sleepDayRuleOf(dates: { sleepDayBoundaryHour?: unknown } | null | undefined, timeZone: unknown): SleepDayRule {
  const hour = dates?.sleepDayBoundaryHour;
  let zone = DEFAULT_SLEEP_DAY.timeZone;
  if (typeof timeZone === 'string' && timeZone !== '') {
    try {
      formatOf(timeZone);
      zone = timeZone;
    } catch {
      // An unknown zone name falls back to the default.
    }
  }
  return {
    boundaryHour: typeof hour === 'number' && Number.isInteger(hour) && hour >= 0 && hour <= 23 ? hour : DEFAULT_SLEEP_DAY.boundaryHour,
    timeZone: zone,
  };
}
