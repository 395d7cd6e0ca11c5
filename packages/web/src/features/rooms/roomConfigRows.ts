/**
 * The room list as the configuration screens show it: filtered, grouped by floor and unit, sorted,
 * and the sort-order writes a move up or down needs.
 */
import type { RecordOf } from '../../lib/documents/records.ts';

export type Room = RecordOf<'rooms'>;
export type Device = RecordOf<'devices'>;
export type SortKey = 'sortOrder' | 'name';

export interface RoomFilter {
  search: string;
  floor: string | null;
  unit: string | null;
}

export interface RoomGroup {
  /** Stable key of the floor/unit pair. */
  key: string;
  floor: string | null;
  unit: string | null;
  rooms: Room[];
}

const collator = new Intl.Collator('ja', { numeric: true });

export function compareText(a: string, b: string): number {
  return collator.compare(a, b);
}

/** Distinct non-empty values of a field, in Japanese order (for the filters and the form's suggestions). */
export function distinctValues(rooms: readonly Room[], field: 'floor' | 'unit'): string[] {
  return [...new Set(rooms.map((room) => room[field]).filter((value): value is string => typeof value === 'string' && value !== ''))].sort(compareText);
}

export function matches(room: Room, { search, floor, unit }: RoomFilter): boolean {
  if (floor !== null && room.floor !== floor) return false;
  if (unit !== null && room.unit !== unit) return false;
  const needle = search.trim().toLowerCase();
  return needle === '' || [room.name, room.residentName, room.deviceSerial].some((text) => typeof text === 'string' && text.toLowerCase().includes(needle));
}

/** Rooms without a sort order come last, then by name. */
function bySortOrder(a: Room, b: Room): number {
  const left = typeof a.sortOrder === 'number' ? a.sortOrder : Number.POSITIVE_INFINITY;
  const right = typeof b.sortOrder === 'number' ? b.sortOrder : Number.POSITIVE_INFINITY;
  return left === right ? compareText(a.name, b.name) : left - right;
}

function byName(a: Room, b: Room): number {
  return compareText(a.name, b.name) || bySortOrder(a, b);
}

/** Absent floors and units sort after every named one. */
function compareOptional(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return compareText(a, b);
}

function valueOf(text: string | null | undefined): string | null {
  return typeof text === 'string' && text !== '' ? text : null;
}

/** The matching rooms in floor/unit groups, each group sorted by the chosen key. */
export function groupRooms(rooms: readonly Room[], filter: RoomFilter, sort: SortKey): RoomGroup[] {
  const groups = new Map<string, RoomGroup>();
  for (const room of rooms) {
    if (!matches(room, filter)) continue;
    const floor = valueOf(room.floor);
    const unit = valueOf(room.unit);
    const key = JSON.stringify([floor, unit]);
    const group = groups.get(key) ?? { key, floor, unit, rooms: [] };
    group.rooms.push(room);
    groups.set(key, group);
  }
  const compare = sort === 'sortOrder' ? bySortOrder : byName;
  for (const group of groups.values()) group.rooms.sort(compare);
  const byPlace = (a: RoomGroup, b: RoomGroup) => compareOptional(a.floor, b.floor) || compareOptional(a.unit, b.unit);
  // In sort order the groups follow their first room too: the facility's order, not the collator's (東 after 西).
  const first = (group: RoomGroup) =>
    group.rooms.reduce((min, room) => (typeof room.sortOrder === 'number' && room.sortOrder < min ? room.sortOrder : min), Number.POSITIVE_INFINITY);
  return [...groups.values()].sort(sort === 'sortOrder' ? (a, b) => first(a) - first(b) || byPlace(a, b) : byPlace);
}

/** The sort order a new room gets: after every room there is. */
export function nextSortOrder(rooms: readonly Room[]): number {
  return rooms.reduce((max, room) => (typeof room.sortOrder === 'number' && room.sortOrder > max ? room.sortOrder : max), 0) + 1;
}

/**
 * The writes that move `roomId` one place up (-1) or down (+1) within its group's order. Two rooms
 * with distinct sort orders swap them; otherwise (equal or missing values) the group is numbered
 * again from its lowest value, so that the order shown is the order stored.
 */
export function moveWrites(group: readonly Room[], roomId: string, step: -1 | 1): { roomId: string; sortOrder: number }[] {
  const index = group.findIndex((room) => room.documentReferenceId === roomId);
  const other = index + step;
  const room = group[index];
  const neighbour = group[other];
  if (room === undefined || neighbour === undefined) return [];
  const a = room.sortOrder;
  const b = neighbour.sortOrder;
  if (typeof a === 'number' && typeof b === 'number' && a !== b) {
    return [
      { roomId: room.documentReferenceId, sortOrder: b },
      { roomId: neighbour.documentReferenceId, sortOrder: a },
    ];
  }
  const order = [...group];
  order[index] = neighbour;
  order[other] = room;
  const numbers = group.map((item) => item.sortOrder).filter((value): value is number => typeof value === 'number');
  const base = numbers.length > 0 ? Math.min(...numbers) : 1;
  return order.flatMap((item, position) => (item.sortOrder === base + position ? [] : [{ roomId: item.documentReferenceId, sortOrder: base + position }]));
}

/**
 * Devices a room may take: in the room's domain, not retired, and not held by another room (by the
 * device's own `roomId` or by another room's `deviceSerial`). The room's current device stays listed.
 */
export function assignableDevices(devices: readonly Device[], rooms: readonly Room[], domainId: string, roomId: string | null): Device[] {
  const heldBy = new Map<string, string>();
  for (const room of rooms) if (room.deviceSerial) heldBy.set(room.deviceSerial, room.documentReferenceId);
  return devices
    .filter((device) => {
      const serial = device.documentReferenceId;
      const holder = heldBy.get(serial) ?? valueOf(device.roomId);
      if (holder !== null && holder === roomId) return true;
      return holder === null && device.domainId === domainId && device.status !== 'retired';
    })
    .sort((a, b) => compareText(a.documentReferenceId, b.documentReferenceId));
}
