/**
 * Every record of the demo data set, as (path, data) pairs in write order, computed from the day
 * the set ends at (its sleep days are the 30 nights up to yesterday in Tokyo) and the user ids of
 * the demo accounts. Pure and deterministic: the same inputs give the same records, random values
 * coming from generators seeded by record (room and day), not by position.
 */
import { createHash } from 'node:crypto';
import { dueDateOf, invoiceNumberOf, lastDayOf, STANDARD_TAX_RATE } from '@nemuri/shared/billing/billArithmetic';
import { DEMO_ACCOUNTS, DEMO_DOMAINS } from '@nemuri/shared/demoAccounts';
import { demoSecret } from '@nemuri/simulator/secrets';
import { hashSeed, Random } from '@nemuri/simulator/random';
import { hashDeviceSecret } from '../devices/deviceSecret.ts';
import { deviceTypeRecords, DEVICE_TYPES, historyRecords, parameterRecords, viewRecords } from './demoMasterData.ts';
import { CARE_NUMBERS, DEMO_DOMAIN_RECORDS, DEMO_EXTRA_STAFF, DEMO_PARTNERS, DEMO_ROOMS, type DemoRoom, type DeviceTypeId } from './demoTenants.ts';
import { generateNight, type NightEvent, type SleeperProfile } from './sleepNight.ts';
import { addDays, addMonths, daysInMonth, monthOf, tokyoInstant, tokyoIso, type Day } from './tokyoTime.ts';

export type Data = Record<string, unknown>;

export interface DemoRecord {
  path: string;
  data: Data;
}

export interface DemoRecordsInput {
  /** Today in Tokyo: the last sleep day is the day before. */
  today: Day;
  /** User id of each demo account by e-mail; accounts missing here get no staff record. */
  userIds: ReadonlyMap<string, string>;
}

export const SLEEP_DAYS = 30;
export const DEVICES_IN_ROOMS = DEMO_ROOMS.length;
export const STOCK_DEVICES = 6;
/**
 * Apnea index from which a resident's pauses raise alerts in the demo (15/h: moderate sleep apnea);
 * short pauses of the others stay in their sleep records only, so the alert list stays readable.
 */
const MODERATE_APNEA_INDEX = 15;

export function serialOf(index: number): string {
  return `NM-${String(index + 1).padStart(4, '0')}`;
}

/** A fixed salt per serial keeps the records deterministic; the secrets themselves are public demo values. */
function demoCredentialHash(serial: string): string {
  const salt = createHash('sha256').update(`nemuri-demo-salt:${serial}`).digest().subarray(0, 16);
  return hashDeviceSecret(demoSecret(serial), salt);
}

/** The root domain of a demo domain (itself for a root). */
function rootOf(domainId: string): string {
  const root = DEMO_DOMAIN_RECORDS.find(([id]) => id === domainId)?.[1].rootDomainId;
  return typeof root === 'string' ? root : domainId;
}

function sleeperOf(room: DemoRoom): SleeperProfile {
  const random = new Random(hashSeed('demo-sleeper', room.id));
  return {
    bedTime: Math.round(random.uniform(20 * 60 + 45, 22 * 60)),
    wakeTime: Math.round(random.uniform(5 * 60 + 30, 6 * 60 + 45)),
    latency: random.uniform(10, 30),
    awakenings: random.uniform(2.5, 4.5),
    toiletTrips: random.uniform(0.5, 2),
    longTrip: 0.02,
    respirationRate: random.uniform(12.5, 17.5),
    heartRate: random.uniform(56, 74),
    apneaIndex: random.uniform(1, 5),
    restlessness: random.uniform(0.85, 1.2),
    ...room.sleeper,
  };
}

export function buildDemoRecords({ today, userIds }: DemoRecordsInput): DemoRecord[] {
  const records: DemoRecord[] = [];
  const put = (path: string, data: Data): void => {
    records.push({ path, data });
  };
  const D = DEMO_DOMAINS;
  const uidOf = (email: string): string | null => userIds.get(email) ?? null;
  const agencyAdmin = uidOf('agency-admin@example.com') ?? 'demo-agency';
  const individual = uidOf('individual@example.com');
  const at = (day: Day, hour: number, minute = 0): string => tokyoIso(tokyoInstant(day, hour * 60 + minute));
  const firstOfMonth = (month: string): Day => `${month}-01`;

  // Master data of the maker.
  for (const [path, data] of [...deviceTypeRecords(), ...parameterRecords(), ...viewRecords(), ...historyRecords(today)]) put(path, data);

  // Domains, the agency's partners and bills.
  // The agency's invoice counter: the demo bills below are all issued, numbered 1 to 3 × partners.
  const billMonths = [3, 2, 1];
  for (const [id, data] of DEMO_DOMAIN_RECORDS)
    put(`domains/${id}`, id === D.agency ? { ...data, lastInvoiceNumber: billMonths.length * DEMO_PARTNERS.length } : data);
  const thisMonth = monthOf(today);
  const agencyName = DEMO_DOMAIN_RECORDS.find(([id]) => id === D.agency)?.[1].name ?? null;
  for (const partner of DEMO_PARTNERS) {
    const contractStart = firstOfMonth(addMonths(thisMonth, -partner.monthsAgo));
    put(`domains/${D.agency}/partners/${partner.domainId}`, {
      name: partner.name,
      contractStart,
      contractEnd: null,
      monthlyUnitPrice: partner.monthlyUnitPrice,
      status: 'active',
    });
    // Partners by consent (agency/partnerRequests.ts): each was asked and accepted by the customer's owner.
    const askedAt = at(addDays(contractStart, -7), 10);
    put(`domains/${D.agency}/partnerRequests/${partner.domainId}`, {
      customerDomainId: partner.domainId,
      customerName: partner.name,
      agencyName,
      status: 'accepted',
      partnerName: partner.name,
      contractStart,
      contractEnd: null,
      monthlyUnitPrice: partner.monthlyUnitPrice,
      message: null,
      requestedBy: agencyAdmin,
      requestedAt: askedAt,
      answeredBy: partner.domainId === D.corporation ? uidOf('owner@example.com') : individual,
      answeredAt: at(addDays(contractStart, -3), 15),
    });
  }
  const serialsOfRoot = (rootId: string): string[] => DEMO_ROOMS.flatMap((room, index) => (rootOf(room.domainId) === rootId ? [serialOf(index)] : []));
  for (const [partnerIndex, partner] of DEMO_PARTNERS.entries()) {
    for (const [monthIndex, monthsBack] of billMonths.entries()) {
      const month = addMonths(thisMonth, -monthsBack);
      const days = daysInMonth(month);
      const lines = serialsOfRoot(partner.domainId).map((deviceSerial) => ({
        deviceSerial,
        daysUsed: days,
        unitPrice: partner.monthlyUnitPrice,
        amount: partner.monthlyUnitPrice,
      }));
      const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
      const consumptionTax = Math.floor(subtotal * 0.1);
      const issued = firstOfMonth(addMonths(month, 1));
      const sequence = monthIndex * DEMO_PARTNERS.length + partnerIndex + 1;
      put(`domains/${D.agency}/bills/${partner.domainId}-${month}`, {
        partnerDomainId: partner.domainId,
        partnerName: DEMO_DOMAIN_RECORDS.find(([id]) => id === partner.domainId)?.[1].name ?? partner.name,
        month,
        billedThrough: lastDayOf(month),
        lines: lines.map((line) => ({ ...line, taxRate: STANDARD_TAX_RATE })),
        subtotal,
        taxRate: STANDARD_TAX_RATE,
        taxes: [{ rate: STANDARD_TAX_RATE, base: subtotal, tax: consumptionTax }],
        consumptionTax,
        invoiceSequence: sequence,
        invoiceNumber: invoiceNumberOf(sequence),
        dueDate: dueDateOf(month),
        issuerName: agencyName,
        issuerRegistrationNumber: DEMO_DOMAIN_RECORDS.find(([id]) => id === D.agency)?.[1].invoiceRegistrationNumber ?? null,
        total: subtotal + consumptionTax,
        status: monthsBack === 1 ? 'issued' : 'paid',
        issuedAt: at(issued, 9, 30),
        paidAt: monthsBack === 1 ? null : at(addDays(issued, 24), 14),
      });
    }
  }

  // Staff: the demo accounts under their own uid, and staff who only appear in lists.
  for (const account of DEMO_ACCOUNTS) {
    const uid = uidOf(account.email);
    if (uid === null) continue;
    put(`domains/${account.domainId}/staff/${uid}`, {
      displayName: account.displayName,
      email: account.email,
      accessLevel: account.accessLevel,
      disabled: false,
      invitedBy: null,
      lastSignInAt: null,
    });
  }
  const invitedBy: Record<string, string | null> = { [D.facilityA]: uidOf('admin@example.com'), [D.facilityB]: uidOf('owner@example.com') };
  DEMO_EXTRA_STAFF.forEach((staff, index) => {
    put(`domains/${staff.domainId}/staff/${staff.uid}`, {
      displayName: staff.displayName,
      email: `${staff.uid}@example.com`,
      accessLevel: staff.accessLevel,
      disabled: staff.disabled === true,
      invitedBy: invitedBy[staff.domainId] ?? null,
      lastSignInAt: staff.disabled === true ? at(addDays(today, -75), 17, 40) : at(addDays(today, -(index % 4)), 7 + (index % 3) * 4, (index * 17) % 60),
    });
  });

  // Rooms, and the devices in them.
  DEMO_ROOMS.forEach((room, index) => {
    const household = room.domainId === D.household;
    put(`rooms/${room.id}`, {
      domainId: room.domainId,
      rootDomainId: rootOf(room.domainId),
      name: room.name,
      floor: room.floor,
      unit: room.unit,
      sortOrder: index + 1,
      residentName: room.residentName,
      residentNote: room.residentNote,
      deviceSerial: serialOf(index),
      ownerUids: household && individual !== null ? [individual] : [],
      reportViewerUids: household && individual !== null ? [individual] : [],
      status: room.residentName === null ? 'vacant' : 'active',
    });
  });
  const contractStart = (domainId: string): Day => {
    const partner = DEMO_PARTNERS.find((candidate) => candidate.domainId === rootOf(domainId));
    return firstOfMonth(addMonths(thisMonth, -(partner?.monthsAgo ?? 1)));
  };
  const device = (serial: string, typeId: DeviceTypeId, fields: Data): void => {
    const random = new Random(hashSeed('demo-device', serial));
    put(`devices/${serial}`, {
      deviceTypeId: typeId,
      ownerAgencyDomainId: D.agency,
      firmwareVersion: random.next() < 0.15 ? '1.4.1' : DEVICE_TYPES[typeId].firmware,
      battery: typeId === 'nemuri-bed' ? null : Math.round(random.uniform(35, 100)),
      credentialHash: demoCredentialHash(serial),
      ...fields,
    });
  };
  DEMO_ROOMS.forEach((room, index) => {
    const serial = serialOf(index);
    device(serial, room.deviceTypeId, { domainId: room.domainId, roomId: room.id, status: 'in_use' });
    put(`devices/${serial}/borrows/demo-borrow-1`, {
      toDomainId: room.domainId,
      from: at(contractStart(room.domainId), 10),
      until: null,
      returnedAt: null,
      by: agencyAdmin,
      note: room.domainId === D.household ? '個人契約（2台）' : '社会福祉法人さくら会 一括導入',
    });
  });
  const stockTypes: DeviceTypeId[] = ['nemuri-chest', 'nemuri-chest', 'nemuri-chest', 'nemuri-bed', 'nemuri-bed', 'nemuri-eit'];
  stockTypes.forEach((typeId, index) => {
    const serial = serialOf(DEVICES_IN_ROOMS + index);
    device(serial, typeId, { domainId: null, roomId: null, status: 'stock' });
    if (index === 0) {
      put(`devices/${serial}/borrows/demo-borrow-1`, {
        toDomainId: D.facilityB,
        from: at(firstOfMonth(addMonths(thisMonth, -4)), 10),
        until: at(addDays(firstOfMonth(addMonths(thisMonth, -4)), 30), 17),
        returnedAt: at(addDays(firstOfMonth(addMonths(thisMonth, -4)), 28), 15, 20),
        by: agencyAdmin,
        note: '試用貸出（返却済み）',
      });
    }
  });

  // Thirty nights per occupied room, and alerts from the last three.
  const alertDays = new Set([1, 2, 3].map((n) => addDays(today, -n)));
  const acknowledgers = (domainId: string): string[] => {
    if (domainId === D.household) return individual === null ? [] : [individual];
    return DEMO_EXTRA_STAFF.filter((staff) => staff.domainId === domainId && staff.disabled !== true).map((staff) => staff.uid);
  };
  const alerts: DemoRecord[] = [];
  DEMO_ROOMS.forEach((room, index) => {
    if (room.residentName === null) return;
    const profile = sleeperOf(room);
    for (let n = SLEEP_DAYS; n >= 1; n--) {
      const day = addDays(today, -n);
      const night = generateNight(profile, day, new Random(hashSeed('demo-sleep', room.id, day)));
      put(`rooms/${room.id}/sleeps/${day}`, night.record as unknown as Data);
      if (alertDays.has(day))
        alerts.push(
          ...alertsOf(
            room,
            serialOf(index),
            day,
            night.events.filter((event) => event.type === 'outOfBed' || profile.apneaIndex >= MODERATE_APNEA_INDEX),
            acknowledgers(room.domainId),
          ),
        );
    }
  });
  alerts.push(...otherAlerts(today, acknowledgers));
  for (const alert of alerts) put(alert.path, alert.data);
  return records;
}

/** Alerts the alert engine would have raised on this night, ended and acknowledged. */
function alertsOf(room: DemoRoom, serial: string, day: Day, events: readonly NightEvent[], staff: readonly string[]): DemoRecord[] {
  const out: DemoRecord[] = [];
  const random = new Random(hashSeed('demo-alerts', room.id, day));
  let apneaAlerts = 0;
  for (const event of events) {
    let type: string;
    let startedAt: number;
    if (event.type === 'outOfBed') {
      if (event.endedAt - event.startedAt <= CARE_NUMBERS.outOfBedAlertMin * 60_000) continue;
      type = event.endedAt - event.startedAt >= 30 * 60_000 ? 'longOutOfBed' : 'outOfBed';
      startedAt = event.startedAt + CARE_NUMBERS.outOfBedAlertMin * 60_000;
    } else {
      if (event.endedAt - event.startedAt <= CARE_NUMBERS.noBreathingAlertSec * 1000 || apneaAlerts >= 2) continue;
      apneaAlerts++;
      type = 'noBreathing';
      startedAt = event.startedAt + CARE_NUMBERS.noBreathingAlertSec * 1000;
    }
    const acknowledgedAt = Math.min(event.endedAt, startedAt + Math.round(random.uniform(20, 180)) * 1000);
    out.push(
      alertRecord(
        `demo-${day}-${room.id}-${out.length + 1}`,
        room,
        serial,
        type,
        startedAt,
        event.endedAt,
        staff[Math.floor(random.next() * staff.length)] ?? null,
        acknowledgedAt,
      ),
    );
  }
  return out;
}

function alertRecord(
  id: string,
  room: DemoRoom,
  serial: string,
  type: string,
  startedAt: number,
  endedAt: number,
  acknowledgedBy: string | null,
  acknowledgedAt: number,
): DemoRecord {
  return {
    path: `alerts/${id}`,
    data: {
      domainId: room.domainId,
      roomId: room.id,
      deviceSerial: serial,
      type,
      startedAt: tokyoIso(startedAt),
      endedAt: tokyoIso(endedAt),
      acknowledgedBy,
      acknowledgedAt: acknowledgedBy === null ? null : tokyoIso(acknowledgedAt),
    },
  };
}

/** Alerts not tied to a sleep night: nurse calls, a fever, a device that lost its connection. */
function otherAlerts(today: Day, acknowledgers: (domainId: string) => string[]): DemoRecord[] {
  const specs: [roomId: string, type: string, daysAgo: number, minute: number, seconds: number][] = [
    ['demo-a-103', 'button', 1, 23 * 60 + 12, 95],
    ['demo-a-206', 'button', 2, 2 * 60 + 40 + 24 * 60, 140],
    ['demo-b-01', 'button', 2, 4 * 60 + 5 + 24 * 60, 60],
    ['demo-a-108', 'heartRateHigh', 2, 3 * 60 + 18 + 24 * 60, 240],
    ['demo-b-02', 'respirationHigh', 3, 1 * 60 + 50 + 24 * 60, 420],
    ['demo-a-203', 'temperatureHigh', 3, 15 * 60 + 30, 3600],
    ['demo-h-1', 'deviceOffline', 4, 14 * 60 + 2, 1500],
  ];
  return specs.map(([roomId, type, daysAgo, minute, seconds], index) => {
    const roomIndex = DEMO_ROOMS.findIndex((room) => room.id === roomId);
    const room = DEMO_ROOMS[roomIndex] as DemoRoom;
    const startedAt = tokyoInstant(addDays(today, -daysAgo), minute);
    const staff = acknowledgers(room.domainId);
    return alertRecord(
      `demo-${addDays(today, -daysAgo)}-${type}-${index + 1}`,
      room,
      serialOf(roomIndex),
      type,
      startedAt,
      startedAt + seconds * 1000,
      staff[index % Math.max(1, staff.length)] ?? null,
      startedAt + Math.min(seconds, 90) * 1000,
    );
  });
}
