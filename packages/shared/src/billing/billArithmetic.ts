/**
 * The arithmetic of an agency's monthly bill to a partner (docs/api.md, "Agency bills"). Pure
 * functions, integers in yen, so that server and tests agree and property tests can check them.
 *
 * - Days are calendar days in Japan time (UTC+9 all year: Japan has no daylight saving time).
 * - A device's days used in a month: the days of that month on which the device was held by one
 *   of the partner's domains for any part of the day (several borrows of one device count each
 *   day once). A borrow holds the device from `from` until `returnedAt`; when not returned yet,
 *   until `until` (the planned end); with neither, to the end of the month.
 * - Line amount = floor(monthlyUnitPrice × daysUsed / daysInMonth): pro-rated, rounded down once
 *   per line, so a full month costs exactly the unit price.
 * - Subtotal = the sum of the lines. Consumption tax = floor(subtotal × rate / 100), computed once
 *   per invoice per tax rate (the qualified-invoice rule: round once per rate, never per line).
 *   Total = subtotal + tax.
 */

/** The standard consumption tax rate (%) of every bill line: devices are not reduced-rate goods. */
export const STANDARD_TAX_RATE = 10;

const DAY_MS = 86_400_000;
/** Japan Standard Time, UTC+9, without daylight saving time. */
const JST_OFFSET_MS = 9 * 3_600_000;

const MONTH_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** `YYYY-MM` parsed, or null. */
export function parseMonth(month: string): { year: number; month: number } | null {
  const match = MONTH_PATTERN.exec(month);
  if (match === null) return null;
  return { year: Number(match[1]), month: Number(match[2]) };
}

function requireMonth(month: string): { year: number; month: number } {
  const parsed = parseMonth(month);
  if (parsed === null) throw new RangeError(`Not a month (YYYY-MM): ${month}`);
  return parsed;
}

/** How many days the month has (leap Februaries have 29). */
export function daysInMonth(month: string): number {
  const { year, month: m } = requireMonth(month);
  return new Date(Date.UTC(year, m, 0)).getUTCDate();
}

/** The Japan calendar day of an instant, as a day number (days since 1970-01-01 in Japan). */
export function jstDayNumber(instantMs: number): number {
  return Math.floor((instantMs + JST_OFFSET_MS) / DAY_MS);
}

/** The day numbers of the first and last day of the month (Japan calendar). */
export function monthDayRange(month: string): { first: number; last: number } {
  const { year, month: m } = requireMonth(month);
  const first = Math.floor(Date.UTC(year, m - 1, 1) / DAY_MS);
  return { first, last: first + daysInMonth(month) - 1 };
}

/** One borrow of a device as the bill reads it (ISO 8601 instants). */
export interface HoldingPeriod {
  from: string;
  until?: string | null | undefined;
  returnedAt?: string | null | undefined;
}

/** When the holding ends (exclusive), or null when it is still open. */
function endOf(period: HoldingPeriod): number | null {
  const end = period.returnedAt ?? period.until ?? null;
  return end === null ? null : Date.parse(end);
}

/**
 * The days of `month` on which the device was held in at least one of `periods` for some part of
 * the day; between 0 and daysInMonth(month).
 */
export function daysUsedInMonth(month: string, periods: readonly HoldingPeriod[]): number {
  const { first, last } = monthDayRange(month);
  const days = new Set<number>();
  for (const period of periods) {
    const start = Date.parse(period.from);
    if (Number.isNaN(start)) continue;
    const end = endOf(period);
    if (end !== null && (Number.isNaN(end) || end <= start)) continue;
    // The end instant is exclusive: a return at 00:00 does not use that day.
    const firstDay = Math.max(first, jstDayNumber(start));
    const lastDay = Math.min(last, end === null ? last : jstDayNumber(end - 1));
    for (let day = firstDay; day <= lastDay; day++) days.add(day);
  }
  return days.size;
}

/** A line's amount: the monthly unit price pro-rated by days, rounded down to whole yen. */
export function lineAmount(monthlyUnitPrice: number, daysUsed: number, monthDays: number): number {
  if (monthDays <= 0) throw new RangeError('A month has at least one day');
  // Integers: price × days stays far below 2^53, so the division is the only rounding.
  return Math.floor((monthlyUnitPrice * daysUsed) / monthDays);
}

export interface BillLine {
  deviceSerial: string;
  daysUsed: number;
  unitPrice: number;
  amount: number;
}

export interface BillTotals {
  subtotal: number;
  taxRate: number;
  consumptionTax: number;
  total: number;
}

/** Consumption tax on a subtotal at a rate (%), rounded down once. */
export function consumptionTaxOf(subtotal: number, taxRate: number = STANDARD_TAX_RATE): number {
  return Math.floor((subtotal * taxRate) / 100);
}

/** Subtotal, tax (once for the whole invoice) and total of the lines, all at one rate. */
export function billTotals(lines: readonly Pick<BillLine, 'amount'>[], taxRate: number = STANDARD_TAX_RATE): BillTotals {
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  const consumptionTax = consumptionTaxOf(subtotal, taxRate);
  return { subtotal, taxRate, consumptionTax, total: subtotal + consumptionTax };
}

/** A device's borrows to the partner's domains, as the bill needs them. */
export interface DeviceHolding {
  deviceSerial: string;
  periods: readonly HoldingPeriod[];
}

/**
 * The lines of a partner's bill for a month: one per device used at least one day, in serial
 * order, and the totals.
 */
export function buildBill(month: string, monthlyUnitPrice: number, holdings: readonly DeviceHolding[], taxRate: number = STANDARD_TAX_RATE): { lines: BillLine[] } & BillTotals {
  const monthDays = daysInMonth(month);
  const lines = holdings
    .map((holding) => ({ deviceSerial: holding.deviceSerial, daysUsed: daysUsedInMonth(month, holding.periods) }))
    .filter((line) => line.daysUsed > 0)
    .sort((a, b) => (a.deviceSerial < b.deviceSerial ? -1 : a.deviceSerial > b.deviceSerial ? 1 : 0))
    .map((line) => ({ ...line, unitPrice: monthlyUnitPrice, amount: lineAmount(monthlyUnitPrice, line.daysUsed, monthDays) }));
  return { lines, ...billTotals(lines, taxRate) };
}

/** The month after `month` (`2026-12` → `2027-01`). */
export function nextMonth(month: string): string {
  const { year, month: m } = requireMonth(month);
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

/** The last day of the month as `YYYY-MM-DD`: a bill's due date is the last day of the month after it. */
export function lastDayOf(month: string): string {
  return `${month}-${String(daysInMonth(month)).padStart(2, '0')}`;
}
