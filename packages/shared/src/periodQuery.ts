/**
 * The rules every paged history with a period and a CSV of it shares (the alert history, the audit
 * log): what a record id in a filter looks like, instants with their offset, `from` before `to`, and
 * the longest period one CSV covers. One copy, so that the two lists cannot drift apart.
 */
import { z } from 'zod/v3';
import { CSV_ENCODINGS } from './report/reportApi.ts';

/** A record's id as a filter names it (no slash, no blank). */
export const recordIdParam = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^/\s]+$/, 'must be a record id');

/** An instant with its offset (`2026-11-24T21:00:00+09:00`), normalised to the stored form (`…Z` with milliseconds). */
export const instantParam = z
  .string()
  .max(40)
  .datetime({ offset: true })
  .transform((text) => new Date(text).toISOString());

interface Period {
  from?: string | undefined;
  to?: string | undefined;
}

/** `from` before `to` when both are given (the refinement of a list query). */
export const periodOrdered = (filter: Period): boolean => filter.from === undefined || filter.to === undefined || filter.from < filter.to;
export const periodOrderMessage = { message: 'from must be before to', path: ['to'] };

/**
 * A CSV's query: `from` and `to` are required, in order, and at most `maxDays` days apart;
 * `encoding` is the file's (UTF-8 with BOM unless `sjis`, Windows-31J), as every CSV download offers.
 */
export function withCsvPeriod<T extends z.ZodRawShape & { from: typeof instantParam; to: typeof instantParam }>(shape: T, maxDays: number) {
  return z
    .object({ ...shape, encoding: z.enum(CSV_ENCODINGS).default('utf8bom') })
    .strict()
    .refine(periodOrdered, periodOrderMessage)
    .refine((filter) => Date.parse(filter.to as string) - Date.parse(filter.from as string) <= maxDays * 86_400_000, {
      message: `the period may be at most ${maxDays} days`,
      path: ['to'],
    });
}
