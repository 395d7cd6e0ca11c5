/**
 * What the lending screen shows, from the live records: one row per device with its holder and
 * open borrow, its borrows newest first, the filters, and the holders grouped by domain.
 */
import type { RecordOf } from '../../lib/documents/records.ts';

type Device = RecordOf<'devices'>;
type Borrow = RecordOf<'devices/borrows'>;
type Domain = RecordOf<'domains'>;
type DeviceType = RecordOf<'deviceTypes'>;

import { DEVICE_STATUSES as BORROW_STATUSES } from '@nemuri/shared/documents/collections';

export { BORROW_STATUSES };
export type BorrowStatus = (typeof BORROW_STATUSES)[number];

export interface BorrowEntry {
  id: string;
  toDomainId: string;
  toDomainName: string;
  from: string;
  until: string | null;
  returnedAt: string | null;
  by: string;
  note: string | null;
  /** When the borrow was recorded: orders borrows starting the same day. */
  createdAt: string;
}

export interface BorrowRow {
  serial: string;
  status: BorrowStatus;
  typeId: string;
  typeName: string;
  /** The domain holding the device (its `domainId`), or null in stock. */
  holderId: string | null;
  holderName: string | null;
  open: BorrowEntry | null;
  /** Newest first. */
  history: BorrowEntry[];
}

export interface BorrowFilter {
  search: string;
  status: BorrowStatus | null;
  domainId: string | null;
  typeId: string | null;
}

export interface HolderGroup {
  domainId: string;
  domainName: string;
  rows: BorrowRow[];
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** `devices/{serial}/borrows/{id}` → serial. */
export function serialOfBorrowPath(path: string): string | null {
  const parts = path.split('/');
  return parts.length === 4 && parts[0] === 'devices' && parts[2] === 'borrows' ? (parts[1] ?? null) : null;
}

function newestFirst(a: BorrowEntry, b: BorrowEntry): number {
  return Date.parse(b.from) - Date.parse(a.from) || Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id.localeCompare(a.id);
}

export function buildBorrowRows(devices: readonly Device[], borrows: readonly Borrow[], domains: readonly Domain[], types: readonly DeviceType[]): BorrowRow[] {
  const domainName = new Map(domains.map((domain) => [domain.documentReferenceId, domain.name]));
  const typeName = new Map(types.map((type) => [type.documentReferenceId, type.name]));
  const nameOf = (id: string) => domainName.get(id) ?? id;
  const bySerial = new Map<string, BorrowEntry[]>();
  for (const borrow of borrows) {
    const serial = serialOfBorrowPath(borrow.documentPath);
    // A record failing its schema comes back as id and path only.
    if (serial === null || text(borrow.toDomainId) === null || text(borrow.from) === null) continue;
    const entry: BorrowEntry = {
      id: borrow.documentReferenceId,
      toDomainId: borrow.toDomainId,
      toDomainName: nameOf(borrow.toDomainId),
      from: borrow.from,
      until: text(borrow.until),
      returnedAt: text(borrow.returnedAt),
      by: borrow.by,
      note: text(borrow.note),
      createdAt: borrow.createdAt,
    };
    bySerial.set(serial, [...(bySerial.get(serial) ?? []), entry]);
  }
  return devices
    .filter((device) => typeof device.status === 'string')
    .map((device) => {
      const serial = device.documentReferenceId;
      const history = (bySerial.get(serial) ?? []).sort(newestFirst);
      const holderId = text(device.domainId);
      return {
        serial,
        status: device.status,
        typeId: device.deviceTypeId,
        typeName: typeName.get(device.deviceTypeId) ?? device.deviceTypeId,
        holderId,
        holderName: holderId === null ? null : nameOf(holderId),
        open: history.find((entry) => entry.returnedAt === null) ?? null,
        history,
      };
    })
    .sort((a, b) => a.serial.localeCompare(b.serial));
}

/** Whether the device may be offered for lending (the server decides in the end). */
export function isLendable(row: BorrowRow): boolean {
  return row.status === 'stock' && row.open === null;
}

export function filterBorrowRows(rows: readonly BorrowRow[], { search, status, domainId, typeId }: BorrowFilter): BorrowRow[] {
  const needle = search.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (status === null || row.status === status) &&
      (domainId === null || row.holderId === domainId) &&
      (typeId === null || row.typeId === typeId) &&
      (needle === '' || [row.serial, row.typeName, row.holderName ?? '', row.open?.note ?? ''].some((value) => value.toLowerCase().includes(needle))),
  );
}

/** Devices out (with a holder), grouped by the holding domain, the largest holders first. */
export function groupByHolder(rows: readonly BorrowRow[]): HolderGroup[] {
  const groups = new Map<string, HolderGroup>();
  for (const row of rows) {
    if (row.holderId === null) continue;
    const group = groups.get(row.holderId) ?? { domainId: row.holderId, domainName: row.holderName ?? row.holderId, rows: [] };
    group.rows.push(row);
    groups.set(row.holderId, group);
  }
  return [...groups.values()].sort((a, b) => b.rows.length - a.rows.length || a.domainName.localeCompare(b.domainName, 'ja'));
}
