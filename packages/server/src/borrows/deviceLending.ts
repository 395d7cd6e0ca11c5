/**
 * Lending a device to a domain and taking it back (docs/api.md, "Device lending"), as one engine
 * transaction each, so that the rules hold however many requests arrive at once.
 *
 * The guard against a device lent twice is the device record's version: every lend reads the
 * device, checks it has no open borrow, and commits the new borrow together with the device's new
 * status against the version it read. The engine locks the records a commit read and refuses the
 * commit when one changed (`aborted`), so of two simultaneous lends the second one finds the
 * device changed, reads it again and is refused as already lent.
 *
 * Who may lend: developers (100+) any device; agency users (50+) the devices their agency owns
 * (`ownerAgencyDomainId`), to domains in their scope (their partners). Writes use the caller's
 * claims, so the engine's scope checks apply and its audit log names the caller.
 */
import { randomUUID } from 'node:crypto';
import type { LendingResult } from '@nemuri/shared/deviceLending';
import type { Claims } from '@nemuri/shared/documents/access';
import type { StoredRecord } from '@nemuri/shared/documents/answers';
import { DocumentError } from '@nemuri/shared/documents/errors';
import type { Data } from '@nemuri/shared/documents/update';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { readEveryPage } from '../documents/keysetPage.ts';
import type { DocumentStore } from '../documents/store.ts';
import { SERIAL_PATTERN } from '../devices/deviceRegistry.ts';
import { LendingError } from './lendingError.ts';

/** How often a lend or return reads again after a concurrent change before giving up. */
const ATTEMPTS = 3;
const ID_PATTERN = /^[^/]+$/;

export interface LendRequest {
  toDomainId: string;
  from: string;
  until?: string | null | undefined;
  note?: string | null | undefined;
}

/** The engine's records always carry the common fields (documentReferenceId, documentPath) the answers name. */
const asStored = (record: Data | undefined): StoredRecord | null => (record as StoredRecord | undefined) ?? null;

interface Found {
  data: Data;
  version: number;
}

type Write = { op: 'set'; path: string; data: Data } | { op: 'update'; path: string; data: Data };

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function isOpen(borrow: Data): boolean {
  return text(borrow.returnedAt) === null;
}

export class DeviceLending {
  constructor(private readonly store: DocumentStore) {}

  /** A record the caller may read, or null (absent or outside the scope: the caller must not tell which). */
  async #readable(claims: Claims, path: string): Promise<Found | null> {
    try {
      const found = await this.store.get(claims, path);
      return found === null ? null : { data: found.document, version: found.version };
    } catch (error) {
      if (error instanceof DocumentError && error.code === 'permission-denied') return null;
      throw error;
    }
  }

  async #device(claims: Claims, serial: string): Promise<Found> {
    const device = SERIAL_PATTERN.test(serial) ? await this.#readable(claims, `devices/${serial}`) : null;
    if (device === null) throw new LendingError(404, 'not-found', 'device-not-found', `No device ${serial}`);
    if (claims.accessLevel < ROLE_LEVELS.developer && (claims.domainId === null || device.data.ownerAgencyDomainId !== claims.domainId)) {
      throw new LendingError(403, 'permission-denied', 'not-owner', `Device ${serial} is not owned by your agency`);
    }
    return device;
  }

  async #borrows(claims: Claims, serial: string): Promise<Data[]> {
    // All of them: an open borrow past the first page would otherwise let the device be lent twice.
    return readEveryPage(this.store, claims, { collection: `devices/${serial}/borrows` });
  }

  /** The room the device names and the room naming the device (normally one and the same). */
  async #roomsHolding(claims: Claims, serial: string, device: Data): Promise<Set<string>> {
    const ids = new Set<string>();
    const named = text(device.roomId);
    if (named !== null) ids.add(named);
    const holding = await this.store.lookup(claims, { collection: 'rooms', field: 'deviceSerial', value: serial });
    const holdingId = text(holding?.documentReferenceId);
    if (holdingId !== null) ids.add(holdingId);
    return ids;
  }

  /** Runs `attempt` again when its commit found a record changed since it was read. */
  async #retrying<T>(attempt: () => Promise<T>): Promise<T> {
    for (let remaining = ATTEMPTS; ; remaining--) {
      try {
        return await attempt();
      } catch (error) {
        const changed = error instanceof DocumentError && error.code === 'aborted';
        if (!changed) throw error;
        if (remaining <= 1) throw new LendingError(409, 'already-exists', 'conflict', 'The device changed during the request; try again');
      }
    }
  }

  async #result(claims: Claims, serial: string, borrowId: string): Promise<LendingResult> {
    const [device, borrow] = await Promise.all([this.store.get(claims, `devices/${serial}`), this.store.get(claims, `devices/${serial}/borrows/${borrowId}`)]);
    return { device: asStored(device?.document), borrow: asStored(borrow?.document) };
  }

  async lend(claims: Claims, serial: string, request: LendRequest): Promise<LendingResult & { borrowId: string }> {
    if (request.until !== undefined && request.until !== null && Date.parse(request.until) <= Date.parse(request.from)) {
      throw new LendingError(400, 'invalid-argument', 'invalid-period', 'until must be after from');
    }
    if (!ID_PATTERN.test(request.toDomainId)) throw new LendingError(404, 'not-found', 'domain-not-found', `No domain ${request.toDomainId}`);
    const borrowId = randomUUID();
    await this.#retrying(async () => {
      const device = await this.#device(claims, serial);
      const status = device.data.status;
      if (status === 'retired') throw new LendingError(412, 'failed-precondition', 'device-retired', `Device ${serial} is retired`);
      if (status === 'repair') throw new LendingError(412, 'failed-precondition', 'device-in-repair', `Device ${serial} is in repair`);
      const open = (await this.#borrows(claims, serial)).filter(isOpen);
      // A device out without a borrow record (older data) counts as held too: it is not in stock.
      if (open.length > 0 || status === 'lent' || status === 'in_use') {
        const holder = text(open[0]?.toDomainId) ?? text(device.data.domainId) ?? '?';
        throw new LendingError(409, 'already-exists', 'already-lent', `Device ${serial} is already lent to ${holder}; return it first`);
      }
      const domainPath = `domains/${request.toDomainId}`;
      const domain = await this.#readable(claims, domainPath);
      if (domain === null) throw new LendingError(404, 'not-found', 'domain-not-found', `No domain ${request.toDomainId}`);
      const borrow: Data = {
        toDomainId: request.toDomainId,
        from: request.from,
        until: request.until ?? null,
        returnedAt: null,
        by: claims.uid,
        note: request.note ?? null,
      };
      const writes: Write[] = [
        { op: 'set', path: `devices/${serial}/borrows/${borrowId}`, data: borrow },
        { op: 'update', path: `devices/${serial}`, data: { domainId: request.toDomainId, roomId: null, status: 'lent' } },
      ];
      await this.store.commit(claims, {
        reads: [
          { path: `devices/${serial}`, version: device.version },
          { path: domainPath, version: domain.version },
        ],
        writes,
      });
    });
    return { borrowId, ...(await this.#result(claims, serial, borrowId)) };
  }

  /**
   * Ends an open borrow: `returnedAt` now, the device back in stock without domain or room, and the
   * room that held it freed, all in one transaction.
   */
  async giveBack(claims: Claims, serial: string, borrowId: string): Promise<LendingResult> {
    if (!ID_PATTERN.test(borrowId)) throw new LendingError(404, 'not-found', 'borrow-not-found', `No borrow ${borrowId}`);
    const borrowPath = `devices/${serial}/borrows/${borrowId}`;
    await this.#retrying(async () => {
      const device = await this.#device(claims, serial);
      const borrow = await this.#readable(claims, borrowPath);
      if (borrow === null) throw new LendingError(404, 'not-found', 'borrow-not-found', `No borrow ${borrowId} of device ${serial}`);
      if (!isOpen(borrow.data)) throw new LendingError(409, 'already-exists', 'already-returned', `Borrow ${borrowId} was already returned`);
      const reads = [
        { path: `devices/${serial}`, version: device.version },
        { path: borrowPath, version: borrow.version },
      ];
      const writes: Write[] = [
        { op: 'update', path: borrowPath, data: { returnedAt: new Date().toISOString() } },
        { op: 'update', path: `devices/${serial}`, data: { domainId: null, roomId: null, status: 'stock' } },
      ];
      for (const roomId of await this.#roomsHolding(claims, serial, device.data)) {
        const room = await this.#readable(claims, `rooms/${roomId}`);
        if (room === null || room.data.deviceSerial !== serial) continue;
        reads.push({ path: `rooms/${roomId}`, version: room.version });
        writes.push({ op: 'update', path: `rooms/${roomId}`, data: { deviceSerial: null } });
      }
      await this.store.commit(claims, { reads, writes });
    });
    return this.#result(claims, serial, borrowId);
  }

  /** The device's borrows, newest first. */
  async history(claims: Claims, serial: string): Promise<StoredRecord[]> {
    await this.#device(claims, serial);
    const borrows = await this.#borrows(claims, serial);
    const time = (value: unknown) => (typeof value === 'string' ? Date.parse(value) : 0);
    // Borrows starting the same day keep the order they were recorded in.
    return borrows.sort((a, b) => time(b.from) - time(a.from) || time(b.createdAt) - time(a.createdAt)).map((borrow) => borrow as StoredRecord);
  }
}
