/**
 * Report periods: a day, a week, a month or a custom range of sleep days (`YYYY-MM-DD`, both ends
 * included), and the limits the report API enforces, shared by the screen and the server.
 */
import { z } from 'zod/v3';

/** The longest period a report covers (a leap year). */
export const MAX_REPORT_DAYS = 366;
/** The most rooms in one report (a large facility prints floor by floor). */
export const MAX_REPORT_ROOMS = 100;
/** The longest staff comment on a room's report. */
export const MAX_REPORT_COMMENT = 2000;

const DAY_MS = 86_400_000;
const DAY_PATTERN = /^\d{4}-\d\d-\d\d$/;

export function isReportDay(value: string): boolean {
  if (!DAY_PATTERN.test(value)) return false;
  // A day that does not exist (2026-13-01, 2026-02-30) parses to NaN or rolls over: either way not this day.
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value;
}

/** `YYYY-MM-DD` → the day `n` days later (calendar arithmetic, no time zone involved). */
export function addReportDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** How many days from `from` to `to`, both included. */
export function periodLength(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/** Every day from `from` to `to`, both included. */
export function daysOfPeriod(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addReportDays(day, 1)) days.push(day);
  return days;
}

export type PeriodKind = 'day' | 'week' | 'month' | 'custom';

/**
 * The period of a kind that contains `anchor`: the day itself, the week from Sunday (the product's
 * first day of the week, shared/constants FIRST_DAY_OF_WEEK), or the calendar month.
 */
export function periodAround(kind: Exclude<PeriodKind, 'custom'>, anchor: string): { from: string; to: string } {
  if (kind === 'day') return { from: anchor, to: anchor };
  if (kind === 'week') {
    const weekday = new Date(`${anchor}T00:00:00Z`).getUTCDay();
    const from = addReportDays(anchor, -weekday);
    return { from, to: addReportDays(from, 6) };
  }
  const from = `${anchor.slice(0, 7)}-01`;
  const next = new Date(Date.parse(`${from}T00:00:00Z`));
  next.setUTCMonth(next.getUTCMonth() + 1);
  return { from, to: addReportDays(next.toISOString().slice(0, 10), -1) };
}

const day = z.string().refine(isReportDay, 'must be a date YYYY-MM-DD');

/** Rooms (comma-separated ids in a query string) and a period: the fields every report query has. */
export const reportQueryFields = {
  rooms: z
    .string()
    .min(1)
    .transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((id) => id.trim())
          .filter((id) => id !== ''),
      ),
    ])
    .refine((ids) => ids.length >= 1 && ids.length <= MAX_REPORT_ROOMS, `from 1 to ${MAX_REPORT_ROOMS} rooms`)
    .refine((ids) => ids.every((id) => id.length <= 200 && !id.includes('/')), 'not a room id'),
  from: day,
  to: day,
};

/**
 * A report query's object, strict (an unknown key is refused by name, not ignored), with the period's
 * rules; the CSV's query (reportApi.ts) adds its own keys to the same fields.
 */
export function withReportPeriod<T extends z.ZodRawShape & typeof reportQueryFields>(shape: T) {
  return z
    .object(shape)
    .strict()
    .refine((query) => (query.from as string) <= (query.to as string), { message: 'from must not be after to', path: ['to'] })
    .refine((query) => periodLength(query.from as string, query.to as string) <= MAX_REPORT_DAYS, { message: `at most ${MAX_REPORT_DAYS} days`, path: ['to'] });
}

/** GET /api/reports/data and /pdf: rooms and a period, nothing else. */
export const reportQuery = withReportPeriod(reportQueryFields);

export type ReportQuery = z.infer<typeof reportQuery>;
