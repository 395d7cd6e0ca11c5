/**
 * What the room configuration screens write, through the document engine. A room and its device
 * point at each other (`rooms.deviceSerial`, `devices.roomId`); the server keeps the pair (the
 * registry's `pairedRecord` rule on rooms): writing the room's device moves the device's room in the
 * same transaction and releases the previous device, and deleting the room releases its device. The
 * server also checks levels, scope and the unique serial; the reads here only explain a refusal
 * better than the server's English would.
 */
import { DocumentError, MESSAGES } from '@nemuri/shared/documents/errors';
import type { Data } from '@nemuri/shared/documents/update';
import type { DocumentsClient } from '../../../lib/documents/client.ts';
import type { RoomFields } from '../roomConfigForm.ts';

type Client = Pick<DocumentsClient, 'runTransaction' | 'update'>;

/** Why the screen refused a write before the server was asked. */
export type RefusalReason = 'deviceTaken' | 'deviceGone' | 'deviceAssigned' | 'roomGone';

export class RoomConfigRefusal extends Error {
  constructor(readonly reason: RefusalReason) {
    super(reason);
    this.name = 'RoomConfigRefusal';
  }
}

function serialOf(record: Data | null): string | null {
  const value = record?.deviceSerial;
  return typeof value === 'string' && value !== '' ? value : null;
}

function roomIdOf(device: Data): string | null {
  const value = device.roomId;
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A new room's id: random, so two administrators creating rooms at once never collide. */
export function newRoomId(): string {
  return `room-${crypto.randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

function defined(fields: Data): Data {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

export interface SaveRoomOptions {
  /** null creates a room under a new id. */
  roomId: string | null;
  fields: RoomFields;
  /** Whether the caller may change the device (administrators); otherwise the stored one stays. */
  changeDevice: boolean;
}

/**
 * Creates or edits a room; when its device changes, the server releases the old device and points
 * the new one at the room in the same transaction. Returns the room's id.
 */
export async function saveRoom(client: Client, { roomId, fields, changeDevice }: SaveRoomOptions): Promise<string> {
  const id = roomId ?? newRoomId();
  const path = `rooms/${id}`;
  await client.runTransaction(async (tx) => {
    const stored = await tx.get(path);
    if (roomId !== null && stored === null) throw new RoomConfigRefusal('roomGone');
    const before = serialOf(stored);
    const after = changeDevice ? (fields.deviceSerial ?? null) : before;
    const newDevice = after !== null && after !== before ? await tx.get(`devices/${after}`) : null;
    if (after !== null && after !== before) {
      if (newDevice === null) throw new RoomConfigRefusal('deviceGone');
      const holder = roomIdOf(newDevice);
      if (holder !== null && holder !== id) throw new RoomConfigRefusal('deviceTaken');
    }
    if (roomId === null) {
      tx.set(path, defined({ ...fields, deviceSerial: after }));
    } else {
      // The domain is fixed once the room exists: moving it would move its history too.
      const { domainId: _domainId, rootDomainId: _rootDomainId, ...changes } = fields;
      tx.update(path, { ...changes, deviceSerial: after });
    }
  });
  return id;
}

/** Assigns a device to the room, or with null releases the room's device (the server moves the device's side). */
export async function setRoomDevice(client: Client, roomId: string, serial: string | null): Promise<void> {
  await client.runTransaction(async (tx) => {
    const stored = await tx.get(`rooms/${roomId}`);
    if (stored === null) throw new RoomConfigRefusal('roomGone');
    const before = serialOf(stored);
    if (before === serial) return;
    const newDevice = serial !== null ? await tx.get(`devices/${serial}`) : null;
    if (serial !== null) {
      if (newDevice === null) throw new RoomConfigRefusal('deviceGone');
      const holder = roomIdOf(newDevice);
      if (holder !== null && holder !== roomId) throw new RoomConfigRefusal('deviceTaken');
    }
    tx.update(`rooms/${roomId}`, { deviceSerial: serial });
  });
}

/**
 * Deletes the room. A room with a device is refused unless `releaseDevice`; the server then frees
 * the device in the same transaction: a device never points at a room that is gone.
 */
export async function deleteRoom(client: Client, roomId: string, { releaseDevice }: { releaseDevice: boolean }): Promise<void> {
  await client.runTransaction(async (tx) => {
    const stored = await tx.get(`rooms/${roomId}`);
    if (stored === null) return;
    const serial = serialOf(stored);
    if (serial !== null && !releaseDevice) throw new RoomConfigRefusal('deviceAssigned');
    tx.delete(`rooms/${roomId}`);
  });
}

/** Writes new sort orders together, so the list never shows half a move. */
export async function saveSortOrders(client: Client, orders: readonly { roomId: string; sortOrder: number }[]): Promise<void> {
  if (orders.length === 0) return;
  await client.runTransaction(async (tx) => {
    for (const { roomId } of orders) if ((await tx.get(`rooms/${roomId}`)) === null) throw new RoomConfigRefusal('roomGone');
    for (const { roomId, sortOrder } of orders) tx.update(`rooms/${roomId}`, { sortOrder });
  });
}

export interface BulkResult<T> {
  item: T;
  error: unknown;
}

/** Runs the write for every item one after the other; returns the items that failed and why. */
export async function runEach<T>(items: readonly T[], write: (item: T) => Promise<unknown>): Promise<BulkResult<T>[]> {
  const failures: BulkResult<T>[] = [];
  for (const item of items) {
    try {
      await write(item);
    } catch (error) {
      failures.push({ item, error });
    }
  }
  return failures;
}

/** Changes the same fields of one room (for the table's bulk operations). */
export async function updateRoom(client: Client, roomId: string, fields: Data): Promise<void> {
  await client.update(`rooms/${roomId}`, fields);
}

/** The `roomConfig.errors` key that explains an error to the user. */
export function errorKeyOf(error: unknown): string {
  if (error instanceof RoomConfigRefusal) return `roomConfig.errors.${error.reason}`;
  if (error instanceof DocumentError) {
    switch (error.code) {
      case 'permission-denied':
        return 'roomConfig.errors.permissionDenied';
      case 'unauthenticated':
        return 'roomConfig.errors.unauthenticated';
      case 'not-found':
        return 'roomConfig.errors.roomGone';
      case 'aborted':
        return 'roomConfig.errors.aborted';
      case 'failed-precondition':
        return 'roomConfig.errors.failedPrecondition';
      case 'unimplemented':
        return 'roomConfig.errors.unexpected';
      case 'invalid-argument':
        if (error.message === MESSAGES.notUnique('deviceSerial')) return 'roomConfig.errors.deviceTaken';
        return error.issues.length > 0 ? 'roomConfig.errors.invalidInput' : 'roomConfig.errors.invalidArgument';
    }
  }
  // fetch rejects with a TypeError when the network is down.
  if (error instanceof TypeError) return 'roomConfig.errors.network';
  return 'roomConfig.errors.unexpected';
}
