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
 * - Per tax rate (10 % standard, 8 % reduced): the base is the sum of that rate's lines and its
 *   consumption tax = floor(base × rate / 100), computed once per invoice per rate (the
 *   qualified-invoice rule: round once per rate, never per line). Subtotal = the sum of the lines,
 *   tax = the sum of the per-rate taxes, total = subtotal + tax.
 * - Only days that have passed are billed: a month still under way is billed up to the day before
 *   `today` (`billedThrough`), so a draft made on the 24th bills at most 23 days.
 * - Due date: the contract's payment terms (`monthsAfter` months after the billed month, on `day`,
 *   or its last day); without terms, the last day of the next month (月末締め翌月末払い).
 */

/** The standard consumption tax rate (%) of every bill line: devices are not reduced-rate goods. */
export const STANDARD_TAX_RATE = 10;

/** The consumption tax rates (%) a qualified invoice may itemise: standard and reduced (軽減税率). */
export const TAX_RATES = [10, 8] as const;
export type TaxRate = (typeof TAX_RATES)[number];

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

/** The day number of a `YYYY-MM-DD` Japan calendar day. */
export function dayNumberOf(day: string): number {
  const match = /^(\d{4})-(\d\d)-(\d\d)$/.exec(day);
  if (match === null) throw new RangeError(`Not a day (YYYY-MM-DD): ${day}`);
  return Math.floor(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS);
}

/** The `YYYY-MM-DD` of a day number. */
export function dayOfNumber(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The last day of `month` that has passed at `nowMs` (Japan calendar): the month's last day when
 * the month is over, the day before today while it is under way, null when no day of it has passed.
 */
export function lastPassedDay(month: string, nowMs: number): string | null {
  const { first, last } = monthDayRange(month);
  const through = Math.min(last, jstDayNumber(nowMs) - 1);
  return through < first ? null : dayOfNumber(through);
}

/** Whether every day of `month` has passed at `nowMs`. */
export function monthIsOver(month: string, nowMs: number): boolean {
  return jstDayNumber(nowMs) > monthDayRange(month).last;
}

/**
 * The days of `month` on which the device was held in at least one of `periods` for some part of
 * the day, counting no day after `through` (`YYYY-MM-DD`, default the month's last day); between 0
 * and daysInMonth(month).
 */
export function daysUsedInMonth(month: string, periods: readonly HoldingPeriod[], through?: string): number {
  const range = monthDayRange(month);
  const first = range.first;
  const last = through === undefined ? range.last : Math.min(range.last, dayNumberOf(through));
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
  /** The line's consumption tax rate (%); absent on bills made before lines carried it: the bill's rate. */
  taxRate?: number;
}

/** One tax rate's part of an invoice: the base (before tax) and its tax, rounded once. */
export interface RateTotal {
  rate: number;
  base: number;
  tax: number;
}

export interface BillTotals {
  subtotal: number;
  /** The rate of the lines that name none (the standard rate). */
  taxRate: number;
  /** Per rate, highest rate first: what a qualified invoice lists. */
  taxes: RateTotal[];
  consumptionTax: number;
  total: number;
}

/** Consumption tax on a subtotal at a rate (%), rounded down once. */
export function consumptionTaxOf(subtotal: number, taxRate: number = STANDARD_TAX_RATE): number {
  return Math.floor((subtotal * taxRate) / 100);
}

/**
 * Subtotal, tax and total of the lines: the lines grouped by tax rate (a line without one is at
 * `taxRate`), each rate's tax rounded down once for the whole invoice.
 */
export function billTotals(lines: readonly Pick<BillLine, 'amount' | 'taxRate'>[], taxRate: number = STANDARD_TAX_RATE): BillTotals {
  const bases = new Map<number, number>();
  for (const line of lines) {
    const rate = line.taxRate ?? taxRate;
    bases.set(rate, (bases.get(rate) ?? 0) + line.amount);
  }
  const taxes = [...bases].sort(([a], [b]) => b - a).map(([rate, base]) => ({ rate, base, tax: consumptionTaxOf(base, rate) }));
  const subtotal = taxes.reduce((sum, part) => sum + part.base, 0);
  const consumptionTax = taxes.reduce((sum, part) => sum + part.tax, 0);
  return { subtotal, taxRate, taxes, consumptionTax, total: subtotal + consumptionTax };
}

/** A device's borrows to the partner's domains, as the bill needs them. */
export interface DeviceHolding {
  deviceSerial: string;
  periods: readonly HoldingPeriod[];
}

/**
 * The lines of a partner's bill for a month: one per device used at least one day up to `through`
 * (default the whole month), in serial order, and the totals.
 */
export function buildBill(
  month: string,
  monthlyUnitPrice: number,
  holdings: readonly DeviceHolding[],
  taxRate: number = STANDARD_TAX_RATE,
  through?: string,
): { lines: BillLine[] } & BillTotals {
  const monthDays = daysInMonth(month);
  const lines = holdings
    .map((holding) => ({ deviceSerial: holding.deviceSerial, daysUsed: daysUsedInMonth(month, holding.periods, through) }))
    .filter((line) => line.daysUsed > 0)
    .sort((a, b) => (a.deviceSerial < b.deviceSerial ? -1 : a.deviceSerial > b.deviceSerial ? 1 : 0))
    .map((line) => ({ ...line, unitPrice: monthlyUnitPrice, amount: lineAmount(monthlyUnitPrice, line.daysUsed, monthDays), taxRate }));
  return { lines, ...billTotals(lines, taxRate) };
}

/** The month after `month` (`2026-12` → `2027-01`). */
export function nextMonth(month: string): string {
  const { year, month: m } = requireMonth(month);
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

/** The last day of the month as `YYYY-MM-DD`. */
export function lastDayOf(month: string): string {
  return `${month}-${String(daysInMonth(month)).padStart(2, '0')}`;
}

/** A contract's payment terms: paid `monthsAfter` months after the billed month, on `day` (null: the last day). */
export interface PaymentTerms {
  monthsAfter: number;
  day: number | null;
}

/** 月末締め翌月末払い: the terms of a contract that states none. */
export const DEFAULT_PAYMENT_TERMS: PaymentTerms = { monthsAfter: 1, day: null };

/** The due date (`YYYY-MM-DD`) of a month's bill under the terms; a day past the month's end is its last day. */
export function dueDateOf(month: string, terms: PaymentTerms = DEFAULT_PAYMENT_TERMS): string {
  let dueMonth = month;
  for (let i = 0; i < terms.monthsAfter; i++) dueMonth = nextMonth(dueMonth);
  const day = terms.day === null ? daysInMonth(dueMonth) : Math.min(terms.day, daysInMonth(dueMonth));
  return `${dueMonth}-${String(day).padStart(2, '0')}`;
}

/** An issuer's invoice number as printed: the sequence, zero-padded to six digits (請求書番号 000042). */
export function invoiceNumberOf(sequence: number): string {
  return String(sequence).padStart(6, '0');
}
