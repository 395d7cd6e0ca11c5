/**
 * Calendar arithmetic in Asia/Tokyo for the demo data set. Japan has no daylight saving time, so
 * a fixed +09:00 offset is exact and keeps the generated data independent of the host's time zone.
 */

const OFFSET_MS = 9 * 3_600_000;
const DAY_MS = 86_400_000;

/** A calendar day `YYYY-MM-DD`. */
export type Day = string;

/** The Tokyo calendar day of an instant. */
export function tokyoDay(instant: Date): Day {
  return new Date(instant.getTime() + OFFSET_MS).toISOString().slice(0, 10);
}

/** The day `days` after `day` (negative: before). */
export function addDays(day: Day, days: number): Day {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The instant (ms since the epoch) of a wall-clock time in Tokyo; minutes may exceed a day. */
export function tokyoInstant(day: Day, minutesAfterMidnight: number): number {
  return Date.parse(`${day}T00:00:00Z`) - OFFSET_MS + Math.round(minutesAfterMidnight * 60_000);
}

/** ISO 8601 with the Tokyo offset, to the second: `2026-11-21T22:04:00+09:00`. */
export function tokyoIso(instantMs: number): string {
  return `${new Date(Math.floor(instantMs / 1000) * 1000 + OFFSET_MS).toISOString().slice(0, 19)}+09:00`;
}

/** `YYYY-MM` of a day, and month arithmetic on it. */
export function monthOf(day: Day): string {
  return day.slice(0, 7);
}

export function addMonths(month: string, months: number): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (mon - 1) + months;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

export function daysInMonth(month: string): number {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, mon, 0)).getUTCDate();
}
