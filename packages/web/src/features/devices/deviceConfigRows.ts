/**
 * The device list's rows: each device in scope with its type's name, its room's name and whether
 * it is online, filtered, searched and sorted as the toolbar says.
 */
import type { RecordOf } from '../../lib/documents/records.ts';
import type { Device } from './api/deviceConfigApi.ts';

/**
 * The ingest writes `lastSeenAt` at most every 15 s and calls a device offline 30 s after its last
 * frame (server devices/deviceStatus.ts): a record older than both together is offline.
 */
export const ONLINE_WINDOW_MS = 45_000;

/** Serials as the server accepts them (server devices/deviceRegistry.ts SERIAL_PATTERN). */
export const SERIAL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

import { DEVICE_STATUSES } from '@nemuri/shared/documents/collections';

export { DEVICE_STATUSES };
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

export type Connection = 'online' | 'offline';
export type SortKey = 'serial' | 'room' | 'lastSeen' | 'battery';

export interface DeviceRow {
  serial: string;
  device: Device;
  typeName: string;
  room: RecordOf<'rooms'> | null;
  connection: Connection;
  lastSeenMs: number | null;
}

export interface RowFilter {
  search: string;
  status: DeviceStatus | null;
  connection: Connection | null;
  sort: SortKey;
}

const collator = new Intl.Collator('ja', { numeric: true });

export function lastSeenMsOf(device: Device): number | null {
  if (typeof device.lastSeenAt !== 'string') return null;
  const ms = Date.parse(device.lastSeenAt);
  return Number.isFinite(ms) ? ms : null;
}

export function buildRows(
  devices: readonly Device[],
  types: readonly RecordOf<'deviceTypes'>[],
  rooms: readonly RecordOf<'rooms'>[],
  nowMs: number,
): DeviceRow[] {
  const typeNames = new Map(types.map((type) => [type.documentReferenceId, type.name]));
  const roomsById = new Map(rooms.map((room) => [room.documentReferenceId, room]));
  const roomsBySerial = new Map(
    rooms.filter((room) => typeof room.deviceSerial === 'string' && room.deviceSerial !== '').map((room) => [room.deviceSerial as string, room]),
  );
  return devices.map((device) => {
    const serial = device.documentReferenceId;
    const lastSeenMs = lastSeenMsOf(device);
    const room = (typeof device.roomId === 'string' ? roomsById.get(device.roomId) : undefined) ?? roomsBySerial.get(serial) ?? null;
    return {
      serial,
      device,
      typeName: typeNames.get(device.deviceTypeId) ?? device.deviceTypeId,
      room,
      connection: lastSeenMs !== null && nowMs - lastSeenMs < ONLINE_WINDOW_MS ? 'online' : 'offline',
      lastSeenMs,
    };
  });
}

export function filterRows(rows: readonly DeviceRow[], filter: RowFilter): DeviceRow[] {
  const needle = filter.search.trim().toLowerCase();
  const matches = rows.filter(
    (row) =>
      (filter.status === null || row.device.status === filter.status) &&
      (filter.connection === null || row.connection === filter.connection) &&
      (needle === '' ||
        [row.serial, row.typeName, row.room?.name, row.room?.residentName, row.device.firmwareVersion].some(
          (text) => typeof text === 'string' && text.toLowerCase().includes(needle),
        )),
  );
  const bySerial = (a: DeviceRow, b: DeviceRow) => collator.compare(a.serial, b.serial);
  const compare: Record<SortKey, (a: DeviceRow, b: DeviceRow) => number> = {
    serial: bySerial,
    room: (a, b) => (a.room === null ? 1 : 0) - (b.room === null ? 1 : 0) || collator.compare(a.room?.name ?? '', b.room?.name ?? '') || bySerial(a, b),
    // Never seen sorts last, and so does no battery (a bed sensor on mains).
    lastSeen: (a, b) => (b.lastSeenMs ?? 0) - (a.lastSeenMs ?? 0) || bySerial(a, b),
    battery: (a, b) => (a.device.battery ?? 101) - (b.device.battery ?? 101) || bySerial(a, b),
  };
  return [...matches].sort(compare[filter.sort]);
}

/** The URL a device's QR label opens (/sn/:value resolves it). */
export function serialUrl(origin: string, serial: string): string {
  return `${origin}/sn/${encodeURIComponent(serial)}`;
}

/**
 * The serial a scanned code names: our labels' URL (`…/sn/<serial>`, any origin, since labels
 * printed on one server may be scanned on another), or a bare serial printed by the maker.
 */
export function serialFromCode(raw: string): string | null {
  const text = raw.trim();
  const match = /\/sn\/([^/?#]+)\/?(?:[?#].*)?$/.exec(text);
  let candidate = text;
  if (match?.[1] !== undefined) {
    try {
      candidate = decodeURIComponent(match[1]);
    } catch {
      return null;
    }
  }
  return SERIAL_PATTERN.test(candidate) ? candidate : null;
}
