/**
 * Property tests of the bill arithmetic (packages/shared/src/billing/billArithmetic.ts): lines sum
 * to the subtotal, tax is rounded down once per invoice (never per line), amounts are pro-rated and
 * bounded by the unit price, and days used follow the Japan calendar across month boundaries,
 * mid-month lends and returns, and leap Februaries. Kept with the server because fast-check is a
 * server dev dependency.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  billTotals,
  buildBill,
  consumptionTaxOf,
  daysInMonth,
  daysUsedInMonth,
  dueDateOf,
  invoiceNumberOf,
  lastPassedDay,
  lineAmount,
  monthDayRange,
  monthIsOver,
  nextMonth,
} from '@nemuri/shared/billing/billArithmetic';

const DAY_MS = 86_400_000;
const JST = 9 * 3_600_000;

/** A month between 2000-01 and 2099-12. */
const monthArb = fc
  .record({ year: fc.integer({ min: 2000, max: 2099 }), month: fc.integer({ min: 1, max: 12 }) })
  .map(({ year, month }) => `${year}-${String(month).padStart(2, '0')}`);
const priceArb = fc.integer({ min: 0, max: 1_000_000 });

/** The instant of a Japan-time day (day number) plus minutes, as ISO. */
const jstIso = (dayNumber: number, minutes: number): string => new Date(dayNumber * DAY_MS - JST + minutes * 60_000).toISOString();

describe('bill arithmetic (property-based)', () => {
  it('the subtotal is the sum of the lines; tax is floor(subtotal × 10 / 100) once; total = subtotal + tax', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000_000 }), { maxLength: 200 }), (amounts) => {
        const totals = billTotals(amounts.map((amount) => ({ amount })));
        const sum = amounts.reduce((a, b) => a + b, 0);
        expect(totals.subtotal).toBe(sum);
        expect(totals.consumptionTax).toBe(Math.floor((sum * 10) / 100));
        expect(Number.isInteger(totals.consumptionTax)).toBe(true);
        expect(totals.total).toBe(totals.subtotal + totals.consumptionTax);
        // Rounded once: never less than the sum of per-line rounded-down taxes, less than one yen above the exact tax.
        const perLine = amounts.reduce((acc, amount) => acc + consumptionTaxOf(amount), 0);
        expect(totals.consumptionTax).toBeGreaterThanOrEqual(perLine);
        expect(totals.consumptionTax).toBeLessThanOrEqual(sum / 10);
        expect(sum / 10 - totals.consumptionTax).toBeLessThan(1);
      }),
    );
  });

  it('a line is the unit price pro-rated by days, rounded down: 0 for no day, the full price for the whole month, monotone in days', () => {
    fc.assert(
      fc.property(monthArb, priceArb, fc.nat(), (month, price, seed) => {
        const days = daysInMonth(month);
        const used = seed % (days + 1);
        const amount = lineAmount(price, used, days);
        expect(Number.isInteger(amount)).toBe(true);
        expect(amount).toBeLessThanOrEqual((price * used) / days);
        expect((price * used) / days - amount).toBeLessThan(1);
        expect(lineAmount(price, 0, days)).toBe(0);
        expect(lineAmount(price, days, days)).toBe(price);
        if (used < days) expect(lineAmount(price, used + 1, days)).toBeGreaterThanOrEqual(amount);
      }),
    );
  });

  it('months have 28 to 31 days; February has 29 exactly in leap years', () => {
    fc.assert(
      fc.property(monthArb, (month) => {
        const days = daysInMonth(month);
        expect(days).toBeGreaterThanOrEqual(28);
        expect(days).toBeLessThanOrEqual(31);
        const { first, last } = monthDayRange(month);
        expect(last - first + 1).toBe(days);
        expect(monthDayRange(nextMonth(month)).first).toBe(last + 1);
      }),
    );
    expect(daysInMonth('2028-02')).toBe(29);
    expect(daysInMonth('2100-02')).toBe(28);
    expect(daysInMonth('2000-02')).toBe(29);
    expect(daysInMonth('2027-02')).toBe(28);
  });

  it('a device lent from day a (any time) and returned on day b of the month uses b − a + 1 days', () => {
    fc.assert(
      fc.property(
        monthArb,
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 0, max: 1439 }),
        fc.integer({ min: 1, max: 1439 }),
        (month, x, y, fromMinute, returnMinute) => {
          const { first, last } = monthDayRange(month);
          const days = last - first + 1;
          const a = first + (x % days);
          const b = a + (y % (last - a + 1));
          if (a === b && returnMinute <= fromMinute) return;
          const used = daysUsedInMonth(month, [{ from: jstIso(a, fromMinute), returnedAt: jstIso(b, returnMinute) }]);
          expect(used).toBe(b - a + 1);
        },
      ),
    );
  });

  it('a borrow across a month boundary splits its days between the months; an open borrow runs to the month end', () => {
    fc.assert(
      fc.property(monthArb, fc.nat(), fc.nat(), (month, x, y) => {
        const following = nextMonth(month);
        const { first, last } = monthDayRange(month);
        const next = monthDayRange(following);
        const start = first + (x % (last - first + 1));
        const end = next.first + (y % (next.last - next.first + 1));
        const period = { from: jstIso(start, 600), returnedAt: jstIso(end, 900) };
        expect(daysUsedInMonth(month, [period])).toBe(last - start + 1);
        expect(daysUsedInMonth(following, [period])).toBe(end - next.first + 1);
        expect(daysUsedInMonth(month, [period]) + daysUsedInMonth(following, [period])).toBe(end - start + 1);
        expect(daysUsedInMonth(month, [{ from: jstIso(start, 600) }])).toBe(last - start + 1);
        expect(daysUsedInMonth(following, [{ from: jstIso(start, 600) }])).toBe(daysInMonth(following));
      }),
    );
  });

  it('overlapping borrows of one device count each day once; days never exceed the month', () => {
    const periodArb = fc.record({ start: fc.integer({ min: -40, max: 40 }), length: fc.integer({ min: 1, max: 80 }), open: fc.boolean() });
    fc.assert(
      fc.property(monthArb, fc.array(periodArb, { maxLength: 6 }), (month, raw) => {
        const { first, last } = monthDayRange(month);
        const periods = raw.map((p) => ({ from: jstIso(first + p.start, 480), returnedAt: p.open ? null : jstIso(first + p.start + p.length, 480) }));
        const used = daysUsedInMonth(month, periods);
        expect(used).toBeGreaterThanOrEqual(0);
        expect(used).toBeLessThanOrEqual(last - first + 1);
        for (const period of periods) expect(used).toBeGreaterThanOrEqual(daysUsedInMonth(month, [period]));
        expect(daysUsedInMonth(month, [...periods, ...periods])).toBe(used);
      }),
    );
  });

  it('a bill: one line per device used, sorted by serial, lines and totals consistent', () => {
    fc.assert(
      fc.property(
        monthArb,
        priceArb,
        fc.array(fc.record({ start: fc.integer({ min: -10, max: 35 }), length: fc.integer({ min: 0, max: 40 }) }), { maxLength: 12 }),
        (month, price, raw) => {
          const { first } = monthDayRange(month);
          const holdings = raw.map((p, index) => ({
            deviceSerial: `NM-${String(index).padStart(4, '0')}`,
            periods: [{ from: jstIso(first + p.start, 0), until: jstIso(first + p.start + p.length, 0) }],
          }));
          const bill = buildBill(month, price, holdings);
          expect(
            bill.lines.every((line) => line.daysUsed > 0 && line.unitPrice === price && line.amount === lineAmount(price, line.daysUsed, daysInMonth(month))),
          ).toBe(true);
          expect(bill.lines.map((line) => line.deviceSerial)).toEqual([...bill.lines.map((line) => line.deviceSerial)].sort());
          expect(bill.subtotal).toBe(bill.lines.reduce((sum, line) => sum + line.amount, 0));
          expect(bill.total).toBe(bill.subtotal + Math.floor(bill.subtotal / 10));
        },
      ),
    );
  });

  it('known cases: mid-month lend and return, leap February, and tax rounded once rather than per line', () => {
    // Lent 15 Nov 10:00, returned 20 Nov 15:00 (Japan): 15..20 = 6 days of 30.
    expect(daysUsedInMonth('2026-11', [{ from: '2026-11-15T10:00:00+09:00', returnedAt: '2026-11-20T15:00:00+09:00' }])).toBe(6);
    // Returned at midnight: the day of the return is not used.
    expect(daysUsedInMonth('2026-11', [{ from: '2026-11-01T00:00:00+09:00', returnedAt: '2026-11-11T00:00:00+09:00' }])).toBe(10);
    // 23:30 UTC on 31 Oct is 1 Nov 08:30 in Japan.
    expect(daysUsedInMonth('2026-10', [{ from: '2026-10-31T23:30:00Z' }])).toBe(0);
    expect(daysUsedInMonth('2028-02', [{ from: '2028-01-20T09:00:00+09:00' }])).toBe(29);
    expect(lineAmount(2980, 29, 29)).toBe(2980);
    expect(lineAmount(2980, 10, 29)).toBe(1027);
    // Three lines of 15 yen: per-line tax 1+1+1 = 3, the invoice rule floor(45 × 0.1) = 4.
    expect(billTotals([{ amount: 15 }, { amount: 15 }, { amount: 15 }])).toEqual({
      subtotal: 45,
      taxRate: 10,
      taxes: [{ rate: 10, base: 45, tax: 4 }],
      consumptionTax: 4,
      total: 49,
    });
    // Two rates: each rounded once on its own base (10 %: floor(1999 × 0.1) = 199; 8 %: floor(1015 × 0.08) = 81).
    expect(billTotals([{ amount: 999 }, { amount: 1000 }, { amount: 1015, taxRate: 8 }])).toEqual({
      subtotal: 3014,
      taxRate: 10,
      taxes: [
        { rate: 10, base: 1999, tax: 199 },
        { rate: 8, base: 1015, tax: 81 },
      ],
      consumptionTax: 280,
      total: 3294,
    });
  });

  it('per tax rate: the bases sum to the subtotal, each rate’s tax is rounded down once on its base, the total adds them', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ amount: fc.integer({ min: 0, max: 10_000_000 }), taxRate: fc.constantFrom(10, 8) }), { maxLength: 100 }), (lines) => {
        const totals = billTotals(lines);
        expect(totals.taxes.map((part) => part.rate)).toEqual([...new Set(lines.map((line) => line.taxRate))].sort((a, b) => b - a));
        for (const part of totals.taxes) {
          const base = lines.filter((line) => line.taxRate === part.rate).reduce((sum, line) => sum + line.amount, 0);
          expect(part).toEqual({ rate: part.rate, base, tax: Math.floor((base * part.rate) / 100) });
        }
        expect(totals.subtotal).toBe(lines.reduce((sum, line) => sum + line.amount, 0));
        expect(totals.consumptionTax).toBe(totals.taxes.reduce((sum, part) => sum + part.tax, 0));
        expect(totals.total).toBe(totals.subtotal + totals.consumptionTax);
      }),
    );
  });

  it('only days that have passed are billed: never a day from today on, the whole month once it is over', () => {
    fc.assert(
      fc.property(monthArb, fc.integer({ min: -5, max: 40 }), fc.integer({ min: 0, max: 1439 }), (month, dayOffset, minute) => {
        const { first, last } = monthDayRange(month);
        const now = Date.parse(jstIso(first + dayOffset, minute));
        const through = lastPassedDay(month, now);
        // A device held the whole month and beyond.
        const held = [{ from: jstIso(first - 3, 0) }];
        const billed = through === null ? 0 : daysUsedInMonth(month, held, through);
        expect(billed).toBe(Math.max(0, Math.min(dayOffset, last - first + 1)));
        expect(monthIsOver(month, now)).toBe(first + dayOffset > last);
      }),
    );
    // Made on 24 November: 23 days, not 30.
    expect(lastPassedDay('2026-11', Date.parse('2026-11-24T10:00:00+09:00'))).toBe('2026-11-23');
    expect(buildBill('2026-11', 3000, [{ deviceSerial: 'NM-1', periods: [{ from: '2026-10-01T00:00:00+09:00' }] }], 10, '2026-11-23').lines).toEqual([
      { deviceSerial: 'NM-1', daysUsed: 23, unitPrice: 3000, amount: 2300, taxRate: 10 },
    ]);
  });

  it('due dates from payment terms: end of next month by default, a day clamped to the month’s end, across the year', () => {
    expect(dueDateOf('2026-11')).toBe('2026-12-31');
    expect(dueDateOf('2026-12')).toBe('2027-01-31');
    expect(dueDateOf('2026-12', { monthsAfter: 2, day: 10 })).toBe('2027-02-10');
    expect(dueDateOf('2027-01', { monthsAfter: 1, day: 31 })).toBe('2027-02-28');
    expect(dueDateOf('2027-12', { monthsAfter: 2, day: 30 })).toBe('2028-02-29');
    expect(dueDateOf('2026-11', { monthsAfter: 0, day: null })).toBe('2026-11-30');
    expect(invoiceNumberOf(42)).toBe('000042');
  });
});
