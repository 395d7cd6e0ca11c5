/**
 * What the agency API answers (docs/api.md, "Agency area"): rows of devices, partners and rooms, and the
 * statistics. The server builds them, the agency screens draw them.
 */

import type { PaymentTerms } from './billArithmetic.ts';

export interface DeviceRow {
  serial: string;
  deviceTypeId: string;
  typeName: string;
  status: string;
  holderDomainId: string | null;
  holderName: string | null;
  partnerId: string | null;
  roomId: string | null;
  roomName: string | null;
  lastSeenAt: string | null;
  online: boolean;
}

export interface PartnerRow {
  id: string;
  name: string;
  contractStart: string | null;
  contractEnd: string | null;
  monthlyUnitPrice: number | null;
  status: string;
  /** The contract's payment terms (the default 月末締め翌月末払い when it states none). */
  paymentTerms: PaymentTerms;
  domainIds: string[];
  deviceCount: number;
  roomCount: number;
  /** Issued bills not yet paid, with tax (yen). */
  unpaidTotal: number;
}

export interface RoomRow {
  id: string;
  name: string;
  domainId: string;
  domainName: string;
  partnerId: string | null;
  deviceSerial: string | null;
  status: string | null;
  residentName: string | null;
}

export interface MonthRevenue {
  month: string;
  /** Issued and paid bills: before tax, tax, with tax. Drafts are not revenue yet. */
  subtotal: number;
  consumptionTax: number;
  total: number;
  /** Of the total, what is paid. */
  paid: number;
  /** Devices held by a partner on at least one day of the month (from the borrows). */
  devicesOut: number;
}

export interface AgencyStatistics {
  devices: { total: number; stock: number; lent: number; inUse: number; repair: number; retired: number; online: number; atPartners: number };
  roomsMonitored: number;
  rooms: number;
  partners: { total: number; active: number };
  bills: { draft: number; issued: number; paid: number; unpaidTotal: number };
  months: MonthRevenue[];
  byPartner: { partnerId: string; name: string; devices: number; rooms: number }[];
}

/**
 * GET /api/agency/:agencyId/bills: a page of the agency's bills, newest month first (then by
 * partner), optionally of one status or partner; `nextCursor` (a bill id) asks for the next page.
 */
export const AGENCY_BILLS_DEFAULT_PAGE = 50;
export const AGENCY_BILLS_MAX_PAGE = 200;
export const AGENCY_BILL_STATUSES = ['draft', 'issued', 'paid'] as const;

/**
 * GET /api/agency/:agencyId/partners and …/partner-requests: keyset pages (partners by name, then
 * id; requests newest first); `nextCursor` (the last row's id) asks for the next page, null on the last.
 */
export const AGENCY_LIST_DEFAULT_PAGE = 50;
export const AGENCY_LIST_MAX_PAGE = 200;

export interface PartnersPage {
  partners: PartnerRow[];
  nextCursor: string | null;
}

/** GET /api/agency/:agencyId/devices: a bounded page of the agency's devices matching the filter. */
export const AGENCY_DEVICES_DEFAULT_PAGE = 50;
export const AGENCY_DEVICES_MAX_PAGE = 200;

export interface DeviceFilter {
  search: string;
  status: string | null;
  partnerId: string | null;
  online: 'online' | 'offline' | null;
}

export interface DevicesPage {
  devices: DeviceRow[];
  /** Devices matching the filter, and all the agency's devices. */
  matched: number;
  total: number;
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

/** GET /api/agency/:agencyId/rooms?partnerId: a bounded page of a partner's rooms (by facility, then name). */
export const AGENCY_ROOMS_PAGE = 50;

export interface RoomsPage {
  rooms: RoomRow[];
  /** The rooms of the partner (or of every partner). */
  matched: number;
}
