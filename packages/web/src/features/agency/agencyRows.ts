/** Filtering and summing the agency area's rows: pure, so that it is tested without a browser. */
import type { Bill } from './api/agencyApi.ts';
import { lastDayOf, STANDARD_TAX_RATE, type RateTotal } from '@nemuri/shared/billing/billArithmetic';

export { DEVICE_STATUSES } from '@nemuri/shared/documents/collections';

/** The devices' filter is the server's (it pages them), shared so that the rule is one. */
export { filterDevices, type DeviceFilter } from '@nemuri/shared/billing/agencyAnswers';

/** The month before today's (Japan time), `YYYY-MM`: what an agency usually bills. */
export function previousMonth(now: Date): string {
  const jst = new Date(now.getTime() + 9 * 3_600_000);
  const index = jst.getUTCFullYear() * 12 + jst.getUTCMonth() - 1;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Bills newest month first, then by partner name. */
export function sortBills(bills: readonly Bill[]): Bill[] {
  return [...bills].sort((a, b) => b.month.localeCompare(a.month) || (a.partnerName ?? a.partnerDomainId).localeCompare(b.partnerName ?? b.partnerDomainId));
}

/** The last day a draft counts when its month was under way (a forecast, 見込み), else null. */
export function forecastThrough(bill: Bill): string | null {
  const through = bill.billedThrough ?? null;
  return through !== null && through < lastDayOf(bill.month) ? through : null;
}

/** The bill's parts per tax rate: as stored, or one part at the bill's rate for bills made before they were. */
export function ratesOf(bill: Bill): RateTotal[] {
  if (bill.taxes !== undefined && bill.taxes.length > 0) return bill.taxes;
  return [{ rate: bill.taxRate ?? STANDARD_TAX_RATE, base: bill.subtotal ?? 0, tax: bill.consumptionTax ?? 0 }];
}
