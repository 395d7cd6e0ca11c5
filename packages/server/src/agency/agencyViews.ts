/**
 * The agency area's rows and statistics, computed from AgencyData (agencyData.ts). Pure: what the
 * screens show, in the shapes docs/api.md ("Agency area") describes.
 */
import { daysUsedInMonth, parseMonth } from '@nemuri/shared/billing/billArithmetic';
import type { Data } from '@nemuri/shared/documents/update';
import { domainsOfPartner, idOf, numberOr, partnerOfDomain, paymentTermsOf, text, type AgencyData } from './agencyData.ts';
import type { AgencyStatistics, DeviceRow, PartnerRow, RoomRow } from '@nemuri/shared/billing/agencyAnswers';

export type { DeviceRow, PartnerRow, RoomRow };

/** A device counts as online when it sent a frame this recently (the domains' default `deviceOfflineMin`). */
export const ONLINE_WITHIN_MS = 5 * 60_000;

export function deviceRows(data: AgencyData, now: number): DeviceRow[] {
  const domainName = new Map(data.domains.map((domain) => [domain.id, domain.name]));
  const roomName = new Map(data.rooms.map((room) => [idOf(room), text(room.name)]));
  return data.devices
    .map((device) => {
      const holder = text(device.domainId);
      const roomId = text(device.roomId);
      const lastSeenAt = text(device.lastSeenAt);
      const typeId = text(device.deviceTypeId) ?? '';
      return {
        serial: idOf(device),
        deviceTypeId: typeId,
        typeName: data.deviceTypes.get(typeId) ?? typeId,
        status: text(device.status) ?? 'stock',
        holderDomainId: holder,
        holderName: holder === null ? null : (domainName.get(holder) ?? holder),
        partnerId: partnerOfDomain(data.partnerDomains, holder),
        roomId,
        roomName: roomId === null ? null : (roomName.get(roomId) ?? roomId),
        lastSeenAt,
        online: lastSeenAt !== null && now - Date.parse(lastSeenAt) <= ONLINE_WITHIN_MS,
      };
    })
    .sort((a, b) => a.serial.localeCompare(b.serial));
}

export function roomRows(data: AgencyData): RoomRow[] {
  const domainName = new Map(data.domains.map((domain) => [domain.id, domain.name]));
  return data.rooms
    .map((room) => {
      const domainId = text(room.domainId) ?? '';
      return {
        id: idOf(room),
        name: text(room.name) ?? idOf(room),
        domainId,
        domainName: domainName.get(domainId) ?? domainId,
        partnerId: partnerOfDomain(data.partnerDomains, domainId),
        deviceSerial: text(room.deviceSerial),
        status: text(room.status),
        residentName: text(room.residentName),
      };
    })
    .sort((a, b) => a.domainName.localeCompare(b.domainName) || a.name.localeCompare(b.name));
}

/** A partner's row: its contract, what its domains hold and what it owes. */
export function partnerRow(data: AgencyData, partner: Data): PartnerRow {
  const id = idOf(partner);
  const domainIds = data.partnerDomains.get(id) ?? domainsOfPartner(id, data.domains);
  return {
    id,
    name: text(partner.name) ?? id,
    contractStart: text(partner.contractStart),
    contractEnd: text(partner.contractEnd),
    monthlyUnitPrice: typeof partner.monthlyUnitPrice === 'number' ? partner.monthlyUnitPrice : null,
    status: text(partner.status) ?? 'active',
    paymentTerms: paymentTermsOf(partner),
    domainIds,
    deviceCount: data.devices.filter((device) => domainIds.includes(text(device.domainId) ?? '')).length,
    roomCount: data.rooms.filter((room) => domainIds.includes(text(room.domainId) ?? '')).length,
    unpaidTotal: data.bills
      .filter((bill) => bill.partnerDomainId === id && bill.status === 'issued')
      .reduce((total, bill) => total + numberOr(bill.total, 0), 0),
  };
}

export function partnerRows(data: AgencyData): PartnerRow[] {
  return data.partners.map((partner) => partnerRow(data, partner)).sort((a, b) => a.name.localeCompare(b.name));
}

/** `YYYY-MM` of an instant in Japan time. */
export function monthOfInstant(ms: number): string {
  const jst = new Date(ms + 9 * 3_600_000);
  return `${jst.getUTCFullYear()}-${String(jst.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The `count` months ending with `last`, oldest first. */
export function monthsEnding(last: string, count: number): string[] {
  const parsed = parseMonth(last);
  if (parsed === null) return [];
  const months: string[] = [];
  for (let back = count - 1; back >= 0; back--) {
    const index = parsed.year * 12 + (parsed.month - 1) - back;
    months.push(`${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`);
  }
  return months;
}

const MONTHS_SHOWN = 12;

export function agencyStatistics(data: AgencyData, now: number): AgencyStatistics {
  const devices = deviceRows(data, now);
  const partners = partnerRows(data);
  const partnerDomainIds = new Set([...data.partnerDomains.values()].flat());
  const count = (status: string) => devices.filter((device) => device.status === status).length;
  const billsOf = (status: string) => data.bills.filter((bill) => bill.status === status);
  const months = monthsEnding(monthOfInstant(now), MONTHS_SHOWN).map((month) => {
    const billed = data.bills.filter((bill) => bill.month === month && (bill.status === 'issued' || bill.status === 'paid'));
    const sum = (bills: readonly Data[], field: string) => bills.reduce((total, bill) => total + numberOr(bill[field], 0), 0);
    const serialsOut = new Set(
      data.borrows
        .filter((borrow) => partnerDomainIds.has(text(borrow.toDomainId) ?? ''))
        .filter((borrow) => daysUsedInMonth(month, [{ from: String(borrow.from), until: text(borrow.until), returnedAt: text(borrow.returnedAt) }]) > 0)
        .map((borrow) => borrow.deviceSerial),
    );
    return {
      month,
      subtotal: sum(billed, 'subtotal'),
      consumptionTax: sum(billed, 'consumptionTax'),
      total: sum(billed, 'total'),
      paid: sum(
        billed.filter((bill) => bill.status === 'paid'),
        'total',
      ),
      devicesOut: serialsOut.size,
    };
  });
  const rooms = roomRows(data);
  return {
    devices: {
      total: devices.length,
      stock: count('stock'),
      lent: count('lent'),
      inUse: count('in_use'),
      repair: count('repair'),
      retired: count('retired'),
      online: devices.filter((device) => device.online).length,
      atPartners: devices.filter((device) => device.partnerId !== null).length,
    },
    roomsMonitored: rooms.filter((room) => room.deviceSerial !== null && room.status !== 'vacant' && room.status !== 'inactive').length,
    rooms: rooms.length,
    partners: { total: partners.length, active: partners.filter((partner) => partner.status === 'active').length },
    bills: {
      draft: billsOf('draft').length,
      issued: billsOf('issued').length,
      paid: billsOf('paid').length,
      unpaidTotal: billsOf('issued').reduce((total, bill) => total + numberOr(bill.total, 0), 0),
    },
    months,
    byPartner: partners.map((partner) => ({ partnerId: partner.id, name: partner.name, devices: partner.deviceCount, rooms: partner.roomCount })),
  };
}
