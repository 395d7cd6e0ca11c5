/**
 * Where a sleep day lies in time for a report: from the domain's boundary hour on day D to the same
 * hour on D + 1, in the domain's time zone (the server's sleep/sleepDay.ts rule), and the clock
 * time of an instant in that zone. Intl only, so it runs the same in the browser and on the server.
 */
import { z } from 'zod/v3';

/** The domain's sleep day: the hour it begins, in its time zone. */
export const reportDayRuleSchema = z.object({ boundaryHour: z.number(), timeZone: z.string() }).strict();
export type ReportDayRule = z.infer<typeof reportDayRuleSchema>;

export const DEFAULT_REPORT_DAY_RULE: ReportDayRule = { boundaryHour: 12, timeZone: 'Asia/Tokyo' };

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's date-and-time format, made once per zone (it throws on an unknown zone name). */
export function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The zone's wall clock at an instant, as if it were UTC (ms). */
export function wallClockMs(instantMs: number, timeZone: string): number {
  const parts = Object.fromEntries(
    formatOf(timeZone)
      .formatToParts(new Date(instantMs))
      .map((part) => [part.type, part.value]),
  );
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
}

/** The instant at which the zone's clock shows `day` at `hour`:00. */
export function zonedInstant(day: string, hour: number, timeZone: string): number {
  const wall = Date.parse(`${day}T00:00:00Z`) + hour * 3_600_000;
  // Two corrections settle the offset, including across a daylight-saving change.
  let instant = wall - (wallClockMs(wall, timeZone) - wall);
  instant = wall - (wallClockMs(instant, timeZone) - instant);
  return instant;
}

/** When sleep day `day` starts. */
export function sleepDayStartMs(day: string, rule: ReportDayRule): number {
  return zonedInstant(day, rule.boundaryHour, rule.timeZone);
}

/** `HH:MM` of an instant in the zone. */
export function clockOf(instantMs: number, timeZone: string): string {
  return new Date(wallClockMs(instantMs, timeZone)).toISOString().slice(11, 16);
}

/** `YYYY-MM-DD HH:MM` of an instant in the zone (the epoch CSV's time column). */
export function dateTimeOf(instantMs: number, timeZone: string): string {
  const iso = new Date(wallClockMs(instantMs, timeZone)).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** `HH:MM` of a minute offset from the start of a sleep day (the boundary hour). */
export function clockOfOffset(offsetMin: number, rule: ReportDayRule): string {
  const minutes = (((Math.round(offsetMin) + rule.boundaryHour * 60) % 1440) + 1440) % 1440;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
