/** Filtering and summing the agency area's rows: pure, so that it is tested without a browser. */
import type { Bill, DeviceRow } from './agencyApi.ts';

export { DEVICE_STATUSES } from '@nemuri/shared/documents/collections';

export interface DeviceFilter {
  search: string;
  status: string | null;
  partnerId: string | null;
  online: 'online' | 'offline' | null;
}

/** Devices matching every given condition; the search looks at serial, type, holder and room. */
export function filterDevices(rows: readonly DeviceRow[], filter: DeviceFilter): DeviceRow[] {
  const needle = filter.search.trim().toLowerCase();
  return rows.filter((row) => {
    if (filter.status !== null && row.status !== filter.status) return false;
    if (filter.partnerId !== null && row.partnerId !== filter.partnerId) return false;
    if (filter.online === 'online' && !row.online) return false;
    if (filter.online === 'offline' && row.online) return false;
    if (needle === '') return true;
    return [row.serial, row.typeName, row.holderName ?? '', row.roomName ?? ''].some((value) => value.toLowerCase().includes(needle));
  });
}

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
