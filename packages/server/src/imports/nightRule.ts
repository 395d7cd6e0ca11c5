/**
 * Which of an import's days become sleep days (docs/imports.md, "Too short or outside the night"): a
 * day needs at least NIGHT_MIN_MINUTES minutes with data, as many of them inside the night
 * (NIGHT_FROM_HOUR to NIGHT_TO_HOUR in the facility's zone), and a minute in bed. Anything less — a
 * 5-minute afternoon excerpt of a PSG, the tail of a recording after the sleep-day boundary — is not
 * a night: it makes no sleep day and the upload lists it as a warning, with the minutes it held.
 */
import { NIGHT_FROM_HOUR, NIGHT_MIN_MINUTES, NIGHT_TO_HOUR, type ImportWarning } from '@nemuri/shared/imports';
import { wallClockMs } from '@nemuri/shared/report/sleepDayClock';
import type { ImportedDay } from './importResult.ts';

const MINUTE_MS = 60_000;

/** Whether a local hour lies in the night window (it wraps past midnight). */
export function inNight(hour: number): boolean {
  return NIGHT_FROM_HOUR > NIGHT_TO_HOUR ? hour >= NIGHT_FROM_HOUR || hour < NIGHT_TO_HOUR : hour >= NIGHT_FROM_HOUR && hour < NIGHT_TO_HOUR;
}

/** The days that make sleep days, and a warning for each that does not. */
export function keepNights(days: readonly ImportedDay[], timeZone: string): { days: ImportedDay[]; warnings: ImportWarning[] } {
  const kept: ImportedDay[] = [];
  const warnings: ImportWarning[] = [];
  for (const day of days) {
    const record = day.record;
    if (record === null) continue;
    const startMs = Date.parse(record.epochStart);
    let minutes = 0;
    let nightMinutes = 0;
    // The zone's offset is looked up once an hour of the day, not once a minute.
    let offsetHour = Number.NaN;
    let offsetMs = 0;
    record.epochs.forEach((epoch, i) => {
      if (epoch.state === 'unknown') return;
      const at = startMs + i * MINUTE_MS;
      const hourIndex = Math.floor(i / 60);
      if (hourIndex !== offsetHour) {
        offsetHour = hourIndex;
        offsetMs = wallClockMs(at, timeZone) - at;
      }
      minutes++;
      if (inNight(new Date(at + offsetMs).getUTCHours())) nightMinutes++;
    });
    const code =
      minutes < NIGHT_MIN_MINUTES ? 'too-short' : nightMinutes < NIGHT_MIN_MINUTES ? 'outside-night' : record.timeInBedMin === 0 ? 'not-in-bed' : null;
    if (code === null) kept.push(day);
    else warnings.push({ code, day: day.day, minutes, nightMinutes });
  }
  return { days: kept, warnings };
}
