/**
 * What the agency API answers (docs/api.md, "Agency area"): rows of devices, partners and rooms, and the
 * statistics. The server builds them, the agency screens draw them.
 */

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
  domainIds: string[];
  deviceCount: number;
  roomCount: number;
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
